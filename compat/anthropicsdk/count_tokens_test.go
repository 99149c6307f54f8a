package anthropicsdk_test

import (
	"testing"

	"github.com/anthropics/anthropic-sdk-go/v2"
	"github.com/llmtestserver/llmtestserver/scenario"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// countParams is the count_tokens request for the same prompt as p.
func countParams(p anthropic.MessageNewParams) anthropic.MessageCountTokensParams {
	c := anthropic.MessageCountTokensParams{Model: p.Model, Messages: p.Messages, CacheControl: p.CacheControl,
		Thinking: p.Thinking, ToolChoice: p.ToolChoice}
	if len(p.System) > 0 {
		c.System = anthropic.MessageCountTokensParamsSystemUnion{OfTextBlockArray: p.System}
	}
	for _, tool := range p.Tools {
		c.Tools = append(c.Tools, anthropic.MessageCountTokensToolUnionParam{OfTool: tool.OfTool})
	}
	return c
}

// TestCountTokensEqualsUsage counts each prompt with Messages.CountTokens,
// then sends it: the count is the usage's input_tokens plus its cache
// creation and cache read, whatever the cache did. Counting touches
// neither the cache nor the scenarios.
func TestCountTokensEqualsUsage(t *testing.T) {
	t.Parallel()
	cachedTool := *weatherTool.OfTool
	cachedTool.CacheControl = ephemeral
	tests := []struct {
		name   string
		params func(p anthropic.MessageNewParams) anthropic.MessageNewParams
		cached bool
	}{
		{"plain", func(p anthropic.MessageNewParams) anthropic.MessageNewParams { return p }, false},
		{"system", func(p anthropic.MessageNewParams) anthropic.MessageNewParams {
			p.System = []anthropic.TextBlockParam{{Text: "You are terse."}, {Text: "Answer in French."}}
			return p
		}, false},
		{"tools", func(p anthropic.MessageNewParams) anthropic.MessageNewParams {
			p.Tools = []anthropic.ToolUnionParam{weatherTool}
			p.ToolChoice = anthropic.ToolChoiceParamOfTool("get_weather")
			return p
		}, false},
		{"tool conversation", func(p anthropic.MessageNewParams) anthropic.MessageNewParams {
			p.Tools = []anthropic.ToolUnionParam{weatherTool}
			p.Messages = append(p.Messages,
				anthropic.NewAssistantMessage(anthropic.NewToolUseBlock("toolu_01abc", map[string]any{"city": "Paris"}, "get_weather")),
				anthropic.NewUserMessage(anthropic.NewToolResultBlock("toolu_01abc", "sunny", false)))
			return p
		}, false},
		{"system cache_control", func(p anthropic.MessageNewParams) anthropic.MessageNewParams {
			p.System = []anthropic.TextBlockParam{{Text: longPrompt("count"), CacheControl: ephemeral}}
			return p
		}, true},
		{"tools and system cache_control", func(p anthropic.MessageNewParams) anthropic.MessageNewParams {
			p.Tools = []anthropic.ToolUnionParam{{OfTool: &cachedTool}}
			p.System = []anthropic.TextBlockParam{{Text: longPrompt("count both"), CacheControl: ephemeral}}
			return p
		}, true},
		{"automatic cache_control", func(p anthropic.MessageNewParams) anthropic.MessageNewParams {
			p.System = []anthropic.TextBlockParam{{Text: longPrompt("count automatic")}}
			p.CacheControl = ephemeral
			return p
		}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			sess := newSession(t)
			sess.Chat("any").Reply(scenario.Text("one"), scenario.Text("two"))
			client := clientFor(sess, "k", 0)
			p := tt.params(userTurn("What is the weather in Paris?"))
			for turn := 1; turn <= 2; turn++ {
				count, err := client.Messages.CountTokens(t.Context(), countParams(p))
				require.NoError(t, err)
				msg, err := client.Messages.New(t.Context(), p)
				require.NoError(t, err)
				u := msg.Usage
				assert.Equal(t, u.InputTokens+u.CacheCreationInputTokens+u.CacheReadInputTokens, count.InputTokens, "turn %d: usage %+v", turn, u)
				assert.Positive(t, count.InputTokens)
				if tt.cached && turn == 1 {
					assert.Positive(t, u.CacheCreationInputTokens, "counting wrote the cache")
					assert.Zero(t, u.CacheReadInputTokens, "counting wrote the cache")
				}
				if tt.cached && turn == 2 {
					assert.Positive(t, u.CacheReadInputTokens)
				}
			}
			entries := sess.Journal().Entries()
			require.Len(t, entries, 4)
			for i, e := range entries {
				want := "/v1/messages"
				if i%2 == 0 {
					want = "/v1/messages/count_tokens"
					assert.Empty(t, e.Scenario, "counting took a reply")
				}
				assert.Equal(t, want, e.Path)
				assert.Equal(t, 200, e.Status)
				assert.Equal(t, "anthropic", e.Provider)
			}
			assert.Equal(t, "two", entries[3].ReplyText)
		})
	}
}

// TestCountTokensSystemString counts a system prompt sent as a string, as
// count_tokens' own param type allows: the same count as the same text as
// one block.
func TestCountTokensSystemString(t *testing.T) {
	t.Parallel()
	sess := newSession(t)
	client := clientFor(sess, "k", 0)
	p := userTurn("hi")
	blocks := countParams(p)
	blocks.System = anthropic.MessageCountTokensParamsSystemUnion{OfTextBlockArray: []anthropic.TextBlockParam{{Text: "Be brief and kind."}}}
	str := countParams(p)
	str.System = anthropic.MessageCountTokensParamsSystemUnion{OfString: anthropic.String("Be brief and kind.")}
	none := countParams(p)
	a, err := client.Messages.CountTokens(t.Context(), blocks)
	require.NoError(t, err)
	b, err := client.Messages.CountTokens(t.Context(), str)
	require.NoError(t, err)
	c, err := client.Messages.CountTokens(t.Context(), none)
	require.NoError(t, err)
	assert.Equal(t, a.InputTokens, b.InputTokens)
	assert.Equal(t, c.InputTokens+o200k(t, "Be brief and kind."), a.InputTokens)
	// A one-word prompt counts its word and the request's overhead: 8,
	// as the API counts it (audit R3).
	assert.Equal(t, o200k(t, "hi")+requestOverhead, c.InputTokens)
	assert.Equal(t, int64(8), c.InputTokens)
}

// TestCountTokensUnknownModel refuses a model the session does not serve.
func TestCountTokensUnknownModel(t *testing.T) {
	t.Parallel()
	sess := newSession(t)
	client := clientFor(sess, "k", 0)
	p := countParams(userTurn("hi"))
	p.Model = "claude-nonexistent-9"
	_, err := client.Messages.CountTokens(t.Context(), p)
	apiErr := apiError(t, err)
	assert.Equal(t, 404, apiErr.StatusCode)
	assert.Equal(t, anthropic.ErrorTypeNotFoundError, apiErr.Type())
}
