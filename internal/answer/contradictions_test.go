package answer

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/llmtestserver/llmtestserver/scenario"
)

// Each contradiction says what the reply did and what the request
// allowed; a reply that fits its request has none.
func TestContradictions(t *testing.T) {
	tools := []scenario.Tool{{Name: "get_weather"}, {Name: "get_time"}}
	weather := scenario.ToolCall{Name: "get_weather"}
	one, several := new(false), new(true)
	for _, tc := range []struct {
		name  string
		req   scenario.Request
		reply scenario.Reply
		want  []string
	}{
		{"text, no tools", scenario.Request{}, scenario.Reply{Text: "hi"}, nil},
		{"refusal under required", scenario.Request{Tools: tools, ToolChoice: "required"}, scenario.Reply{Refusal: "no"},
			[]string{`the reply refuses without a tool call, but the request's tool_choice is "required": it allows only tool calls`}},
		{"JSON under a forced function", scenario.Request{Tools: tools, ToolChoice: "get_time"}, scenario.Reply{JSON: json.RawMessage(`{}`)},
			[]string{"the reply answers JSON without a tool call, but the request's tool_choice forces a call to get_time"}},
		{"nothing under required", scenario.Request{Tools: tools, ToolChoice: "required"}, scenario.Reply{},
			[]string{`the reply answers without a tool call, but the request's tool_choice is "required": it allows only tool calls`}},
		{"an unoffered call under none, twice, one allowed", scenario.Request{ToolChoice: "none", ParallelToolCalls: one},
			scenario.Reply{ToolCalls: []scenario.ToolCall{weather, weather}},
			[]string{
				`the reply calls get_weather, get_weather, but the request's tool_choice is "none": it allows no tool call`,
				"the reply calls get_weather, which the request does not offer (it offers no tools)",
				"the reply calls get_weather, which the request does not offer (it offers no tools)",
				"the reply makes 2 tool calls (get_weather, get_weather), but the request's parallel_tool_calls is false: it allows one at most",
			}},
		{"several allowed", scenario.Request{Tools: tools, ParallelToolCalls: several},
			scenario.Reply{ToolCalls: []scenario.ToolCall{weather, {Name: "get_time"}}}, nil},
		{"one call, one allowed, auto", scenario.Request{Tools: tools, ToolChoice: "auto", ParallelToolCalls: one},
			scenario.Reply{ToolCalls: []scenario.ToolCall{weather}}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, contradictions(&tc.req, &tc.reply))
		})
	}
}
