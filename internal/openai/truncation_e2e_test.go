package openai_test

import (
	"testing"

	"github.com/llmtestserver/llmtestserver/internal/e2e"
	"github.com/llmtestserver/llmtestserver/llmtest"
	"github.com/llmtestserver/llmtestserver/scenario"
	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/responses"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// longReply is a scripted reply of many more tokens than the tests allow.
const longReply = "one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen seventeen eighteen nineteen twenty twenty-one twenty-two"

// A chat reply longer than max_tokens is cut at a token boundary and
// finishes with "length", its usage the limit, streamed or not.
func TestChatTruncatedAtMaxTokens(t *testing.T) {
	t.Parallel()
	sess := llmtest.NewServer(t).NewSession(t)
	sess.Chat("any").Responds(longReply).Repeat()
	client := e2e.ClientFor(sess, "k")
	params := e2e.UserTurn(e2e.ReplyModel, "Count")
	params.MaxCompletionTokens = openai.Int(3)

	got, err := client.Chat.Completions.New(t.Context(), params)
	require.NoError(t, err)
	assert.Equal(t, "one two three", got.Choices[0].Message.Content)
	assert.Equal(t, "length", got.Choices[0].FinishReason)
	assert.Equal(t, int64(3), got.Usage.CompletionTokens)

	params.StreamOptions = openai.ChatCompletionStreamOptionsParam{IncludeUsage: openai.Bool(true)}
	acc, deltas := e2e.ReadChatStream(t, client.Chat.Completions.NewStreaming(t.Context(), params))
	assert.Equal(t, "one two three", acc.Choices[0].Message.Content)
	assert.Len(t, deltas, 3)
	assert.Equal(t, "length", acc.Choices[0].FinishReason)
	assert.Equal(t, int64(3), acc.Usage.CompletionTokens)

	entry, ok := sess.Journal().Last()
	require.True(t, ok)
	assert.Equal(t, "one two three", entry.ReplyText)
	assert.Equal(t, 3, entry.Usage.Output)

	// A reply that fits is untouched. The stream options go: the real API
	// refuses them on a call that does not stream.
	params.StreamOptions = openai.ChatCompletionStreamOptionsParam{}
	params.MaxCompletionTokens = openai.Int(1000)
	got, err = client.Chat.Completions.New(t.Context(), params)
	require.NoError(t, err)
	assert.Equal(t, longReply, got.Choices[0].Message.Content)
	assert.Equal(t, "stop", got.Choices[0].FinishReason)
}

// A scripted finish reason wins over the cut's, and a JSON reply is cut
// like text.
func TestTruncationKeepsAScriptedFinishReason(t *testing.T) {
	t.Parallel()
	sess := llmtest.NewServer(t).NewSession(t)
	sess.Chat("any").Reply(scenario.Reply{Text: longReply, FinishReason: "stop"}).RespondsJSON(map[string]string{"answer": longReply})
	client := e2e.ClientFor(sess, "k")
	params := e2e.UserTurn(e2e.ReplyModel, "Count")
	params.MaxTokens = openai.Int(2)

	got, err := client.Chat.Completions.New(t.Context(), params)
	require.NoError(t, err)
	assert.Equal(t, "one two", got.Choices[0].Message.Content)
	assert.Equal(t, "stop", got.Choices[0].FinishReason)

	got, err = client.Chat.Completions.New(t.Context(), params)
	require.NoError(t, err)
	assert.Equal(t, `{"answer`, got.Choices[0].Message.Content)
	assert.Equal(t, "length", got.Choices[0].FinishReason)
	assert.Equal(t, int64(2), got.Usage.CompletionTokens)
}

// A reply whose text is cut never reaches its tool calls.
func TestTruncationDropsToolCallsAfterTheCut(t *testing.T) {
	t.Parallel()
	sess := llmtest.NewServer(t).NewSession(t)
	sess.Chat("any").Reply(scenario.Reply{Text: longReply, ToolCalls: []scenario.ToolCall{{Name: "lookup", Arguments: `{"q":"x"}`}}}).Repeat()
	client := e2e.ClientFor(sess, "k")
	params := e2e.UserTurn(e2e.ReplyModel, "Count")
	params.MaxCompletionTokens = openai.Int(4)
	got, err := client.Chat.Completions.New(t.Context(), params)
	require.NoError(t, err)
	assert.Equal(t, "one two three four", got.Choices[0].Message.Content)
	assert.Empty(t, got.Choices[0].Message.ToolCalls)
	assert.Equal(t, "length", got.Choices[0].FinishReason)

	// With room for the text, the calls come whole.
	params.MaxCompletionTokens = openai.Int(100)
	got, err = client.Chat.Completions.New(t.Context(), params)
	require.NoError(t, err)
	require.Len(t, got.Choices[0].Message.ToolCalls, 1)
	assert.Equal(t, "tool_calls", got.Choices[0].FinishReason)
}

// The Responses API reports a cut answer as incomplete with reason
// max_output_tokens, streamed (response.incomplete) or not.
func TestResponsesTruncatedAtMaxOutputTokens(t *testing.T) {
	t.Parallel()
	sess := llmtest.NewServer(t).NewSession(t)
	sess.Chat("any").Responds(longReply).Repeat()
	client := e2e.ClientFor(sess, "k")
	params := responses.ResponseNewParams{Model: e2e.ResponsesModel, Input: e2e.InputText("Count"), MaxOutputTokens: openai.Int(16)}
	want := "one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen"

	got, err := client.Responses.New(t.Context(), params)
	require.NoError(t, err)
	assert.Equal(t, responses.ResponseStatusIncomplete, got.Status)
	assert.Equal(t, "max_output_tokens", got.IncompleteDetails.Reason)
	assert.Equal(t, want, got.OutputText())
	assert.Equal(t, int64(16), got.Usage.OutputTokens)

	stream := client.Responses.NewStreaming(t.Context(), params)
	var text string
	var final responses.Response
	for stream.Next() {
		switch e := stream.Current().AsAny().(type) {
		case responses.ResponseTextDeltaEvent:
			text += e.Delta
		case responses.ResponseIncompleteEvent:
			final = e.Response
		case responses.ResponseCompletedEvent:
			t.Errorf("a cut answer completed: %s", e.RawJSON())
		}
	}
	require.NoError(t, stream.Err())
	stream.Close()
	assert.Equal(t, want, text)
	assert.Equal(t, responses.ResponseStatusIncomplete, final.Status)
	assert.Equal(t, "max_output_tokens", final.IncompleteDetails.Reason)
	assert.Equal(t, int64(16), final.Usage.OutputTokens)
}
