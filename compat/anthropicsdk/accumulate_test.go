package anthropicsdk_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/anthropics/anthropic-sdk-go/v2"
	"github.com/llmtestserver/llmtestserver/scenario"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// block is what a test compares of a content block: everything but a
// tool_use block's ID, which each request draws anew.
type block struct {
	Type, Text, Thinking, Signature, Name string
	Input                                 string
}

// shape is what a test compares of a message: its content, stop reason and
// usage, not its ID.
type shape struct {
	Model        string
	Blocks       []block
	StopReason   anthropic.StopReason
	StopSequence string
	Input        int64
	CacheWrite   int64
	CacheRead    int64
	Output       int64
}

func shapeOf(t *testing.T, m *anthropic.Message) shape {
	t.Helper()
	assert.True(t, strings.HasPrefix(m.ID, "msg_"), "message ID %q", m.ID)
	s := shape{Model: string(m.Model), StopReason: m.StopReason, StopSequence: m.StopSequence,
		Input: m.Usage.InputTokens, CacheWrite: m.Usage.CacheCreationInputTokens,
		CacheRead: m.Usage.CacheReadInputTokens, Output: m.Usage.OutputTokens}
	for _, c := range m.Content {
		b := block{Type: c.Type, Text: c.Text, Thinking: c.Thinking, Signature: c.Signature, Name: c.Name}
		if c.Type == "tool_use" {
			assert.True(t, strings.HasPrefix(c.ID, "toolu_"), "tool_use ID %q", c.ID)
			var v any
			require.NoError(t, json.Unmarshal(c.Input, &v), "tool input %s", c.Input)
			compact, _ := json.Marshal(v)
			b.Input = string(compact)
		}
		s.Blocks = append(s.Blocks, b)
	}
	return s
}

// bothWays sends params twice, scripted with the same reply each time:
// once with Messages.New, once streamed and rebuilt by Message.Accumulate.
// It requires the two messages to agree and returns the non-streamed one.
func bothWays(t *testing.T, reply scenario.Reply, params anthropic.MessageNewParams) shape {
	t.Helper()
	sess := newSession(t)
	sess.Chat("kind").Reply(reply, reply)
	client := clientFor(sess, "k", 0)
	m, err := client.Messages.New(t.Context(), params)
	require.NoError(t, err)
	plain := shapeOf(t, m)
	acc := accumulate(t, client.Messages.NewStreaming(t.Context(), params))
	assert.Equal(t, plain, shapeOf(t, &acc), "the streamed message differs from the non-streamed one")
	entries := sess.Journal().Entries()
	require.Len(t, entries, 2)
	assert.False(t, entries[0].Stream)
	assert.True(t, entries[1].Stream)
	for _, e := range entries {
		assert.Equal(t, 200, e.Status)
		assert.Empty(t, e.SchemaErrors)
	}
	return plain
}

