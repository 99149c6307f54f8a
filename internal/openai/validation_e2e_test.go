package openai_test

import (
	"net/http"
	"testing"

	"github.com/llmtestserver/llmtestserver/internal/e2e"
	"github.com/llmtestserver/llmtestserver/llmtest"
)

const rawUser = `{"role":"user","content":"Weather?"}`

// A content of the wrong type names its message in param, like every other
// per-message error.
func TestChatValidationContentParamNamesTheMessage(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t)
	sess := srv.NewSession(t)
	r := e2e.Call(t, srv.Client(), http.MethodPost, sess.BaseURL()+"/chat/completions",
		`{"model":"gpt-4.1-mini","messages":[`+rawUser+`,{"role":"user","content":42}]}`, e2e.SelectorOf(sess)...)
	code, _, param, _ := r.APIError(t)
	if r.Status != http.StatusBadRequest || code != "invalid_type" {
		t.Fatalf("got %d %s, want 400 invalid_type", r.Status, code)
	}
	if param != "messages[1].content" {
		t.Errorf("param = %q, want messages[1].content", param)
	}
}
