package llmtest_test

import (
	"errors"
	"net/http"
	"strings"
	"testing"

	"github.com/llmtestserver/llmtestserver/internal/e2e"
	"github.com/llmtestserver/llmtestserver/llmtest"
	"github.com/llmtestserver/llmtestserver/session"
	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
)

// A client built without the session's HTTP client reaches the default
// runtime with the session's provider key: the 401 says what went wrong
// and how to fix it, instead of a bare "Incorrect API key".
func TestForgottenSessionClientIsExplained(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t)
	sess := srv.NewSession(t, session.RequireAPIKey("provider-key"))
	sess.Chat("greeting").Responds("hello")
	forgot := openai.NewClient(option.WithBaseURL(sess.BaseURL()), option.WithAPIKey("provider-key"),
		option.WithHTTPClient(srv.Client()), // the server's, without session headers
		option.WithMaxRetries(0))            // no option.WithHTTPClient(sess.HTTPClient())
	_, err := forgot.Chat.Completions.New(t.Context(), e2e.UserTurn("gpt-4o-mini", "Hello"))
	var apiErr *openai.Error
	if !errors.As(err, &apiErr) || apiErr.StatusCode != http.StatusUnauthorized || apiErr.Code != "invalid_api_key" {
		t.Fatalf("error = %v, want 401 invalid_api_key", err)
	}
	for _, want := range []string{"Incorrect API key provided", "no session headers", "option.WithHTTPClient(sess.HTTPClient())"} {
		if !strings.Contains(apiErr.Message, want) {
			t.Errorf("message %q does not say %q", apiErr.Message, want)
		}
	}

	// A session's own wrong key keeps the real API's message alone: the
	// headers were there, the key was wrong.
	wrongKey := e2e.ClientFor(sess, "wrong-key")
	_, err = wrongKey.Chat.Completions.New(t.Context(), e2e.UserTurn("gpt-4o-mini", "Hello"))
	if !errors.As(err, &apiErr) || apiErr.StatusCode != http.StatusUnauthorized {
		t.Fatalf("error = %v, want 401", err)
	}
	if strings.Contains(apiErr.Message, "session headers") {
		t.Errorf("a session's own 401 talks of session headers: %q", apiErr.Message)
	}
	if sess.Pending() != 1 {
		t.Errorf("Pending() = %d, want the reply unused", sess.Pending())
	}
}
