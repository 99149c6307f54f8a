package scenario_test

import (
	"fmt"
	"testing"

	"github.com/llmtestserver/llmtestserver/scenario"
)

// BenchmarkExplainManyToolResults explains a miss to a request with 20,000
// tool calls and as many results: every condition is checked, so a
// per-result search of the calls would make it quadratic (seconds, where
// the index keeps it to milliseconds).
func BenchmarkExplainManyToolResults(b *testing.B) {
	const n = 20_000
	calls := make([]scenario.ToolCall, n)
	r := &scenario.Request{Endpoint: scenario.EndpointChatCompletions, Model: "m"}
	for i := range calls {
		calls[i] = scenario.ToolCall{ID: fmt.Sprint("c", i), Name: "f"}
	}
	r.Messages = append(r.Messages, scenario.Message{Role: "user", Content: "hi"}, scenario.Message{Role: "assistant", ToolCalls: calls})
	for i := range n {
		r.Messages = append(r.Messages, scenario.Message{Role: "tool", ToolCallID: fmt.Sprint("x", i)})
	}
	m := scenario.Match{Model: "other", ToolResult: "nope"}
	for b.Loop() {
		m.Explain(r)
	}
}
