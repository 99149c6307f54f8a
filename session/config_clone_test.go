package session_test

import (
	"encoding/json"
	"testing"

	"github.com/llmtestserver/llmtestserver/scenario"
	"github.com/llmtestserver/llmtestserver/session"
)

// richScenario holds every part of a scenario that is a slice, map or
// pointer: a match tree with all, any and not, and replies with tool calls,
// JSON, an error with headers, vectors and usage.
func richScenario() scenario.Scenario {
	return scenario.Scenario{
		Name: "rich",
		Match: scenario.All(scenario.UserRegex(`^a`),
			scenario.Any(scenario.UserRegex(`b`), scenario.Not(scenario.UserRegex(`c$`)))),
		Replies: []scenario.Reply{
			{Text: "t", ToolCalls: []scenario.ToolCall{{Name: "f", Arguments: `{}`}}, Usage: &scenario.Usage{Input: 1}},
			{JSON: json.RawMessage(`{"a":1}`)},
			{Error: &scenario.Error{Status: 429, Headers: map[string]string{"Retry-After": "0"}}},
			{Vectors: [][]float32{{1, 0}}},
		},
	}
}

// A configuration built from another shares nothing with it: changing every
// part of the copy's scenario leaves the original as it was.
func TestConfigsShareNoScenarioState(t *testing.T) {
	orig, err := session.NewConfig(session.WithScenario(richScenario()))
	if err != nil {
		t.Fatal(err)
	}
	before, err := json.Marshal(orig)
	if err != nil {
		t.Fatal(err)
	}
	cp, err := session.NewConfig(session.WithConfig(orig))
	if err != nil {
		t.Fatal(err)
	}
	s := &cp.Scenarios[0]
	s.Match.All[0].UserRegex = "changed"
	s.Match.All[1].Any[1].Not.UserRegex = "changed"
	s.Replies[0].ToolCalls[0].Name = "changed"
	s.Replies[0].Usage.Input = 99
	s.Replies[1].JSON[2] = 'z'
	s.Replies[2].Error.Headers["Retry-After"] = "99"
	s.Replies[3].Vectors[0][0] = 99
	after, err := json.Marshal(orig)
	if err != nil {
		t.Fatal(err)
	}
	if string(after) != string(before) {
		t.Errorf("changing a copy changed the original:\n%s\nwant\n%s", after, before)
	}
}
