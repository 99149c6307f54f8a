package session_test

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/llmtestserver/llmtestserver/session"
)

// A zero ManagerConfig means the defaults: the default startup
// configuration and bounds, and a 32 MiB request bound, so that sessions
// can be created, scripted and used over HTTP.
func TestZeroManagerConfigMeansTheDefaults(t *testing.T) {
	for name, cfg := range map[string]session.ManagerConfig{
		"zero":               {},
		"only a startup":     {Startup: session.DefaultConfig()},
		"only a session cap": {Bounds: session.Bounds{MaxSessions: 32}},
	} {
		t.Run(name, func(t *testing.T) { testDefaults(t, cfg) })
	}
}

func testDefaults(t *testing.T, cfg session.ManagerConfig) {
	m, err := session.NewManager(cfg)
	require.NoError(t, err)
	defer m.Close()
	require.Equal(t, session.DefaultBounds(), m.Bounds())
	require.Equal(t, session.DefaultConfig(), m.Startup())
	srv := httptest.NewServer(m.Handler())
	defer srv.Close()

	send := func(method, path, body string, header ...string) (int, []byte) {
		t.Helper()
		req, err := http.NewRequest(method, srv.URL+path, bytes.NewReader([]byte(body)))
		require.NoError(t, err)
		req.Header.Set("Content-Type", "application/json")
		for i := 0; i+1 < len(header); i += 2 {
			req.Header.Set(header[i], header[i+1])
		}
		resp, err := srv.Client().Do(req)
		require.NoError(t, err)
		defer resp.Body.Close()
		b, err := io.ReadAll(resp.Body)
		require.NoError(t, err)
		return resp.StatusCode, b
	}
	status, body := send(http.MethodPost, "/admin-api/sessions", "{}")
	require.Equal(t, http.StatusCreated, status, "%s", body)
	var created struct{ ID, Key string }
	require.NoError(t, json.Unmarshal(body, &created))
	sel := []string{session.HeaderSession, created.ID, session.HeaderSessionKey, created.Key}

	status, body = send(http.MethodPost, "/admin-api/scenarios",
		`{"scenarios":[{"name":"hi","match":{},"replies":[{"text":"hello from defaults"}]}]}`, sel...)
	require.Equal(t, http.StatusNoContent, status, "%s", body)
	status, body = send(http.MethodPost, "/v1/chat/completions",
		`{"model":"gpt-4.1-mini","messages":[{"role":"user","content":"hi"}]}`, sel...)
	require.Equal(t, http.StatusOK, status, "%s", body)
	require.Contains(t, string(body), "hello from defaults")
}
