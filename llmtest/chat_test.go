package llmtest_test

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"testing"

	"github.com/llmtestserver/llmtestserver/internal/e2e"
	"github.com/llmtestserver/llmtestserver/llmtest"
	"github.com/llmtestserver/llmtestserver/session"
	"github.com/openai/openai-go/v3"
)

// The provider key is checked independently of the session key, and errors
// parse into openai-go's error type.
func TestProviderCredentials(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t)
	sess := srv.NewSession(t, session.RequireAPIKey("provider-key"))
	sess.Chat("greeting").Responds("hi")
	for _, key := range []string{"wrong-key", sess.Key(), srv.ManagementKey()} {
		client := e2e.ClientFor(sess, key)
		_, err := client.Chat.Completions.New(context.Background(), e2e.UserTurn("gpt-4.1-mini", "Hi"))
		var apiErr *openai.Error
		if !errors.As(err, &apiErr) || apiErr.StatusCode != http.StatusUnauthorized || apiErr.Code != "invalid_api_key" {
			t.Fatalf("key %.12s…: err = %v, want 401 invalid_api_key", key, err)
		}
		// As the real API, a short key is shown whole and a long one
		// masked, so the session's and the server's keys never are.
		if len(key) > 12 && strings.Contains(apiErr.Message, key) || strings.Contains(apiErr.Message, sess.Key()) {
			t.Errorf("401 message %q repeats the key", apiErr.Message)
		}
		if !strings.HasPrefix(apiErr.Message, "Incorrect API key provided: ") ||
			!strings.HasSuffix(apiErr.Message, ". You can find your API key at https://platform.openai.com/account/api-keys.") {
			t.Errorf("401 message %q is not the real API's", apiErr.Message)
		}
	}
	for _, e := range sess.Journal().Entries() {
		if e.Status != http.StatusUnauthorized || e.ErrorCode != "invalid_api_key" {
			t.Errorf("journal entry %+v, want a 401 invalid_api_key", e)
		}
	}
	if sess.Pending() != 1 {
		t.Error("a refused request used a reply")
	}
	client := e2e.ClientFor(sess, "provider-key")
	resp, err := client.Chat.Completions.New(context.Background(), e2e.UserTurn("gpt-4.1-mini", "Hi"))
	if err != nil || resp.Choices[0].Message.Content != "hi" {
		t.Fatalf("right key: %v", err)
	}
}
