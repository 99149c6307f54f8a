package anthropic_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/llmtestserver/llmtestserver/internal/e2e"
	"github.com/llmtestserver/llmtestserver/llmtest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestShortStreamIsChunked streams a reply short enough to fit net/http's
// buffer: it still goes chunked, with no Content-Length, as the API's
// streams do.
func TestShortStreamIsChunked(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t)
	sess := srv.NewSession(t)
	sess.Chat("short").Responds("ok")
	body := strings.Replace(e2e.MessagesBody, `{`, `{"stream":true,`, 1)
	r := e2e.Call(t, srv.Client(), "POST", sess.AnthropicBaseURL()+"/v1/messages", body, e2e.AnthropicSelectorOf(sess)...)
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	assert.Contains(t, string(r.Body), "event: message_stop")
	assert.Empty(t, r.Header.Get("Content-Length"))
}
