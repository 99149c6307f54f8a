package llmtest_test

import (
	"encoding/json"
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/llmtestserver/llmtestserver/internal/e2e"
	"github.com/llmtestserver/llmtestserver/llmtest"
)

// A request for a session that does not exist reaches no runtime, and so
// numbers no request of one; it still carries the request ID header every
// answer of its provider carries, and a fresh ID each time, as a client
// that logs request IDs to tell failures apart expects.
func TestSessionNotFoundCarriesAFreshRequestID(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t)
	sess := srv.NewSession(t)
	wrongKey := []string{"X-Llm-Test-Server-Session", sess.ID(), "X-Llm-Test-Server-Session-Key", "wrong"}

	t.Run("anthropic", func(t *testing.T) {
		ids := map[string]bool{}
		for range 2 {
			r := e2e.Call(t, srv.Client(), "POST", sess.AnthropicBaseURL()+"/v1/messages", e2e.MessagesBody, wrongKey...)
			require.Equal(t, http.StatusNotFound, r.Status, "body %s", r.Body)
			e := decodeAnthropicError(t, r)
			require.Equal(t, "session_not_found", e.Error.Details.ErrorCode)
			assert.Regexp(t, `^req_[0-9A-Za-z]+$`, r.Header.Get("Request-Id"))
			assert.Equal(t, r.Header.Get("Request-Id"), e.RequestID, "the body's request_id and the header differ")
			ids[e.RequestID] = true
		}
		assert.Len(t, ids, 2, "two answers share a request ID")
	})

	t.Run("openai", func(t *testing.T) {
		ids := map[string]bool{}
		for range 2 {
			r := e2e.Call(t, srv.Client(), "POST", sess.BaseURL()+"/chat/completions", e2e.ChatBody("gpt-4o-mini", "Hi"), wrongKey...)
			require.Equal(t, http.StatusNotFound, r.Status, "body %s", r.Body)
			var e struct {
				Error struct{ Code string } `json:"error"`
			}
			require.NoError(t, json.Unmarshal(r.Body, &e))
			require.Equal(t, "session_not_found", e.Error.Code)
			assert.Regexp(t, `^req_[0-9a-f]{32}$`, r.Header.Get("X-Request-Id"))
			ids[r.Header.Get("X-Request-Id")] = true
		}
		assert.Len(t, ids, 2, "two answers share a request ID")
	})
}
