package openai

import "net/http"

// A function_call_output names the call it answers by call_id. openai-go
// v3.98 makes call_id optional and adds name, namespace and caller (the
// tool, and whether the model called it directly or a program did). Whether
// the real API still requires call_id is not seen; this server infers that
// one of call_id and name must be sent, and matches an output without
// call_id to the earliest unanswered function_call of that name (and
// namespace), so that matchers see the call's ID on the tool message as for
// any other output.

// decodeOutputCaller reads what names the call a function_call_output
// answers: call_id, or name and namespace; caller must be an object.
func decodeOutputCaller(o rawObject, it *Item) *Error {
	var err *Error
	if it.CallID, err = o.str("call_id"); err != nil {
		return err
	}
	if it.Name, err = o.str("name"); err != nil {
		return err
	}
	if it.Namespace, err = o.str("namespace"); err != nil {
		return err
	}
	if o.has("caller") {
		if _, err := readObject(o.param("caller"), o.members["caller"], "an object"); err != nil {
			return err
		}
	}
	if it.CallID == "" && it.Name == "" {
		return MissingParameter(o.param("call_id"))
	}
	return nil
}

// resolveCallOutputs gives each function_call_output of input that names
// its tool instead of a call the call_id of the earliest function_call of
// prior or input, before it, with that name and namespace that no output
// answers yet. An output no call matches is refused, in words modelled on
// the API's for an unknown call_id (inferred).
func resolveCallOutputs(prior, input []Item) *Error {
	type tool struct{ name, namespace string }
	answered := map[string]bool{}
	// Calls of each tool in order, with a cursor past the answered ones,
	// so that each output costs what it skips once: linear in the items.
	calls := map[tool][]string{}
	next := map[tool]int{}
	see := func(it Item) {
		switch it.Type {
		case "function_call":
			k := tool{it.Name, it.Namespace}
			calls[k] = append(calls[k], it.CallID)
		case "function_call_output":
			answered[it.CallID] = true
		}
	}
	for _, it := range prior {
		see(it)
	}
	for i := range input {
		it := &input[i]
		if it.Type == "function_call_output" && it.CallID == "" {
			k := tool{it.Name, it.Namespace}
			ids := calls[k]
			for next[k] < len(ids) && answered[ids[next[k]]] {
				next[k]++
			}
			if next[k] == len(ids) {
				return invalidRequest(http.StatusBadRequest, "", "input",
					"No tool call found for function call output with name %s.", it.Name)
			}
			it.CallID = ids[next[k]]
		}
		see(*it)
	}
	return nil
}
