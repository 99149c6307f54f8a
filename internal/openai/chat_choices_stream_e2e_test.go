package openai_test

import (
	"encoding/json"
	"testing"

	"github.com/openai/openai-go/v3"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/llmtestserver/llmtestserver/internal/e2e"
	"github.com/llmtestserver/llmtestserver/llmtest"
	"github.com/llmtestserver/llmtestserver/session"
)

// chunks reads a whole openai-go stream into its chunks and an accumulator
// that took every one of them.
func chunks(t *testing.T, s interface {
	Next() bool
	Current() openai.ChatCompletionChunk
	Err() error
	Close() error
}) ([]openai.ChatCompletionChunk, openai.ChatCompletionAccumulator) {
	t.Helper()
	defer s.Close()
	var all []openai.ChatCompletionChunk
	var acc openai.ChatCompletionAccumulator
	for s.Next() {
		c := s.Current()
		require.True(t, acc.AddChunk(c), "accumulator refused chunk %s", c.RawJSON())
		all = append(all, c)
	}
	require.NoError(t, s.Err())
	return all, acc
}

// A stream with n > 1 sends one choice per chunk, as the real API does:
// each index opens with its own role chunk, the pieces of the choices
// interleave, each index has its own finish chunk, and the usage chunk
// (no choices) comes last. openai-go's accumulator assembles each choice.
func TestChatStreamOneChoicePerChunk(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t)
	sess := srv.NewSession(t)
	const text = "Two answers, streamed side by side."
	sess.Chat("n").Responds(text)
	client := e2e.ClientFor(sess, "k")
	params := e2e.UserTurn(e2e.ReplyModel, "Hi")
	params.N = openai.Int(2)
	params.StreamOptions = openai.ChatCompletionStreamOptionsParam{IncludeUsage: openai.Bool(true)}
	all, acc := chunks(t, client.Chat.Completions.NewStreaming(t.Context(), params))

	require.NotEmpty(t, all)
	last := all[len(all)-1]
	assert.Empty(t, last.Choices, "the usage chunk has no choices")
	assert.Positive(t, last.Usage.CompletionTokens)
	var order []int64
	opened := map[int64]bool{}
	finished := map[int64]int{}
	for i, c := range all[:len(all)-1] {
		require.Len(t, c.Choices, 1, "chunk %d: %s", i, c.RawJSON())
		ch := c.Choices[0]
		order = append(order, ch.Index)
		if !opened[ch.Index] {
			assert.Equal(t, "assistant", ch.Delta.Role, "the first chunk of index %d opens with the role: %s", ch.Index, c.RawJSON())
			opened[ch.Index] = true
		} else {
			assert.Empty(t, ch.Delta.Role, "only the first chunk of an index carries the role")
		}
		if ch.FinishReason != "" {
			finished[ch.Index]++
		}
	}
	assert.Equal(t, []int64{0, 1}, order[:2], "both role chunks come first")
	for i := 1; i < len(order); i++ {
		assert.NotEqual(t, order[i-1], order[i], "the choices interleave: %v", order)
	}
	assert.Equal(t, map[int64]int{0: 1, 1: 1}, finished, "one finish chunk per index")

	require.Len(t, acc.Choices, 2)
	for i, c := range acc.Choices {
		assert.Equal(t, text, c.Message.Content, "choice %d", i)
		assert.Equal(t, "stop", c.FinishReason, "choice %d", i)
	}
	assert.Equal(t, last.Usage.CompletionTokens, acc.Usage.CompletionTokens)
}

