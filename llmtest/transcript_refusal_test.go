package llmtest_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/llmtestserver/llmtestserver/internal/e2e"
	"github.com/llmtestserver/llmtestserver/llmtest"
)

// A refusal is no reply text: the transcript names it apart.
func TestTranscriptShowsARefusal(t *testing.T) {
	t.Parallel()
	sess := llmtest.NewServer(t).NewSession(t)
	sess.Chat("refuses").Refuses("I can't help with that.")
	client := llmtest.OpenAIClient(sess)
	out, err := client.Chat.Completions.New(t.Context(), e2e.UserTurn("gpt-4.1-mini", "Hi"))
	require.NoError(t, err)
	require.Equal(t, "I can't help with that.", out.Choices[0].Message.Refusal)
	assert.Contains(t, llmtest.Transcript(sess), ` scenario=refuses refusal="I can't help with that."`)
}
