package openai_test

import (
	"net/http"
	"testing"

	"github.com/llmtestserver/llmtestserver/llmtest"
)

const rawUser = `{"role":"user","content":"Weather?"}`

// A content of the wrong type names its message in param, like every other
// per-message error.
func TestChatValidationContentParamNamesTheMessage(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t)
	sess := srv.NewSession(t)
	r := rawCall(t, srv.Client(), http.MethodPost, sess.BaseURL()+"/chat/completions",
		`{"model":"gpt-4.1-mini","messages":[`+rawUser+`,{"role":"user","content":42}]}`, selectorOf(sess)...)
	code, _, param, _ := r.apiError(t)
	if r.status != http.StatusBadRequest || code != "invalid_type" {
		t.Fatalf("got %d %s, want 400 invalid_type", r.status, code)
	}
	if param != "messages[1].content" {
		t.Errorf("param = %q, want messages[1].content", param)
	}
}
