package admin

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"

	"github.com/llmtestserver/llmtestserver/internal/apierr"
	"github.com/llmtestserver/llmtestserver/internal/plainjson"
	"github.com/llmtestserver/llmtestserver/scenario"
)

// scenarioList is the body of POST and GET /admin-api/scenarios.
type scenarioList struct {
	Object    string           `json:"object,omitempty"`
	Scenarios []scenarioStatus `json:"scenarios"`
}

// scenarioStatus is a scenario with what is left of its queue.
type scenarioStatus struct {
	scenario.Scenario
	Remaining               int            `json:"remaining"`
	RemainingByConversation map[string]int `json:"remaining_by_conversation,omitempty"`
}

// MarshalJSON flattens the scenario and its counts into one object. A
// scenario that holds a Go function cannot travel as JSON: it is listed by
// name, marked in_process_only.
func (s scenarioStatus) MarshalJSON() ([]byte, error) {
	b, err := plainjson.Marshal(s.Scenario)
	inProcessOnly := errors.Is(err, scenario.ErrInProcessOnly)
	switch {
	case inProcessOnly:
		b, _ = plainjson.Marshal(struct {
			Name string `json:"name"`
		}{s.Scenario.Name})
	case err != nil:
		return nil, err
	}
	extra, err := plainjson.Marshal(struct {
		InProcessOnly           bool           `json:"in_process_only,omitempty"`
		Remaining               int            `json:"remaining"`
		RemainingByConversation map[string]int `json:"remaining_by_conversation,omitempty"`
	}{inProcessOnly, s.Remaining, s.RemainingByConversation})
	if err != nil {
		return nil, err
	}
	return append(append(b[:len(b)-1], ','), extra[1:]...), nil
}

// listScenarios serves GET /admin-api/scenarios: the selected runtime's
// scenarios with their remaining replies.
func (h *Handler) listScenarios(w http.ResponseWriter, _ *http.Request, c call) {
	sel := c.sel
	list := scenarioList{Object: "list", Scenarios: []scenarioStatus{}}
	for _, st := range sel.rt.Scenarios() {
		list.Scenarios = append(list.Scenarios, scenarioStatus{st.Scenario, st.Remaining, st.RemainingByConversation})
	}
	writeJSON(w, http.StatusOK, list)
}

// addScenarios serves POST /admin-api/scenarios: {"scenarios": [...]} are
// added after the existing ones; a scenario named like an existing one
// replaces its match and flags and appends its replies, as the Go builder
// does. The session layer checks them as it checks a configuration, so
// nothing is added unless every scenario is valid and the result fits the
// size limit and the reservation budget.
func (h *Handler) addScenarios(w http.ResponseWriter, r *http.Request, c call) {
	sel := c.sel
	body, err := h.readBody(r)
	if err != nil {
		writeError(w, err)
		return
	}
	if aerr := h.sessions.AddScenarios(sel.id, body); aerr != nil {
		writeError(w, asAPIError(aerr))
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

// DecodeScenarioList reads the body of POST /admin-api/scenarios. It takes
// the listing of GET as it is: the fields that describe a queue's state
// (object, remaining, remaining_by_conversation) are dropped, every other
// unknown field is refused. The scenarios are not validated yet.
func DecodeScenarioList(body []byte) ([]scenario.Scenario, *apierr.Error) {
	var outer struct {
		Object    string            `json:"object"`
		Scenarios []json.RawMessage `json:"scenarios"`
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&outer); err != nil {
		return nil, apierr.InvalidConfiguration("scenarios", err.Error())
	}
	scenarios := make([]scenario.Scenario, len(outer.Scenarios))
	for i, raw := range outer.Scenarios {
		var fields map[string]json.RawMessage
		if err := json.Unmarshal(raw, &fields); err != nil {
			return nil, apierr.InvalidConfiguration(fmt.Sprintf("scenarios[%d]", i), err.Error())
		}
		if _, ok := fields["in_process_only"]; ok {
			return nil, apierr.InvalidConfiguration(fmt.Sprintf("scenarios[%d]", i),
				"the scenario holds a Go function, which works in-process only")
		}
		delete(fields, "remaining")
		delete(fields, "remaining_by_conversation")
		clean, _ := plainjson.Marshal(fields) // re-encoding decoded JSON cannot fail
		if err := json.Unmarshal(clean, &scenarios[i]); err != nil {
			return nil, apierr.InvalidConfiguration(fmt.Sprintf("scenarios[%d]", i), err.Error())
		}
	}
	return scenarios, nil
}
