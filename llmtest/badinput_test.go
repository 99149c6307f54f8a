package llmtest_test

import (
	"bytes"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/llmtestserver/llmtestserver/internal/e2e"
	"github.com/llmtestserver/llmtestserver/llmtest"
	"github.com/llmtestserver/llmtestserver/session"
)

// Bad input gets a clear 4xx in the error envelope, and the session's state
// is unchanged: its reply is still there for the good request that follows.
func TestBadInput(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t, llmtest.WithMaxRequestBytes(4096))
	sess := srv.NewSession(t, session.OnlyModels("gpt-4.1-mini"))
	sess.Chat("greeting").Responds("still here")
	sel := e2e.SelectorOf(sess)
	chat := srv.URL() + "/v1/chat/completions"

	tests := []struct {
		name, method, url, body, contentType string
		status                               int
		code, param                          string
	}{
		{"malformed JSON", "POST", chat, `{"model":`, "application/json", 400, "", ""},
		{"not an object", "POST", chat, `[1,2]`, "application/json", 400, "", ""},
		{"empty body", "POST", chat, ``, "application/json", 400, "", ""},
		{"wrong content type", "POST", chat, e2e.ChatBody("gpt-4.1-mini", "Hi"), "text/plain", 415, "unsupported_content_type", ""},
		{"form body", "POST", chat, "model=gpt-4.1-mini", "application/x-www-form-urlencoded", 415, "unsupported_content_type", ""},
		{"oversized body", "POST", chat, e2e.ChatBody("gpt-4.1-mini", strings.Repeat("x", 5000)), "application/json", 413, "request_too_large", ""},
		{"model of wrong type", "POST", chat, `{"model":5,"messages":[]}`, "application/json", 400, "invalid_type", "model"},
		{"content of wrong type", "POST", chat, `{"model":"gpt-4.1-mini","messages":[{"role":"user","content":5}]}`, "application/json", 400, "invalid_type", "messages[0].content"},
		{"missing model", "POST", chat, `{"messages":[{"role":"user","content":"Hi"}]}`, "application/json", 400, "", ""},
		{"missing messages", "POST", chat, `{"model":"gpt-4.1-mini"}`, "application/json", 400, "missing_required_parameter", "messages"},
		{"empty messages", "POST", chat, `{"model":"gpt-4.1-mini","messages":[]}`, "application/json", 400, "empty_array", "messages"},
		{"bad role", "POST", chat, `{"model":"gpt-4.1-mini","messages":[{"role":"robot","content":"Hi"}]}`, "application/json", 400, "invalid_value", "messages[0].role"},
		{"tool without call", "POST", chat, `{"model":"gpt-4.1-mini","messages":[{"role":"user","content":"Hi"},{"role":"tool","tool_call_id":"call_1","content":"42"}]}`, "application/json", 400, "", "messages.[1].role"},
		{"unanswered tool call", "POST", chat, `{"model":"gpt-4.1-mini","messages":[{"role":"user","content":"Hi"},{"role":"assistant","tool_calls":[{"id":"call_1","type":"function","function":{"name":"f","arguments":"{}"}}]},{"role":"user","content":"well?"}]}`, "application/json", 400, "", "messages.[1].role"},
		{"unserved model", "POST", chat, e2e.ChatBody("gpt-4o", "Hi"), "application/json", 404, "model_not_found", ""},
		{"unknown route", "POST", srv.URL() + "/v1/completions/legacy", `{}`, "application/json", 404, "", ""},
		{"route without /v1", "POST", srv.URL() + "/chat/completions", e2e.ChatBody("gpt-4.1-mini", "Hi"), "application/json", 404, "", ""},
		{"wrong method", "PUT", chat, ``, "", 405, "method_not_allowed", ""}, // GET lists the stored completions
		{"wrong method on models", "POST", srv.URL() + "/v1/models", `{}`, "application/json", 405, "method_not_allowed", ""},
		{"unknown admin route", "GET", srv.URL() + "/admin-api/nothing", ``, "", 404, "", ""},
		{"wrong admin method", "GET", srv.URL() + "/admin-api/reset", ``, "", 405, "method_not_allowed", ""},
		{"wrong method on sessions", "PUT", srv.URL() + "/admin-api/sessions", ``, "", 405, "method_not_allowed", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req, err := http.NewRequest(tt.method, tt.url, bytes.NewReader([]byte(tt.body)))
			if err != nil {
				t.Fatal(err)
			}
			if tt.contentType != "" {
				req.Header.Set("Content-Type", tt.contentType)
			}
			for i := 0; i < len(sel); i += 2 {
				req.Header.Set(sel[i], sel[i+1])
			}
			resp, err := srv.Client().Do(req)
			if err != nil {
				t.Fatal(err)
			}
			body, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			r := e2e.Reply{Status: resp.StatusCode, Header: resp.Header, Body: body}
			r.WantError(t, tt.status, tt.code)
			if _, typ, param, _ := r.APIError(t); param != tt.param || typ != "invalid_request_error" {
				t.Errorf("type %q param %q, want invalid_request_error and %q", typ, param, tt.param)
			}
			if tt.status == 405 && resp.Header.Get("Allow") == "" {
				t.Error("405 without an Allow header")
			}
		})
	}
	if sess.Pending() != 1 {
		t.Fatal("a refused request used the reply")
	}
	r := e2e.Call(t, srv.Client(), http.MethodPost, chat, e2e.ChatBody("gpt-4.1-mini", "Hi"), sel...)
	if r.Status != 200 || !strings.Contains(string(r.Body), "still here") {
		t.Fatalf("good request after bad ones: %d %s", r.Status, r.Body)
	}
	// The hint names the fix for a base URL without /v1.
	r = e2e.Call(t, srv.Client(), http.MethodPost, srv.URL()+"/chat/completions", e2e.ChatBody("gpt-4.1-mini", "Hi"), sel...)
	if _, _, _, msg := r.APIError(t); !strings.Contains(msg, "/v1") {
		t.Errorf("message %q gives no hint about /v1", msg)
	}
}
