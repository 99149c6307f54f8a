package session_test

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/llmtestserver/llmtestserver/scenario"
	"github.com/llmtestserver/llmtestserver/session"
)

// heavyConfig is a configuration of about size bytes whose replies are
// made of <, > and &, which json.Marshal writes as six bytes each.
func heavyConfig(t *testing.T, size int) (plain, escaped string) {
	t.Helper()
	text := strings.Repeat("<&>", size/3/4)
	cfg := session.DefaultConfig()
	for i := range 4 {
		cfg.Scenarios = append(cfg.Scenarios, scenario.Scenario{Name: "s" + string(rune('a'+i)), Replies: []scenario.Reply{scenario.Text(text)}})
	}
	cfg.Scenarios[0].Replies = append(cfg.Scenarios[0].Replies, scenario.Text("x"))
	b, err := json.Marshal(cfg) // escapes: what a Go client sends
	require.NoError(t, err)
	return strings.ReplaceAll(strings.ReplaceAll(strings.ReplaceAll(string(b), `\u003c`, "<"), `\u003e`, ">"), `\u0026`, "&"), string(b)
}

// A configuration heavy in <, > and & reads back as it was written, not
// six times larger in \u003c escapes, so that what GET answers applies
// again as it is; one written by an encoder that escapes them measures
// what it measures unescaped. A 360 KB configuration read back as 2.16 MB,
// which PUT and POST then refused as too large.
func TestAdminConfigRoundTripsWithoutEscapes(t *testing.T) {
	a := newAdminServer(t, session.ManagerConfig{})
	plain, escaped := heavyConfig(t, 360<<10)
	require.Greater(t, len(escaped), 2<<20, "escaped, it is over twice the 1 MiB limit")
	for _, body := range []string{plain, escaped} {
		r := a.do(http.MethodPost, "/admin-api/sessions", body, mgmt()...)
		require.Equal(t, http.StatusCreated, r.status, "%.300s", r.body)
	}
	sess := a.create(plain)
	got := a.do(http.MethodGet, "/admin-api/config", "", of(sess)...)
	require.Equal(t, http.StatusOK, got.status, "%.300s", got.body)
	assert.NotContains(t, string(got.body), `\u003c`)
	assert.Less(t, len(got.body), 400<<10, "read back at its own size")
	r := a.do(http.MethodPut, "/admin-api/config", string(got.body), of(sess)...)
	require.Equal(t, http.StatusNoContent, r.status, "%.300s", r.body)
	r = a.do(http.MethodPost, "/admin-api/sessions", string(got.body), mgmt()...)
	require.Equal(t, http.StatusCreated, r.status, "%.300s", r.body)
	scenarios := a.do(http.MethodGet, "/admin-api/scenarios", "", of(sess)...)
	assert.NotContains(t, string(scenarios.body), `\u003c`)

	// The journal's exports and the provider's bodies leave them as well.
	chat := a.do(http.MethodPost, "/v1/chat/completions", `{"model":"gpt-4.1-mini","messages":[{"role":"user","content":"<b>hi</b> & more"}]}`, of(sess)...)
	require.Equal(t, http.StatusOK, chat.status, "%.300s", chat.body)
	assert.Contains(t, string(chat.body), "<&>")
	journal := a.do(http.MethodGet, "/admin-api/journal", "", of(sess)...)
	assert.Contains(t, string(journal.body), "<b>hi</b> & more")
}

// countingBody counts the bytes read of it.
type countingBody struct {
	r    io.Reader
	read int
}

func (c *countingBody) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.read += n
	return n, err
}

func (c *countingBody) Close() error { return nil }

// An admin body is read no further than a configuration of the size limit
// can take on the wire (six times the limit, every character escaped, and
// some whitespace): past that it is refused with 400
// configuration_too_large, having read no more. A 30 MiB configuration of
// whitespace around a small document was read whole and accepted.
func TestAdminBodiesAreCappedNearTheConfigurationLimit(t *testing.T) {
	m, err := session.NewManager(session.ManagerConfig{ManagementKey: managementKey,
		Bounds: session.Bounds{MaxSessions: 4, MaxReservedBytes: 1 << 30, MaxConfigBytes: 64 << 10}})
	require.NoError(t, err)
	defer m.Close()
	padded := "{" + strings.Repeat(" ", 30<<20) + "}"
	for _, path := range []string{"/admin-api/sessions", "/admin-api/config", "/admin-api/scenarios", "/admin-api/chaos"} {
		method := http.MethodPut
		if path == "/admin-api/sessions" || path == "/admin-api/scenarios" {
			method = http.MethodPost
		}
		body := &countingBody{r: strings.NewReader(padded)}
		r := httptest.NewRequest(method, path, nil)
		r.Body, r.ContentLength = body, int64(len(padded))
		r.Header.Set("Authorization", "Bearer "+managementKey)
		r.Header.Set("Content-Type", "application/json")
		w := httptest.NewRecorder()
		m.Handler().ServeHTTP(w, r)
		require.Equal(t, http.StatusBadRequest, w.Code, "%s: %.300s", path, w.Body.String())
		var env struct {
			Error struct{ Code string } `json:"error"`
		}
		require.NoError(t, json.Unmarshal(w.Body.Bytes(), &env))
		assert.Equal(t, "configuration_too_large", env.Error.Code, path)
		assert.LessOrEqual(t, body.read, 6*(64<<10)+(64<<10)+1+32<<10, "%s: read %d bytes of a 30 MiB body", path, body.read)
	}
}
