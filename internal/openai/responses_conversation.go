package openai

import (
	"bytes"
	"encoding/json"
	"maps"
	"net/http"
	"slices"
	"strconv"
	"strings"

	"github.com/llmtestserver/llmtestserver/scenario"
)

// InputItems turns the request's input into items: a string input becomes
// one user message, and every item without an ID but an item reference
// gets one from newID, called with its type's prefix (see itemPrefix; an
// item kept as sent carries it in its JSON too). Item references are
// returned as sent; the caller resolves them against its history. Each
// call returns fresh copies.
func (r *ResponsesRequest) InputItems(newID func(prefix string) string) []Item {
	out := make([]Item, len(r.items))
	for i, it := range r.items {
		it.Content = slices.Clone(it.Content)
		it.OutputParts = slices.Clone(it.OutputParts)
		if it.ID == "" && newID != nil && it.Type != "item_reference" {
			it.ID = newID(itemPrefix(it.Type))
			if len(it.Raw) > 0 {
				it.Raw = withID(it.Raw, it.ID)
			}
		}
		out[i] = it
	}
	return out
}

// itemPrefixes are the ID prefixes of the item types beyond messages and
// function calls, as the API names the items it makes (ws_, fs_, ci_, ig_,
// cu_, rs_, mcp_ seen; the prefixes of the output items a client sends,
// ctco_, cuo_, lsho_, mcpr_, are inferred).
var itemPrefixes = map[string]string{
	"message": "msg_", "function_call": FunctionCallItemPrefix, "function_call_output": FunctionCallOutputItemPrefix,
	"reasoning": "rs_", "web_search_call": "ws_", "file_search_call": "fs_", "code_interpreter_call": "ci_",
	"image_generation_call": "ig_", "computer_call": "cu_", "computer_call_output": "cuo_",
	"custom_tool_call": "ctc_", "custom_tool_call_output": "ctco_", "local_shell_call": "lsh_",
	"local_shell_call_output": "lsho_", "mcp_call": "mcp_", "mcp_list_tools": "mcpl_",
	"mcp_approval_request": "mcpr_", "mcp_approval_response": "mcpr_",
	"compaction": CompactionItemPrefix,
}

// itemPrefix is the ID prefix of an item of type typ, and "item_" for a
// type without a known one.
func itemPrefix(typ string) string {
	if p, ok := itemPrefixes[typ]; ok {
		return p
	}
	return "item_"
}

// withID returns a copy of the JSON object raw with "id" set first, for an
// item kept as sent that needs the ID the server gave it.
func withID(raw json.RawMessage, id string) json.RawMessage {
	rest := bytes.TrimSpace(raw)[1:] // raw is an object: decodeItem checked it
	out := make(json.RawMessage, 0, len(rest)+len(id)+9)
	out = append(out, `{"id":`...)
	out = strconv.AppendQuote(out, id)
	if t := bytes.TrimSpace(rest); len(t) > 0 && t[0] != '}' {
		out = append(out, ',')
	}
	return append(out, rest...)
}

// Item ID prefixes. The API requires client-chosen IDs of function_call and
// function_call_output items to begin with "fc" ("Expected an ID that begins
// with 'fc'" for both), and names call items "fc_…"; the prefix of the
// output items it generates is not documented, so they get "fc_" too.
const (
	FunctionCallItemPrefix       = "fc_"
	FunctionCallOutputItemPrefix = "fc_"
)

// ValidateToolOutputs checks the tool turns of a whole conversation: items
// is the previous_response_id chain (each earlier response's input items
// then its output items, oldest first) followed by the new request's input.
// The rules, in the order they are checked:
//
//   - no two items share an ID ("Duplicate item found with id …", param
//     input), which is what the API answers when a client re-sends items the
//     chain already holds;
//   - every function_call_output answers a function_call earlier in items
//     ("No tool call found for function call output with call_id …");
//   - every function_call has a function_call_output somewhere after it
//     ("No tool output found for function call …").
//
// The last rule needs no special case for the chain's last response: its
// calls sit before the new input, so the outputs the new input carries
// answer them, and a new input without them moves the conversation on past
// unanswered calls, which is exactly when the API refuses. A call in the new
// input itself must likewise be answered within it. Item references are
// skipped; resolve them first. All errors are 400 invalid_request_error
// with code null and param "input".
func ValidateToolOutputs(items []Item) *Error {
	seen := make(map[string]bool, len(items))
	for _, it := range items {
		if it.ID == "" || it.Type == "item_reference" {
			continue
		}
		if seen[it.ID] {
			return invalidRequest(http.StatusBadRequest, "", "input",
				"Duplicate item found with id %s. Remove duplicate items from your input and try again.", it.ID)
		}
		seen[it.ID] = true
	}
	calls := make(map[string]bool)
	var order []string // call IDs in the order the calls appear
	for _, it := range items {
		switch it.Type {
		case "function_call":
			if _, ok := calls[it.CallID]; !ok {
				calls[it.CallID] = false
				order = append(order, it.CallID)
			}
		case "function_call_output":
			if _, ok := calls[it.CallID]; !ok {
				return invalidRequest(http.StatusBadRequest, "", "input",
					"No tool call found for function call output with call_id %s.", it.CallID)
			}
			calls[it.CallID] = true
		}
	}
	for _, id := range order {
		if !calls[id] {
			return invalidRequest(http.StatusBadRequest, "", "input", "No tool output found for function call %s.", id)
		}
	}
	return nil
}

