package anthropicsdk_test

import (
	"testing"

	"github.com/anthropics/anthropic-sdk-go/v2"
	"github.com/llmtestserver/llmtestserver/scenario"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// absentInCaptures filters out of missing the fields the SDK requires that
// real captures leave out (audit B1: R3, a direct-API capture, has no
// citations on its text, no diagnostics outside message_start, and no
// usage speed or server_tool_use; output_tokens_details comes with
// thinking, R2).
func absentInCaptures(missing []string) []string {
	var out []string
	for _, m := range missing {
		switch m {
		case ".content[0].citations", ".diagnostics", ".usage.speed", ".usage.server_tool_use", ".usage.output_tokens_details":
		default:
			out = append(out, m)
		}
	}
	return out
}

// betaTurn is a beta request with one user message, sent with a beta.
func betaTurn(text string) anthropic.BetaMessageNewParams {
	return anthropic.BetaMessageNewParams{
		Model: model, MaxTokens: 1024,
		Messages: []anthropic.BetaMessageParam{anthropic.NewBetaUserMessage(anthropic.NewBetaTextBlock(text))},
		Betas:    []anthropic.AnthropicBeta{anthropic.AnthropicBetaContextManagement2025_06_27},
	}
}

// TestBetaMessageFields decodes beta replies, streamed and not, and a beta
// count: context_management and usage.iterations, which BetaMessage
// requires, are sent (null, or no applied edit for a request with
// context_management), and the walk of the decoded values finds no
// required field missing.
func TestBetaMessageFields(t *testing.T) {
	t.Parallel()
	sess := newSession(t)
	sess.Chat("any").Responds("ok").Repeat()
	client := clientFor(sess, "k", 0)

	plain := betaTurn("hi")
	msg, err := client.Beta.Messages.New(t.Context(), plain)
	require.NoError(t, err)
	assert.Empty(t, absentInCaptures(missingRequired(t, *msg)))
	assert.Equal(t, "null", msg.JSON.ContextManagement.Raw())
	assert.Equal(t, "null", msg.Usage.JSON.Iterations.Raw())

	managed := betaTurn("hi")
	managed.ContextManagement = anthropic.BetaContextManagementConfigParam{}
	managed.ContextManagement.Edits = []anthropic.BetaContextManagementConfigEditUnionParam{}
	msg, err = client.Beta.Messages.New(t.Context(), managed)
	require.NoError(t, err)
	assert.Empty(t, absentInCaptures(missingRequired(t, *msg)))
	assert.Equal(t, `{"applied_edits":[]}`, msg.JSON.ContextManagement.Raw())

	stream := client.Beta.Messages.NewStreaming(t.Context(), managed)
	var acc anthropic.BetaMessage
	for stream.Next() {
		require.NoError(t, acc.Accumulate(stream.Current()))
	}
	require.NoError(t, stream.Err())
	assert.Empty(t, absentInCaptures(missingRequired(t, acc)))
	assert.Empty(t, acc.ContextManagement.AppliedEdits)

	count, err := client.Beta.Messages.CountTokens(t.Context(), anthropic.BetaMessageCountTokensParams{
		Model: model, Messages: managed.Messages, ContextManagement: managed.ContextManagement,
		Betas: managed.Betas})
	require.NoError(t, err)
	assert.Empty(t, missingRequired(t, *count))
	assert.Equal(t, count.InputTokens, count.ContextManagement.OriginalInputTokens)
}

// TestScriptedIterationsAndAppliedEdits scripts a beta reply's usage
// iterations and context edits: the SDK decodes them, streamed and not,
// and its message thread, seeing a turn a fallback model wrote, starts a
// new thread on the next turn, as it does against the real API.
func TestScriptedIterationsAndAppliedEdits(t *testing.T) {
	t.Parallel()
	reply := scenario.Reply{Text: "Done.",
		Iterations: []scenario.Iteration{{Type: "message", InputTokens: 10, OutputTokens: 2},
			{Type: "fallback_message", Model: "claude-haiku-4-5", InputTokens: 10, OutputTokens: 3}},
		AppliedEdits: []scenario.AppliedEdit{{Type: "clear_tool_uses_20250919", ClearedInputTokens: 500, ClearedToolUses: 2}}}
	sess := newSession(t)
	sess.Chat("beta").Reply(reply, reply, scenario.Text("Next."))
	client := clientFor(sess, "k", 0)
	p := betaTurn("hi")
	msg, err := client.Beta.Messages.New(t.Context(), p)
	require.NoError(t, err)
	stream := client.Beta.Messages.NewStreaming(t.Context(), p)
	var acc anthropic.BetaMessage
	for stream.Next() {
		require.NoError(t, acc.Accumulate(stream.Current()))
	}
	require.NoError(t, stream.Err())
	for _, m := range []anthropic.BetaMessage{*msg, acc} {
		require.Len(t, m.Usage.Iterations, 2)
		assert.Equal(t, "message", m.Usage.Iterations[0].Type)
		assert.Equal(t, string(model), string(m.Usage.Iterations[0].Model))
		assert.Equal(t, "fallback_message", m.Usage.Iterations[1].Type)
		assert.Equal(t, "claude-haiku-4-5", string(m.Usage.Iterations[1].Model))
		require.Len(t, m.ContextManagement.AppliedEdits, 1)
		edit := m.ContextManagement.AppliedEdits[0]
		assert.Equal(t, "clear_tool_uses_20250919", edit.Type)
		assert.Equal(t, int64(2), edit.ClearedToolUses)
		assert.Empty(t, absentInCaptures(missingRequired(t, m)))
	}

	// A thread's turn that a fallback model wrote is not continued.
	sess2 := newSession(t)
	sess2.Chat("fallback").Reply(reply, scenario.Text("Next."))
	c2, rec := recordedClient(sess2)
	thread := c2.Beta.Messages.NewThread(anthropic.BetaMessageThreadCreateParams{Model: model, MaxTokens: 1024})
	for _, say := range []string{"a", "b"} {
		_, err := thread.Send(t.Context(), anthropic.BetaMessageThreadSendParams{
			Messages: []anthropic.BetaMessageParam{anthropic.NewBetaUserMessage(anthropic.NewBetaTextBlock(say))}})
		require.NoError(t, err)
	}
	sent := rec.bodies()
	require.Len(t, sent, 2)
	assert.Equal(t, "create", sent[1].Thread.Type, "the SDK replays after a fallback")
}
