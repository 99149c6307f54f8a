package admin

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/llmtestserver/llmtestserver/internal/apierr"
)

// The admin API's envelope is the one its clients always read: type from
// the status, null param and code when empty, a message always.
func TestRenderTheAdminEnvelope(t *testing.T) {
	for _, tt := range []struct {
		err    *apierr.Error
		status int
		body   string
	}{
		{apierr.SessionNotFound(), 404, `{"error":{"message":"No session matches the X-Llm-Test-Server-Session and X-Llm-Test-Server-Session-Key headers. Send both, once each, with the values returned when the session was created.","type":"invalid_request_error","param":null,"code":"session_not_found"}}`},
		{apierr.InvalidConfiguration("journal.capacity", "too big"), 400, `{"error":{"message":"Invalid configuration: too big","type":"invalid_request_error","param":"journal.capacity","code":"invalid_configuration"}}`},
		{apierr.ShuttingDown(), 503, `{"error":{"message":"The server is shutting down and admits no new sessions.","type":"server_error","param":null,"code":"server_shutting_down"}}`},
		{apierr.Internal(), 500, `{"error":{"message":"The server had an error while processing your request. Sorry about that!","type":"server_error","param":null,"code":null}}`},
	} {
		status, body := Render(tt.err, 0)
		b, err := json.Marshal(body)
		assert.NoError(t, err)
		assert.Equal(t, tt.status, status)
		assert.JSONEq(t, tt.body, string(b))
	}
}
