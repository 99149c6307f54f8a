package scenario_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/llmtestserver/llmtestserver/scenario"
)

// A usage override scripts reasoning within the output, and cache reads
// and writes within the input, in Go and in JSON, where they are
// reasoning_tokens, cache_read_tokens and cache_write_tokens (left out
// when zero).
func TestUsageParts(t *testing.T) {
	for _, tt := range []struct {
		name  string
		usage scenario.Usage
		err   string
	}{
		{"within", scenario.Usage{Input: 2000, Output: 300, Reasoning: 300, CacheRead: 1500, CacheWrite: 500}, ""},
		{"reasoning past output", scenario.Usage{Input: 10, Output: 3, Reasoning: 4}, "usage.reasoning_tokens"},
		{"negative reasoning", scenario.Usage{Output: 3, Reasoning: -1}, "usage.reasoning_tokens"},
		{"cache read past input", scenario.Usage{Input: 10, CacheRead: 11}, "usage.cache_read_tokens"},
		{"cache read and write past input", scenario.Usage{Input: 10, CacheRead: 6, CacheWrite: 5}, "usage.cache_read_tokens"},
		{"negative cache read", scenario.Usage{Input: 10, CacheRead: -1}, "usage.cache_read_tokens"},
		{"negative cache write", scenario.Usage{Input: 10, CacheWrite: -1}, "usage.cache_write_tokens"},
		{"too many", scenario.Usage{Input: scenario.MaxUsageTokens + 1}, "usage.input_tokens"},
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
	require.NoError(t, json.Unmarshal([]byte(`{"text":"x","usage":{"input_tokens":2000,"output_tokens":300,"reasoning_tokens":200,"cache_read_tokens":1024,"cache_write_tokens":512}}`), &r))
	assert.Equal(t, scenario.Usage{Input: 2000, Output: 300, Reasoning: 200, CacheRead: 1024, CacheWrite: 512}, *r.Usage)
	b, err := json.Marshal(r)
	require.NoError(t, err)
	assert.Contains(t, string(b), `"usage":{"input_tokens":2000,"cache_read_tokens":1024,"cache_write_tokens":512,"output_tokens":300,"reasoning_tokens":200}`)
	b, err = json.Marshal(scenario.Reply{Text: "x", Usage: &scenario.Usage{Input: 1, Output: 2}})
	require.NoError(t, err)
	assert.Contains(t, string(b), `"usage":{"input_tokens":1,"output_tokens":2}`)
	assert.Error(t, json.Unmarshal([]byte(`{"text":"x","usage":{"input_tokens":1,"output_tokens":2,"reasoning":3}}`), &r), "a misspelt count is refused")
}

// The names of the first version, which spoke OpenAI, still read, each as
// its neutral count; a count under both names is refused.
func TestUsageTakesTheFormerNames(t *testing.T) {
	var r scenario.Reply
	require.NoError(t, json.Unmarshal([]byte(`{"text":"x","usage":{"prompt_tokens":2000,"completion_tokens":300,"reasoning_tokens":200,"cached_tokens":1024}}`), &r))
	assert.Equal(t, scenario.Usage{Input: 2000, Output: 300, Reasoning: 200, CacheRead: 1024}, *r.Usage)
	b, err := json.Marshal(r)
	require.NoError(t, err)
	assert.Contains(t, string(b), `"usage":{"input_tokens":2000,"cache_read_tokens":1024,"output_tokens":300,"reasoning_tokens":200}`)

	for body, field := range map[string]string{
		`{"prompt_tokens":1,"input_tokens":1}`:      "usage.prompt_tokens",
		`{"completion_tokens":1,"output_tokens":2}`: "usage.completion_tokens",
		`{"cached_tokens":0,"cache_read_tokens":0}`: "usage.cached_tokens",
	} {
		err := json.Unmarshal([]byte(`{"text":"x","usage":`+body+`}`), &r)
		require.Error(t, err, body)
		assert.Contains(t, err.Error(), field, body)
	}
}