// TestAccumulateEveryReplyKind rebuilds every kind of scripted reply from
// its stream with Message.Accumulate and compares it with the same reply
// not streamed, and with what the reply says.
func TestAccumulateEveryReplyKind(t *testing.T) {
	t.Parallel()
	longText := strings.Repeat("A sentence long enough to take several chunks, with <, > & \"quotes\". ", 20)
	manyBytes := strings.Repeat("🦜 日本語 🦜🦜 ü 𝄞 ", 8)
	thinking := func(p anthropic.MessageNewParams) anthropic.MessageNewParams {
		p.MaxTokens = 4096
		p.Thinking = summarized
		return p
	}
	schema := map[string]any{
		"type":                 "object",
		"properties":           map[string]any{"city": map[string]any{"type": "string"}, "rank": map[string]any{"type": "integer"}},
		"required":             []string{"city", "rank"},
		"additionalProperties": false,
	}
	tests := []struct {
		name   string
		reply  scenario.Reply
		params func(anthropic.MessageNewParams) anthropic.MessageNewParams
		want   func(t *testing.T, s shape)
	}{{
		name:  "text",
		reply: scenario.Text(longText),
		want: func(t *testing.T, s shape) {
			assert.Equal(t, []block{{Type: "text", Text: longText}}, s.Blocks)
			assert.Equal(t, anthropic.StopReasonEndTurn, s.StopReason)
		},
	}, {
		// The tokenizer cuts emoji and other characters of several bytes
		// into tokens that end inside them; no delta may end there.
		name:  "text of characters the tokenizer cuts",
		reply: scenario.Text(manyBytes),
		want: func(t *testing.T, s shape) {
			assert.Equal(t, []block{{Type: "text", Text: manyBytes}}, s.Blocks)
		},
	}, {
		name: "tool calls with text",
		reply: scenario.Reply{Text: "Let me look.", ToolCalls: []scenario.ToolCall{
			{Name: "get_weather", Arguments: `{"city": "Paris", "detail": {"hourly": true, "days": [1, 2, 3]}}`},
			{Name: "get_weather", Arguments: `{}`},
			{Name: "get_weather"},
		}},
		params: func(p anthropic.MessageNewParams) anthropic.MessageNewParams {
			p.Tools = []anthropic.ToolUnionParam{weatherTool}
			return p
		},
		want: func(t *testing.T, s shape) {
			assert.Equal(t, []block{
				{Type: "text", Text: "Let me look."},
				{Type: "tool_use", Name: "get_weather", Input: `{"city":"Paris","detail":{"days":[1,2,3],"hourly":true}}`},
				{Type: "tool_use", Name: "get_weather", Input: `{}`},
				{Type: "tool_use", Name: "get_weather", Input: `{}`},
			}, s.Blocks)
			assert.Equal(t, anthropic.StopReasonToolUse, s.StopReason)
		},
	}, {
		name:  "json with output_config",
		reply: scenario.JSON(map[string]any{"city": "Paris", "rank": 1}),
		params: func(p anthropic.MessageNewParams) anthropic.MessageNewParams {
			p.OutputConfig = anthropic.OutputConfigParam{Format: anthropic.JSONOutputFormatParam{Schema: schema}}
			return p
		},
		want: func(t *testing.T, s shape) {
			require.Len(t, s.Blocks, 1)
			assert.Equal(t, "text", s.Blocks[0].Type)
			assert.JSONEq(t, `{"city":"Paris","rank":1}`, s.Blocks[0].Text)
			assert.Equal(t, anthropic.StopReasonEndTurn, s.StopReason)
		},
	}, {
		name:  "json without a format",
		reply: scenario.JSON([]int{1, 2}),
		want: func(t *testing.T, s shape) {
			assert.Equal(t, []block{{Type: "text", Text: "[1,2]"}}, s.Blocks)
		},
	}, {
		name:  "refusal",
		reply: scenario.Refuse("I can't help with that."),
		want: func(t *testing.T, s shape) {
			assert.Empty(t, s.Blocks, "a refusal shows no text: stop_details carries it")
			assert.Equal(t, anthropic.StopReasonRefusal, s.StopReason)
		},
	}, {
		name:   "thinking enabled",
		reply:  scenario.Think("First, the user greets me. "+longText, "Hello!"),
		params: thinking,
		want: func(t *testing.T, s shape) {
			require.Len(t, s.Blocks, 2)
			assert.Equal(t, "thinking", s.Blocks[0].Type)
			assert.Equal(t, "First, the user greets me. "+longText, s.Blocks[0].Thinking)
			assert.NotEmpty(t, s.Blocks[0].Signature)
			assert.Equal(t, block{Type: "text", Text: "Hello!"}, s.Blocks[1])
			assert.Equal(t, anthropic.StopReasonEndTurn, s.StopReason)
		},
	}, {
		name:  "thinking before tool calls",
		reply: scenario.Reply{Thinking: "I need the weather.", ToolCalls: []scenario.ToolCall{{Name: "get_weather", Arguments: `{"city":"Oslo"}`}}},
		params: func(p anthropic.MessageNewParams) anthropic.MessageNewParams {
			p = thinking(p)
			p.Tools = []anthropic.ToolUnionParam{weatherTool}
			return p
		},
		want: func(t *testing.T, s shape) {
			require.Len(t, s.Blocks, 2)
			assert.Equal(t, "thinking", s.Blocks[0].Type)
			assert.NotEmpty(t, s.Blocks[0].Signature)
			assert.Equal(t, block{Type: "tool_use", Name: "get_weather", Input: `{"city":"Oslo"}`}, s.Blocks[1])
			assert.Equal(t, anthropic.StopReasonToolUse, s.StopReason)
		},
	}, {
		// The documented behaviour: without thinking in the request a
		// model before the 5-series shows no reasoning.
		name:  "thinking not enabled",
		reply: scenario.Think("Hidden reasoning.", "Hello!"),
		params: func(p anthropic.MessageNewParams) anthropic.MessageNewParams {
			p.Model = anthropic.ModelClaudeOpus4_6
			return p
		},
		want: func(t *testing.T, s shape) {
			assert.Equal(t, []block{{Type: "text", Text: "Hello!"}}, s.Blocks)
		},
	}, {
		// Sonnet 5 thinks adaptively unless told not to, and shows its
		// thinking omitted unless asked (model_rules.go has the sources).
		name:  "thinking by default on the 5-series",
		reply: scenario.Think("Hidden reasoning.", "Hello!"),
		want: func(t *testing.T, s shape) {
			require.Len(t, s.Blocks, 2)
			assert.Equal(t, "thinking", s.Blocks[0].Type)
			assert.Empty(t, s.Blocks[0].Thinking)
			assert.NotEmpty(t, s.Blocks[0].Signature)
			assert.Equal(t, block{Type: "text", Text: "Hello!"}, s.Blocks[1])
		},
	}, {
		name:  "thinking disabled",
		reply: scenario.Think("Hidden reasoning.", "Hello!"),
		params: func(p anthropic.MessageNewParams) anthropic.MessageNewParams {
			p.Thinking = anthropic.ThinkingConfigParamUnion{OfDisabled: &anthropic.ThinkingConfigDisabledParam{}}
			return p
		},
		want: func(t *testing.T, s shape) {
			assert.Equal(t, []block{{Type: "text", Text: "Hello!"}}, s.Blocks)
		},
	}, {
		name:  "finish length",
		reply: scenario.Reply{Text: "Cut off in the mid", FinishReason: scenario.FinishLength},
		want: func(t *testing.T, s shape) {
			assert.Equal(t, []block{{Type: "text", Text: "Cut off in the mid"}}, s.Blocks)
			assert.Equal(t, anthropic.StopReasonMaxTokens, s.StopReason)
		},
	}, {
		name:  "finish max_tokens in Anthropic's word",
		reply: scenario.Reply{Text: "Cut", FinishReason: "max_tokens"},
		want: func(t *testing.T, s shape) {
			assert.Equal(t, anthropic.StopReasonMaxTokens, s.StopReason)
		},
	}, {
		name:  "model override and usage override",
		reply: scenario.Reply{Text: "hi", Model: "claude-opus-4-7", Usage: &scenario.Usage{Input: 123, Output: 45}},
		want: func(t *testing.T, s shape) {
			assert.Equal(t, "claude-opus-4-7", s.Model)
			assert.Equal(t, int64(123), s.Input)
			assert.Equal(t, int64(45), s.Output)
		},
	}, {
		// The override's input counts the cache reads and writes, as the
		// journal does; Anthropic's input_tokens are what is left.
		name:  "usage override with cache reads and writes",
		reply: scenario.Reply{Text: "hi", Usage: &scenario.Usage{Input: 3000, CacheRead: 1024, CacheWrite: 1500, Output: 7}},
		want: func(t *testing.T, s shape) {
			assert.Equal(t, int64(3000-1024-1500), s.Input)
			assert.Equal(t, int64(1024), s.CacheRead)
			assert.Equal(t, int64(1500), s.CacheWrite)
			assert.Equal(t, int64(7), s.Output)
		},
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			p := userTurn("Hello there")
			if tt.params != nil {
				p = tt.params(p)
			}
			s := bothWays(t, tt.reply, p)
			if tt.reply.Model == "" {
				assert.Equal(t, string(p.Model), s.Model)
			}
			if tt.reply.Usage == nil {
				assert.Positive(t, s.Input)
				assert.Positive(t, s.Output)
			}
			tt.want(t, s)
		})
	}
}

