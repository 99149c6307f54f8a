package openai_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/llmtestserver/llmtestserver/internal/e2e"
	"github.com/llmtestserver/llmtestserver/llmtest"
)

// Conversational endpoints refuse models of other kinds, as the real API
// refuses an embedding model on Chat Completions.
func TestConversationalEndpointsRefuseOtherModelKinds(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t)
	sess := srv.NewSession(t)
	sess.Chat("any").Responds("x").Repeat()
	for _, model := range []string{"text-embedding-3-small", "sora-2"} {
		for _, path := range []string{"/chat/completions", "/responses"} {
			body := e2e.ChatBody(model, "Hi")
			if path == "/responses" {
				body = `{"model":"` + model + `","input":"Hi"}`
			}
			r := e2e.Call(t, srv.Client(), http.MethodPost, sess.BaseURL()+path, body, e2e.SelectorOf(sess)...)
			r.WantError(t, http.StatusNotFound, "")
			if _, _, param, msg := r.APIError(t); param != "model" || !strings.Contains(msg, "not a chat model") {
				t.Errorf("%s with %s: param %q message %q", path, model, param, msg)
			}
		}
	}
	if sess.Pending() != 1 {
		t.Error("a refused request used the reply")
	}
}
