package server_test

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/llmtestserver/llmtestserver/internal/server"
	"github.com/llmtestserver/llmtestserver/session"
)

const managementKey = "mk"

// handler is the server's handler over a manager of its own, with one
// session, and that session's headers.
func handler(t *testing.T) (http.Handler, *session.Session) {
	t.Helper()
	m, err := session.NewManager(session.ManagerConfig{ManagementKey: managementKey, Dashboard: true})
	require.NoError(t, err)
	t.Cleanup(m.Close)
	sess, err := m.Create()
	require.NoError(t, err)
	sess.Chat("hi").Repeat().Responds("hello")
	return m.Handler(), sess
}

// do sends one request to h with the headers (pairs of name, value).
func do(h http.Handler, method, path, body string, headers ...string) *httptest.ResponseRecorder {
	r := httptest.NewRequest(method, path, strings.NewReader(body))
	if body != "" {
		r.Header.Set("Content-Type", "application/json")
	}
	for i := 0; i+1 < len(headers); i += 2 {
		r.Header.Add(headers[i], headers[i+1])
	}
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	return w
}

func sessionHeaders(s *session.Session) []string {
	return []string{session.HeaderSession, s.ID(), session.HeaderSessionKey, s.Key()}
}

// Of the codecs that serve a path, the one a request's headers claim
// answers it: GET /v1/models lists OpenAI's catalog, and Anthropic's for
// a request with anthropic-version.
func TestRoutesGoToTheCodecThatClaimsThem(t *testing.T) {
	h, sess := handler(t)
	var list struct {
		Object string `json:"object"`
		Data   []struct {
			ID   string `json:"id"`
			Type string `json:"type"`
		} `json:"data"`
	}
	w := do(h, http.MethodGet, "/v1/models", "", sessionHeaders(sess)...)
	require.Equal(t, http.StatusOK, w.Code, w.Body.String())
	require.NoError(t, json.Unmarshal(w.Body.Bytes(), &list))
	assert.Equal(t, "list", list.Object, "OpenAI's list envelope")
	assert.Empty(t, list.Data[0].Type)

	w = do(h, http.MethodGet, "/v1/models", "", append(sessionHeaders(sess), "Anthropic-Version", "2023-06-01")...)
	require.Equal(t, http.StatusOK, w.Code, w.Body.String())
	require.NoError(t, json.Unmarshal(w.Body.Bytes(), &list))
	assert.Equal(t, "model", list.Data[0].Type, "Anthropic's model objects")
	assert.True(t, strings.HasPrefix(list.Data[0].ID, "claude-"))

	entries := sess.Journal().Entries()
	require.Len(t, entries, 2)
	assert.Equal(t, "openai", entries[0].Provider)
	assert.Equal(t, "anthropic", entries[1].Provider)
}

// A path no codec serves is a 404 in the envelope of the codec that claims
// the request, with a hint when the path lacks a codec's base path or
// doubles Anthropic's /v1; a method a route does not take is a 405.
func TestUnservedPathsAndMethods(t *testing.T) {
	h, sess := handler(t)
	w := do(h, http.MethodPost, "/chat/completions", `{}`, sessionHeaders(sess)...)
	assert.Equal(t, http.StatusNotFound, w.Code)
	assert.Contains(t, w.Body.String(), "served under /v1")
	assert.Contains(t, w.Body.String(), `"invalid_request_error"`)

	w = do(h, http.MethodPost, "/v1/v1/messages", `{}`, append(sessionHeaders(sess), "Anthropic-Version", "2023-06-01")...)
	assert.Equal(t, http.StatusNotFound, w.Code)
	assert.Contains(t, w.Body.String(), "AnthropicBaseURL()")
	assert.Contains(t, w.Body.String(), `"type":"error"`, "Anthropic's envelope")

	w = do(h, http.MethodGet, "/v1/embeddings", "", sessionHeaders(sess)...)
	assert.Equal(t, http.StatusMethodNotAllowed, w.Code)
	assert.Equal(t, http.MethodPost, w.Header().Get("Allow"))
}

// Session headers that select no session are refused before any route:
// 404 session_not_found in the codec's envelope, and nothing journaled.
func TestUnknownSessionsReachNoRuntime(t *testing.T) {
	h, sess := handler(t)
	w := do(h, http.MethodPost, "/v1/chat/completions", `{"model":"gpt-4o","messages":[{"role":"user","content":"hi"}]}`,
		session.HeaderSession, sess.ID(), session.HeaderSessionKey, "not-the-key")
	assert.Equal(t, http.StatusNotFound, w.Code)
	assert.Contains(t, w.Body.String(), "session_not_found")
	assert.Zero(t, sess.Journal().Len())

	w = do(h, http.MethodPost, "/v1/chat/completions", `{"model":"gpt-4o","messages":[{"role":"user","content":"hi"}]}`,
		sessionHeaders(sess)...)
	assert.Equal(t, http.StatusOK, w.Code, w.Body.String())
	assert.Equal(t, 1, sess.Journal().Len())
}

// The admin API and the dashboard have their own prefixes; headers past
// the limit are refused in the envelope of whoever would have answered.
func TestAdminDashboardAndHeaderLimit(t *testing.T) {
	h, _ := handler(t)
	w := do(h, http.MethodGet, "/admin-api/sessions", "", "Authorization", "Bearer "+managementKey)
	assert.Equal(t, http.StatusOK, w.Code, w.Body.String())
	assert.Contains(t, w.Body.String(), `"object":"list"`)

	w = do(h, http.MethodGet, "/", "", "Authorization", "Bearer "+managementKey)
	assert.Equal(t, http.StatusOK, w.Code)
	assert.Contains(t, w.Header().Get("Content-Type"), "text/html")

	big := strings.Repeat("x", server.HTTPMaxHeaderBytes)
	w = do(h, http.MethodPost, "/v1/chat/completions", `{}`, "X-Big", big)
	assert.Equal(t, http.StatusRequestHeaderFieldsTooLarge, w.Code)
	w = do(h, http.MethodGet, "/admin-api/sessions", "", "X-Big", big)
	assert.Equal(t, http.StatusRequestHeaderFieldsTooLarge, w.Code)
}

// The base paths the sessions' base URLs are made of are the codecs' own.
func TestBasePaths(t *testing.T) {
	for name, want := range map[string]string{"openai": "/v1", "anthropic": "", "gemini": ""} {
		got, ok := server.BasePath(name)
		assert.True(t, ok, name)
		assert.Equal(t, want, got, name)
	}
	_, ok := server.BasePath("mistral")
	assert.False(t, ok, "a provider the server does not speak")
}
