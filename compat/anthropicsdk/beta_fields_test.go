package anthropicsdk_test

import (
	"testing"

	"github.com/anthropics/anthropic-sdk-go/v2"
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