// TestThinkingSignatureGoesBack sends a thinking block back, signature and
// all, as an agent loop with thinking must: the server takes it, and the
// scenario sees the conversation go on.
func TestThinkingSignatureGoesBack(t *testing.T) {
	t.Parallel()
	sess := newSession(t)
	sess.Chat("think").Reply(
		scenario.Reply{Thinking: "I need the weather.", ToolCalls: []scenario.ToolCall{{Name: "get_weather", Arguments: `{"city":"Oslo"}`}}},
		scenario.Think("It is sunny.", "Sunny in Oslo."))
	client := clientFor(sess, "k", 0)
	p := userTurn("Weather in Oslo?")
	p.MaxTokens = 4096
	p.Thinking = summarized
	p.Tools = []anthropic.ToolUnionParam{weatherTool}
	first := accumulate(t, client.Messages.NewStreaming(t.Context(), p))
	require.Len(t, first.Content, 2)
	tu := first.Content[1].AsToolUse()
	p.Messages = append(p.Messages, first.ToParam(),
		anthropic.NewUserMessage(anthropic.NewToolResultBlock(tu.ID, "sunny", false)))
	second, err := client.Messages.New(t.Context(), p)
	require.NoError(t, err)
	require.Len(t, second.Content, 2)
	assert.Equal(t, "It is sunny.", second.Content[0].Thinking)
	assert.Equal(t, "Sunny in Oslo.", second.Content[1].Text)
	assert.NotEqual(t, first.Content[0].Signature, second.Content[0].Signature, "different thinking, same signature")
	e, ok := sess.Journal().Last()
	require.True(t, ok)
	assert.Equal(t, 200, e.Status)
	require.Len(t, e.ToolResults, 1)
	assert.Equal(t, tu.ID, e.ToolResults[0].CallID)
	// Thinking counts among the output tokens, as reasoning.
	require.NotZero(t, e.Usage)
	assert.Positive(t, e.Usage.Reasoning)
	assert.Greater(t, e.Usage.Output, e.Usage.Reasoning)
}
