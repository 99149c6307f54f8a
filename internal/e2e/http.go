package e2e

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"testing"

	"github.com/llmtestserver/llmtestserver/llmtest"
	"github.com/llmtestserver/llmtestserver/session"
)

// Reply is a raw HTTP answer, read whole, for the tests that check the
// wire without an SDK between them and the server.
type Reply struct {
	Status int
	Header http.Header
	Body   []byte
}

// APIError decodes the body as OpenAI's error envelope, failing the test
// if it is not one or lacks its message or type.
func (r Reply) APIError(t testing.TB) (code, typ, param, message string) {
	t.Helper()
	var env struct {
		Error struct {
			Message string  `json:"message"`
			Type    string  `json:"type"`
			Param   *string `json:"param"`
			Code    *string `json:"code"`
		} `json:"error"`
	}
	if err := json.Unmarshal(r.Body, &env); err != nil {
		t.Fatalf("body %q is not an error envelope: %v", r.Body, err)
	}
	if env.Error.Message == "" || env.Error.Type == "" {
		t.Fatalf("error envelope %s lacks message or type", r.Body)
	}
	if env.Error.Code != nil {
		code = *env.Error.Code
	}
	if env.Error.Param != nil {
		param = *env.Error.Param
	}
	return code, env.Error.Type, param, env.Error.Message
}

// WantError checks the status, the error code and the JSON content type
// of r.
func (r Reply) WantError(t testing.TB, status int, code string) {
	t.Helper()
	if r.Status != status {
		t.Fatalf("status = %d, want %d; body %s", r.Status, status, r.Body)
	}
	if got, _, _, _ := r.APIError(t); got != code {
		t.Fatalf("error code = %q, want %q; body %s", got, code, r.Body)
	}
	if ct := r.Header.Get("Content-Type"); ct != "application/json" {
		t.Errorf("Content-Type = %q, want application/json", ct)
	}
}

// Call sends one raw request with the given headers (pairs of name, value)
// through c, which is the server's Client (no session headers of its own)
// or a session's, so that it reaches the server in either transport mode.
// No SDK is involved: the test sees the bytes the server wrote.
func Call(t testing.TB, c *http.Client, method, url string, body string, headers ...string) Reply {
	t.Helper()
	var rd io.Reader
	if body != "" {
		rd = bytes.NewReader([]byte(body))
	}
	req, err := http.NewRequest(method, url, rd)
	if err != nil {
		t.Fatal(err)
	}
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Add(headers[i], headers[i+1])
	}
	resp, err := c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return Reply{Status: resp.StatusCode, Header: resp.Header, Body: b}
}

// SelectorOf returns the header pairs that select sess.
func SelectorOf(sess *session.Session) []string {
	return []string{session.HeaderSession, sess.ID(), session.HeaderSessionKey, sess.Key()}
}

// AnthropicVersion is the anthropic-version the v2 SDKs send. The server,
// like the API, refuses an Anthropic request without one.
const AnthropicVersion = "2026-10-21"

// AnthropicSelectorOf is SelectorOf with the anthropic-version header
// every Anthropic request carries.
func AnthropicSelectorOf(sess *session.Session) []string {
	return append(SelectorOf(sess), "anthropic-version", AnthropicVersion)
}

// Bearer returns the header pair that presents token as a bearer token.
func Bearer(token string) []string { return []string{"Authorization", "Bearer " + token} }

// Join concatenates header pairs, so that a call can present a selector
// and a key together.
func Join(parts ...[]string) []string {
	var out []string
	for _, p := range parts {
		out = append(out, p...)
	}
	return out
}

// Created is the body of a 201 from POST /admin-api/sessions.
type Created struct {
	ID               string `json:"id"`
	Key              string `json:"key"`
	ReservationBytes int64  `json:"reservation_bytes"`
}

// CreateOverHTTP creates a session through the admin API with the
// server's management key and deletes it at cleanup.
func CreateOverHTTP(t testing.TB, srv *llmtest.Server, body string) Created {
	t.Helper()
	return CreateOverHTTPAs(t, srv, srv.ManagementKey(), body)
}

// CreateOverHTTPAs is CreateOverHTTP with the given management key.
func CreateOverHTTPAs(t testing.TB, srv *llmtest.Server, key, body string) Created {
	t.Helper()
	r := Call(t, srv.Client(), http.MethodPost, srv.URL()+"/admin-api/sessions", body, Bearer(key)...)
	if r.Status != http.StatusCreated {
		t.Fatalf("create: status %d, body %s", r.Status, r.Body)
	}
	var c Created
	if err := json.Unmarshal(r.Body, &c); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		Call(t, srv.Client(), http.MethodDelete, srv.URL()+"/admin-api/sessions/"+c.ID, "",
			session.HeaderSession, c.ID, session.HeaderSessionKey, c.Key)
	})
	return c
}

// ChatBody is a minimal chat completion request.
func ChatBody(model, user string) string {
	b, _ := json.Marshal(map[string]any{"model": model, "messages": []map[string]string{{"role": "user", "content": user}}})
	return string(b)
}

// MessagesBody is a minimal Anthropic Messages request.
const MessagesBody = `{"model":"claude-sonnet-5-5","max_tokens":64,"messages":[{"role":"user","content":"Hi"}]}`