// Tool calls with n > 1: every choice streams its own calls, and openai-go
// assembles the name and arguments of each call of each choice exactly.
func TestChatStreamChoicesWithToolCalls(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t)
	sess := srv.NewSession(t)
	sess.Chat("tools").CallsTool("get_weather", `{"city":"Paris","unit":"celsius"}`)
	client := e2e.ClientFor(sess, "k")
	params := e2e.UserTurn(e2e.ReplyModel, "Weather?")
	params.N = openai.Int(3)
	params.Tools = []openai.ChatCompletionToolUnionParam{openai.ChatCompletionFunctionTool(openai.FunctionDefinitionParam{Name: "get_weather"})}
	all, acc := chunks(t, client.Chat.Completions.NewStreaming(t.Context(), params))
	for i, c := range all {
		require.Len(t, c.Choices, 1, "chunk %d: %s", i, c.RawJSON())
	}
	require.Len(t, acc.Choices, 3)
	for i, c := range acc.Choices {
		require.Len(t, c.Message.ToolCalls, 1, "choice %d", i)
		call := c.Message.ToolCalls[0]
		assert.Equal(t, "get_weather", call.Function.Name, "choice %d", i)
		assert.JSONEq(t, `{"city":"Paris","unit":"celsius"}`, call.Function.Arguments, "choice %d", i)
		assert.NotEmpty(t, call.ID)
		assert.Equal(t, "tool_calls", c.FinishReason, "choice %d", i)
	}
}

// With include_usage every chunk but the last carries "usage": null, and
// the last carries the usage and no choices; without it no chunk has a
// usage key.
func TestChatStreamUsageNullUntilLast(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t)
	sess := srv.NewSession(t)
	sess.Chat("u").Responds("Counted at the end.").Repeat()
	client := e2e.ClientFor(sess, "k")
	params := e2e.UserTurn(e2e.ReplyModel, "Hi")
	params.StreamOptions = openai.ChatCompletionStreamOptionsParam{IncludeUsage: openai.Bool(true)}
	all, _ := chunks(t, client.Chat.Completions.NewStreaming(t.Context(), params))
	require.Greater(t, len(all), 2)
	for i, c := range all[:len(all)-1] {
		assert.Equal(t, "null", c.JSON.Usage.Raw(), "chunk %d: %s", i, c.RawJSON())
	}
	last := all[len(all)-1]
	assert.Empty(t, last.Choices)
	assert.Positive(t, last.Usage.TotalTokens)

	all, _ = chunks(t, client.Chat.Completions.NewStreaming(t.Context(), e2e.UserTurn(e2e.ReplyModel, "Hi")))
	for i, c := range all {
		var keys map[string]json.RawMessage
		require.NoError(t, json.Unmarshal([]byte(c.RawJSON()), &keys))
		assert.NotContains(t, keys, "usage", "chunk %d", i)
	}
}

// Chunks carry an obfuscation field by default, the same for the same
// stream (deterministic), and none with include_obfuscation false.
func TestChatStreamObfuscation(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t)
	sess := srv.NewSession(t, session.WithStream(1, 0, 0))
	sess.Chat("o").Responds("Padded so the sizes do not show.").Repeat()
	client := e2e.ClientFor(sess, "k")
	params := e2e.UserTurn(e2e.ReplyModel, "Hi")
	params.StreamOptions = openai.ChatCompletionStreamOptionsParam{IncludeUsage: openai.Bool(true)}
	first, _ := chunks(t, client.Chat.Completions.NewStreaming(t.Context(), params))
	second, _ := chunks(t, client.Chat.Completions.NewStreaming(t.Context(), params))
	require.Len(t, second, len(first))
	for i, c := range first {
		assert.True(t, c.JSON.Obfuscation.Valid(), "chunk %d has no obfuscation: %s", i, c.RawJSON())
		assert.NotEmpty(t, c.Obfuscation, "chunk %d", i)
		assert.Equal(t, c.Obfuscation, second[i].Obfuscation, "chunk %d differs between two runs", i)
		if len(c.Choices) == 1 && c.Choices[0].Delta.Content != "" {
			assert.Zero(t, (len(c.Choices[0].Delta.Content)+len(c.Obfuscation))%16,
				"content and padding fill blocks of 16: %s", c.RawJSON())
		}
	}

	params.StreamOptions.IncludeObfuscation = openai.Bool(false)
	off, acc := chunks(t, client.Chat.Completions.NewStreaming(t.Context(), params))
	for i, c := range off {
		assert.False(t, c.JSON.Obfuscation.Valid(), "chunk %d: %s", i, c.RawJSON())
	}
	assert.Equal(t, "Padded so the sizes do not show.", acc.Choices[0].Message.Content)
}
