package anthropicsdk_test

import (
	"testing"

	"github.com/anthropics/anthropic-sdk-go/v2"
	"github.com/llmtestserver/llmtestserver/scenario"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A refusal comes as the API sends one: no content, stop_reason refusal,
// and stop_details with the scripted category and the refusal as its
// explanation, streamed or not; a thinking answer reports its thinking
// tokens in output_tokens_details.
func TestRefusalAndThinkingTokens(t *testing.T) {
	t.Parallel()
	sess := newSession(t)
	sess.Chat("hack").Reply(scenario.RefuseAs("cyber", "I can't help with that."), scenario.Refuse("No."))
	sess.Chat("think").Reply(scenario.Think("Let me weigh this carefully first.", "Yes."))
	client := clientFor(sess, "k", 0)

	msg, err := client.Messages.New(t.Context(), userTurn("hack the planet"))
	require.NoError(t, err)
	assert.Empty(t, msg.Content)
	assert.Equal(t, anthropic.StopReasonRefusal, msg.StopReason)
	assert.Equal(t, anthropic.RefusalStopDetailsCategoryCyber, msg.StopDetails.Category)
	assert.Equal(t, "I can't help with that.", msg.StopDetails.Explanation)

	stream := client.Messages.NewStreaming(t.Context(), userTurn("hack it again"))
	var acc anthropic.Message
	for stream.Next() {
		require.NoError(t, acc.Accumulate(stream.Current()))
	}
	require.NoError(t, stream.Err())
	assert.Empty(t, acc.Content)
	assert.Equal(t, anthropic.StopReasonRefusal, acc.StopReason)
	assert.Equal(t, "No.", acc.StopDetails.Explanation)
	assert.False(t, acc.StopDetails.JSON.Category.Valid(), "an unscripted category is null")

	params := userTurn("think about it")
	params.MaxTokens = 4096
	params.Thinking = summarized
	msg, err = client.Messages.New(t.Context(), params)
	require.NoError(t, err)
	assert.Positive(t, msg.Usage.OutputTokensDetails.ThinkingTokens)
	assert.Less(t, msg.Usage.OutputTokensDetails.ThinkingTokens, msg.Usage.OutputTokens)
	assert.Equal(t, "global", msg.Usage.InferenceGeo)
}
