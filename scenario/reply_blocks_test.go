package scenario_test

import (
	"encoding/json"
	"testing"

	"github.com/llmtestserver/llmtestserver/scenario"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestReplyBlocksTravelAsJSON sends a reply with Anthropic's blocks through
// its JSON form and back unchanged, and refuses blocks a reply cannot have.
func TestReplyBlocksTravelAsJSON(t *testing.T) {
	r := scenario.Reply{Text: "Two.", FinishReason: scenario.FinishPauseTurn, RedactedThinking: []string{"x"},
		WebSearches:  []scenario.WebSearch{{ID: "srvtoolu_1", Query: "q", Results: []scenario.WebResult{{URL: "https://a.example", Title: "A", PageAge: "1 day"}}}},
		Citations:    []scenario.Citation{{CitedText: "two", URL: "https://a.example", Title: "A"}},
		Iterations:   []scenario.Iteration{{Type: "compaction", InputTokens: 9, OutputTokens: 1}},
		AppliedEdits: []scenario.AppliedEdit{{Type: "clear_thinking_20251015", ClearedInputTokens: 3, ClearedThinkingTurns: 1}}}
	require.NoError(t, r.Validate())
	b, err := json.Marshal(r)
	require.NoError(t, err)
	assert.JSONEq(t, `{"text":"Two.","finish_reason":"pause_turn","redacted_thinking":["x"],
		"web_searches":[{"id":"srvtoolu_1","query":"q","results":[{"url":"https://a.example","title":"A","page_age":"1 day"}]}],
		"citations":[{"cited_text":"two","url":"https://a.example","title":"A"}],
		"iterations":[{"type":"compaction","input_tokens":9,"output_tokens":1}],
		"applied_edits":[{"type":"clear_thinking_20251015","cleared_input_tokens":3,"cleared_thinking_turns":1}]}`, string(b))
	var back scenario.Reply
	require.NoError(t, json.Unmarshal(b, &back))
	assert.Equal(t, r, back)

	for name, bad := range map[string]scenario.Reply{
		"citations without text":        {JSON: json.RawMessage(`{}`), Citations: r.Citations},
		"a search with no query":        {Text: "x", WebSearches: []scenario.WebSearch{{}}},
		"a result that is no URL":       {Text: "x", WebSearches: []scenario.WebSearch{{Query: "q", Results: []scenario.WebResult{{URL: "a"}}}}},
		"redacted thinking alone":       {RedactedThinking: []string{"x"}},
		"empty redacted thinking":       {Text: "x", RedactedThinking: []string{""}},
		"a citation with no cited text": {Text: "x", Citations: []scenario.Citation{{URL: "https://a.example"}}},
		"an unknown iteration":          {Text: "x", Iterations: []scenario.Iteration{{Type: "retry"}}},
		"negative iteration tokens":     {Text: "x", Iterations: []scenario.Iteration{{Type: "message", InputTokens: -1}}},
		"an unknown edit":               {Text: "x", AppliedEdits: []scenario.AppliedEdit{{Type: "clear_all"}}},
	} {
		assert.Error(t, bad.Validate(), name)
	}
}