// NormalizeResponses turns a Responses conversation into the form scenarios
// see. items is the whole conversation as ValidateToolOutputs takes it;
// instructions are this request's only (the API does not carry them over
// previous_response_id). System joins instructions and the system and
// developer messages, in order. User and assistant messages keep their text
// parts joined by newlines (a refusal's text when there is no other);
// consecutive function_call items become one
// assistant message with tool calls (joining an assistant message right
// before them); function_call_output items become tool messages. Tools,
// tool choice, format, stream, prompt_cache_key, user (else
// safety_identifier) and metadata come from req, which may be nil.
// Conversation is set only when req names a conversation; Generation and
// Turn are left to the runtime.
func NormalizeResponses(model, instructions string, items []Item, req *ResponsesRequest) *scenario.Request {
	n := &scenario.Request{Endpoint: scenario.EndpointResponses, Model: model, Messages: []scenario.Message{}}
	var system []string
	if instructions != "" {
		system = append(system, instructions)
	}
	prevCall := false // the previous item joined the last message's tool calls, or may take them
	for _, it := range items {
		switch it.Type {
		case "message":
			switch it.Role {
			case "system", "developer":
				system = append(system, it.Text())
				prevCall = false
				continue
			}
			n.Messages = append(n.Messages, scenario.Message{Role: it.Role, Content: it.Text()})
			prevCall = it.Role == "assistant"
		case "function_call":
			call := scenario.ToolCall{ID: it.CallID, Name: it.Name, Arguments: it.Arguments}
			if last := len(n.Messages) - 1; prevCall && last >= 0 && n.Messages[last].Role == "assistant" {
				n.Messages[last].ToolCalls = append(n.Messages[last].ToolCalls, call)
			} else {
				n.Messages = append(n.Messages, scenario.Message{Role: "assistant", ToolCalls: []scenario.ToolCall{call}})
			}
			prevCall = true
		case "function_call_output":
			n.Messages = append(n.Messages, scenario.Message{Role: "tool", Content: it.Output, ToolCallID: it.CallID})
			prevCall = false
		default:
			// reasoning and hosted-tool items do not interrupt a run of calls
		}
	}
	n.System = strings.Join(system, "\n")
	if req == nil {
		return n
	}
	n.Stream = req.Stream
	if m := req.MaxOutputTokens; m != nil {
		n.MaxOutputTokens = int(*m)
	}
	n.ToolChoice = req.toolChoice
	if p := req.ParallelToolCalls; p != nil {
		n.ParallelToolCalls = new(*p)
	}
	n.PromptCacheKey = req.PromptCacheKey
	n.Temperature, n.TopP = req.Temperature, req.TopP
	n.PreviousResponseID, n.ConversationID = req.PreviousResponseID, req.ConversationID()
	n.User = req.User
	if n.User == "" {
		n.User = req.SafetyIdentifier
	}
	n.Metadata = maps.Clone(req.Metadata)
	if rf := req.format; rf != nil {
		c := *rf
		c.Schema = bytes.Clone(rf.Schema)
		n.ResponseFormat = &c
	}
	for _, t := range req.tools {
		if t.Type != "function" {
			continue
		}
		tool := scenario.Tool{Name: t.Name, Parameters: bytes.Clone(t.Parameters)}
		if t.Description != nil {
			tool.Description = *t.Description
		}
		n.Tools = append(n.Tools, tool)
	}
	n.Conversation = req.conversationID
	return n
}

// Normalize is NormalizeResponses over this request alone: its model,
// instructions and input items, without any previous_response_id chain.
func (r *ResponsesRequest) Normalize() *scenario.Request {
	return NormalizeResponses(r.Model, r.Instructions, r.items, r)
}
