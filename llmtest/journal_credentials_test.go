package llmtest_test

import (
	"encoding/json"
	"net/http"
	"testing"

	"github.com/openai/openai-go/v3/option"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/llmtestserver/llmtestserver/internal/e2e"
	"github.com/llmtestserver/llmtestserver/journal"
	"github.com/llmtestserver/llmtestserver/llmtest"
	"github.com/llmtestserver/llmtestserver/session"
)

// OpenAI's 401 quotes the wrong key it got, whole when short and partly
// masked when long, and the client reads it so; the journal keeps none of
// it, in any field.
func TestJournalKeepsNoWrongKey(t *testing.T) {
	t.Parallel()
	sess := llmtest.NewServer(t).NewSession(t, session.RequireAPIKey("right-key"))
	for _, key := range []string{"shortsecret", "sk-proj-secretpartQ7vZ"} {
		client := llmtest.OpenAIClient(sess, option.WithAPIKey(key), option.WithMaxRetries(0))
		_, err := client.Chat.Completions.New(t.Context(), e2e.UserTurn("gpt-4.1-mini", "Hi"))
		apiErr := e2e.OpenAIError(t, err)
		require.Equal(t, http.StatusUnauthorized, apiErr.StatusCode)
		require.Contains(t, apiErr.Message, map[string]string{"shortsecret": "shortsecret", "sk-proj-secretpartQ7vZ": "Q7vZ"}[key],
			"the client reads the real API's wording")
	}
	entries := sess.Journal().Entries()
	require.Len(t, entries, 2)
	for _, e := range entries {
		assert.Equal(t, "invalid_api_key", e.ErrorCode)
		assert.Contains(t, e.ErrorMessage, "Incorrect API key provided: "+journal.Redacted+".")
		b, err := json.Marshal(e)
		require.NoError(t, err)
		for _, secret := range []string{"shortsecret", "Q7vZ", "secretpart", "right-key"} {
			assert.NotContains(t, string(b), secret)
			assert.NotContains(t, e.GoString(), secret)
		}
	}
}
