package llmtest_test

import (
	"fmt"
	"testing"

	"github.com/openai/openai-go/v3"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/llmtestserver/llmtestserver/internal/e2e"
	"github.com/llmtestserver/llmtestserver/llmtest"
)

// An entry keeps the end of a long conversation, and counts every message
// it left out, those past the list bound included.
func TestJournalCountsTheMessagesItLeavesOut(t *testing.T) {
	t.Parallel()
	sess := llmtest.NewServer(t).NewSession(t)
	sess.Chat("any").Responds("ok")
	params := e2e.UserTurn("gpt-4.1-mini", "first")
	for i := range 199 {
		params.Messages = append(params.Messages, openai.UserMessage(fmt.Sprint("message ", i+2)))
	}
	client := llmtest.OpenAIClient(sess)
	_, err := client.Chat.Completions.New(t.Context(), params)
	require.NoError(t, err)
	e, _ := sess.Journal().Last()
	require.Len(t, e.Request.Messages, 128)
	assert.Equal(t, 72, e.Request.OmittedMessages)
	assert.Equal(t, "message 200", e.Request.Messages[127].Text)
}
