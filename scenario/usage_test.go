package scenario_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/llmtestserver/llmtestserver/scenario"
)

// A usage override scripts reasoning and cached tokens inside the
// completion and prompt counts, in Go and in JSON, where they are
// reasoning_tokens and cached_tokens (left out when zero).
func TestUsageReasoningAndCachedTokens(t *testing.T) {
	for _, tt := range []struct {
		name  string
		usage scenario.Usage
		err   string
	}{
		{"within", scenario.Usage{PromptTokens: 2000, CompletionTokens: 300, ReasoningTokens: 300, CachedTokens: 2000}, ""},
		{"reasoning past completion", scenario.Usage{PromptTokens: 10, CompletionTokens: 3, ReasoningTokens: 4}, "usage.reasoning_tokens"},
		{"negative reasoning", scenario.Usage{CompletionTokens: 3, ReasoningTokens: -1}, "usage.reasoning_tokens"},
		{"cached past prompt", scenario.Usage{PromptTokens: 10, CachedTokens: 11}, "usage.cached_tokens"},
		{"negative cached", scenario.Usage{PromptTokens: 10, CachedTokens: -1}, "usage.cached_tokens"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			u := tt.usage
			err := (&scenario.Reply{Text: "x", Usage: &u}).Validate()
			if tt.err == "" {
				assert.NoError(t, err)
				return
			}
			require.Error(t, err)
			assert.True(t, strings.HasPrefix(err.Error(), tt.err), err.Error())
		})
	}

	var r scenario.Reply
	require.NoError(t, json.Unmarshal([]byte(`{"text":"x","usage":{"prompt_tokens":2000,"completion_tokens":300,"reasoning_tokens":200,"cached_tokens":1024}}`), &r))
	assert.Equal(t, scenario.Usage{PromptTokens: 2000, CompletionTokens: 300, ReasoningTokens: 200, CachedTokens: 1024}, *r.Usage)
	b, err := json.Marshal(r)
	require.NoError(t, err)
	assert.Contains(t, string(b), `"usage":{"prompt_tokens":2000,"completion_tokens":300,"reasoning_tokens":200,"cached_tokens":1024}`)
	b, err = json.Marshal(scenario.Reply{Text: "x", Usage: &scenario.Usage{PromptTokens: 1, CompletionTokens: 2}})
	require.NoError(t, err)
	assert.Contains(t, string(b), `"usage":{"prompt_tokens":1,"completion_tokens":2}`)
	assert.Error(t, json.Unmarshal([]byte(`{"text":"x","usage":{"prompt_tokens":1,"completion_tokens":2,"reasoning":3}}`), &r), "a misspelt count is refused")
}
