package llmtest_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/llmtestserver/llmtestserver/internal/e2e"
	"github.com/llmtestserver/llmtestserver/llmtest"
	"github.com/llmtestserver/llmtestserver/session"
)

// The rows of the session contract's HTTP table, over raw HTTP.

func TestCreateSessionOverHTTP(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t, llmtest.WithDefaults(session.OnlyModels("gpt-4.1-mini")))
	r := e2e.Call(t, srv.Client(), http.MethodPost, srv.URL()+"/admin-api/sessions", "{}", e2e.Bearer(srv.ManagementKey())...)
	if r.Status != http.StatusCreated {
		t.Fatalf("status %d, want 201; body %s", r.Status, r.Body)
	}
	var c e2e.Created
	if err := json.Unmarshal(r.Body, &c); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		e2e.Call(t, srv.Client(), http.MethodDelete, srv.URL()+"/admin-api/sessions/"+c.ID, "", session.HeaderSession, c.ID, session.HeaderSessionKey, c.Key)
	})
	if got, want := r.Header.Get("Location"), "/admin-api/sessions/"+c.ID; got != want {
		t.Errorf("Location = %q, want %q", got, want)
	}
	if got := r.Header.Get("Cache-Control"); got != "no-store" {
		t.Errorf("Cache-Control = %q, want no-store", got)
	}
	if c.ID == "" || len(c.Key) < 64 {
		t.Errorf("id %q, key %q: want an ID and a key of 256 random bits", c.ID, c.Key)
	}
	startup := srv.Manager().Startup()
	if want := startup.Reservation(); c.ReservationBytes != want {
		t.Errorf("reservation_bytes = %d, want the startup configuration's %d", c.ReservationBytes, want)
	}
	sess, ok := srv.Manager().Lookup(c.ID, c.Key)
	if !ok {
		t.Fatal("the created session cannot be looked up with its ID and key")
	}
	cfg, err := sess.Config()
	if err != nil {
		t.Fatal(err)
	}
	if len(cfg.Models) != 1 || cfg.Models[0] != "gpt-4.1-mini" {
		t.Errorf("{} gave models %v, want the startup configuration's [gpt-4.1-mini]", cfg.Models)
	}
}

func TestCreateSessionWithConfiguration(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t)
	const body = `{"api_key":"provider-key","journal":{"capacity":5,"max_bytes":65536},
		"scenarios":[{"name":"greeting","match":{"endpoint":"chat.completions"},"replies":[{"text":"configured over HTTP"}]}]}`
	c := e2e.CreateOverHTTP(t, srv, body)
	sel := []string{session.HeaderSession, c.ID, session.HeaderSessionKey, c.Key}
	// The capacities' terms, and what keeping the scenario costs.
	capacities := int64(65536 + 5*1024 + 2<<20 + 1000*256 + 5<<19)
	cfg, err := session.ParseConfig([]byte(body), srv.Manager().Startup())
	if err != nil {
		t.Fatal(err)
	}
	if want := cfg.Reservation(); c.ReservationBytes != want || want <= capacities {
		t.Errorf("reservation_bytes = %d, want %d, more than the capacities' %d", c.ReservationBytes, want, capacities)
	}
	r := e2e.Call(t, srv.Client(), http.MethodPost, srv.URL()+"/v1/chat/completions", e2e.ChatBody("gpt-4.1-mini", "Hi"), e2e.Join(sel, e2e.Bearer("provider-key"))...)
	if r.Status != http.StatusOK || !strings.Contains(string(r.Body), "configured over HTTP") {
		t.Fatalf("status %d, body %s; want the configured reply", r.Status, r.Body)
	}
}

func TestCreateSessionIsGuarded(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t)
	sess := srv.NewSession(t)
	url := srv.URL() + "/admin-api/sessions"
	tests := []struct {
		name    string
		headers []string
		status  int
		code    string
	}{
		{"no management key", nil, http.StatusUnauthorized, ""},
		{"wrong management key", e2e.Bearer("not-the-key-at-all"), http.StatusUnauthorized, "invalid_api_key"},
		{"session headers", e2e.Join(e2e.Bearer(srv.ManagementKey()), e2e.SelectorOf(sess)), http.StatusBadRequest, "session_selector_not_allowed"},
		{"one session header", e2e.Join(e2e.Bearer(srv.ManagementKey()), []string{session.HeaderSession, sess.ID()}), http.StatusBadRequest, "session_selector_not_allowed"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			before := srv.Manager().Len()
			e2e.Call(t, srv.Client(), http.MethodPost, url, "{}", tt.headers...).WantError(t, tt.status, tt.code)
			if after := srv.Manager().Len(); after != before {
				t.Errorf("sessions: %d before, %d after a refused creation", before, after)
			}
		})
	}
}

// A request whose selector is incomplete, unknown, foreign or duplicated gets
// 404 session_not_found and reaches no runtime: neither the default runtime
// nor any session records it.
func TestBadSelectorReachesNoRuntime(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t, llmtest.WithDefaults(session.WithScenario(greetingScenario("hello"))))
	a := srv.NewSession(t)
	b := srv.NewSession(t)
	url := srv.URL() + "/v1/chat/completions"
	tests := map[string][]string{
		"only the ID":    {session.HeaderSession, a.ID()},
		"only the key":   {session.HeaderSessionKey, a.Key()},
		"unknown ID":     {session.HeaderSession, "sess_unknown", session.HeaderSessionKey, a.Key()},
		"foreign key":    {session.HeaderSession, a.ID(), session.HeaderSessionKey, b.Key()},
		"duplicate ID":   e2e.Join(e2e.SelectorOf(a), []string{session.HeaderSession, a.ID()}),
		"duplicate key":  e2e.Join(e2e.SelectorOf(a), []string{session.HeaderSessionKey, a.Key()}),
		"empty values":   {session.HeaderSession, "", session.HeaderSessionKey, ""},
		"with mgmt auth": e2e.Join([]string{session.HeaderSession, a.ID()}, e2e.Bearer(srv.ManagementKey())),
	}
	for name, headers := range tests {
		t.Run(name, func(t *testing.T) {
			e2e.Call(t, srv.Client(), http.MethodPost, url, e2e.ChatBody("gpt-4.1-mini", "Hi"), headers...).WantError(t, http.StatusNotFound, "session_not_found")
			e2e.Call(t, srv.Client(), http.MethodGet, srv.URL()+"/admin-api/journal", "", headers...).WantError(t, http.StatusNotFound, "session_not_found")
		})
	}
	// The default runtime still has its only reply, and no journal entry.
	r := e2e.Call(t, srv.Client(), http.MethodGet, srv.URL()+"/admin-api/journal", "", e2e.Bearer(srv.ManagementKey())...)
	var j struct {
		Data []json.RawMessage `json:"data"`
	}
	if err := json.Unmarshal(r.Body, &j); err != nil || r.Status != http.StatusOK {
		t.Fatalf("default journal: %d %s", r.Status, r.Body)
	}
	if len(j.Data) != 0 {
		t.Errorf("default runtime journaled %d requests with bad selectors", len(j.Data))
	}
	for _, s := range []*session.Session{a, b} {
		if n := s.Journal().Len(); n != 0 {
			t.Errorf("session %s journaled %d requests with bad selectors", s.ID(), n)
		}
	}
	r = e2e.Call(t, srv.Client(), http.MethodPost, url, e2e.ChatBody("gpt-4.1-mini", "Hi"), e2e.Bearer(srv.ManagementKey())...)
	if r.Status != http.StatusOK || !strings.Contains(string(r.Body), "hello") {
		t.Errorf("default runtime reply: %d %s; want its untouched reply", r.Status, r.Body)
	}
}

func TestDeleteSessionOverHTTP(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t)
	c := e2e.CreateOverHTTP(t, srv, "{}")
	sel := []string{session.HeaderSession, c.ID, session.HeaderSessionKey, c.Key}
	url := srv.URL() + "/admin-api/sessions/" + c.ID
	reserved := srv.Manager().Reserved()

	t.Run("refused without its own headers", func(t *testing.T) {
		e2e.Call(t, srv.Client(), http.MethodDelete, url, "", e2e.Bearer(srv.ManagementKey())...).WantError(t, http.StatusNotFound, "session_not_found")
		other := e2e.CreateOverHTTP(t, srv, "{}")
		e2e.Call(t, srv.Client(), http.MethodDelete, url, "", session.HeaderSession, other.ID, session.HeaderSessionKey, other.Key).
			WantError(t, http.StatusNotFound, "session_not_found")
		e2e.Call(t, srv.Client(), http.MethodDelete, url, "", session.HeaderSession, c.ID, session.HeaderSessionKey, other.Key).
			WantError(t, http.StatusNotFound, "session_not_found")
		if _, ok := srv.Manager().Lookup(c.ID, c.Key); !ok {
			t.Fatal("a refused deletion deleted the session")
		}
	})

	t.Run("works after the provider key changed", func(t *testing.T) {
		r := e2e.Call(t, srv.Client(), http.MethodPut, srv.URL()+"/admin-api/config", `{"api_key":"changed"}`, sel...)
		if r.Status != http.StatusNoContent {
			t.Fatalf("configure: %d %s", r.Status, r.Body)
		}
		r = e2e.Call(t, srv.Client(), http.MethodDelete, url, "", sel...)
		if r.Status != http.StatusNoContent || len(r.Body) != 0 {
			t.Fatalf("delete: status %d body %q, want 204 and no body", r.Status, r.Body)
		}
		if got := srv.Manager().Reserved(); got != reserved-c.ReservationBytes {
			t.Errorf("reserved after delete = %d, want %d", got, reserved-c.ReservationBytes)
		}
	})

	t.Run("then every call is 404", func(t *testing.T) {
		e2e.Call(t, srv.Client(), http.MethodDelete, url, "", sel...).WantError(t, http.StatusNotFound, "session_not_found")
		e2e.Call(t, srv.Client(), http.MethodPost, srv.URL()+"/v1/chat/completions", e2e.ChatBody("gpt-4.1-mini", "Hi"), sel...).
			WantError(t, http.StatusNotFound, "session_not_found")
		e2e.Call(t, srv.Client(), http.MethodGet, srv.URL()+"/admin-api/journal", "", sel...).WantError(t, http.StatusNotFound, "session_not_found")
	})
}

// The default runtime guards session creation: a configuration may change
// its bearer token but not remove it.
func TestDefaultRuntimeKeepsAnAPIKey(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t)
	url := srv.URL() + "/admin-api/config"
	r := e2e.Call(t, srv.Client(), http.MethodPut, url, `{"api_key":""}`, e2e.Bearer(srv.ManagementKey())...)
	r.WantError(t, http.StatusBadRequest, "invalid_configuration")
	e2e.Call(t, srv.Client(), http.MethodPost, srv.URL()+"/admin-api/sessions", "{}").WantError(t, http.StatusUnauthorized, "")
	r = e2e.Call(t, srv.Client(), http.MethodPut, url, `{"api_key":"rotated"}`, e2e.Bearer(srv.ManagementKey())...)
	if r.Status != http.StatusNoContent {
		t.Fatalf("rotate: %d %s", r.Status, r.Body)
	}
	createOverHTTPWith(t, srv, "rotated")
}

// A closed server admits no sessions, and says so with a 503.
func TestCreateAfterClose(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t)
	srv.Manager().Close()
	e2e.Call(t, srv.Client(), http.MethodPost, srv.URL()+"/admin-api/sessions", "{}", e2e.Bearer(srv.ManagementKey())...).
		WantError(t, http.StatusServiceUnavailable, "server_shutting_down")
}

// Control routes act on the selected runtime, guarded by its bearer token;
// after a configure that changes it, control calls need the new token.
func TestControlRoutes(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t)
	c := e2e.CreateOverHTTP(t, srv, `{"api_key":"old-key","scenarios":[{"name":"g","match":{},"replies":[{"text":"one"}]}]}`)
	sel := []string{session.HeaderSession, c.ID, session.HeaderSessionKey, c.Key}
	base := srv.URL()

	e2e.Call(t, srv.Client(), http.MethodGet, base+"/admin-api/journal", "", sel...).WantError(t, http.StatusUnauthorized, "")
	r := e2e.Call(t, srv.Client(), http.MethodPost, base+"/v1/chat/completions", e2e.ChatBody("gpt-4.1-mini", "Hi"), e2e.Join(sel, e2e.Bearer("old-key"))...)
	if r.Status != http.StatusOK {
		t.Fatalf("chat: %d %s", r.Status, r.Body)
	}
	r = e2e.Call(t, srv.Client(), http.MethodGet, base+"/admin-api/journal", "", e2e.Join(sel, e2e.Bearer("old-key"))...)
	var j struct {
		Object string `json:"object"`
		Data   []struct {
			Path      string `json:"path"`
			Status    int    `json:"status"`
			UserText  string `json:"user_text"`
			ReplyText string `json:"reply_text"`
		} `json:"data"`
	}
	if err := json.Unmarshal(r.Body, &j); err != nil {
		t.Fatalf("journal: %v; body %s", err, r.Body)
	}
	if j.Object != "list" || len(j.Data) != 1 || j.Data[0].ReplyText != "one" || j.Data[0].UserText != "Hi" || j.Data[0].Status != 200 {
		t.Errorf("journal = %s, want the one chat request", r.Body)
	}
	if strings.Contains(string(r.Body), c.Key) || strings.Contains(string(r.Body), "old-key") {
		t.Errorf("journal leaks a credential: %s", r.Body)
	}

	r = e2e.Call(t, srv.Client(), http.MethodPost, base+"/admin-api/reset", "", e2e.Join(sel, e2e.Bearer("old-key"))...)
	if r.Status != http.StatusNoContent {
		t.Fatalf("reset: %d %s", r.Status, r.Body)
	}
	r = e2e.Call(t, srv.Client(), http.MethodPut, base+"/admin-api/config", `{"api_key":"new-key"}`, e2e.Join(sel, e2e.Bearer("old-key"))...)
	if r.Status != http.StatusNoContent {
		t.Fatalf("configure: %d %s", r.Status, r.Body)
	}
	e2e.Call(t, srv.Client(), http.MethodGet, base+"/admin-api/journal", "", e2e.Join(sel, e2e.Bearer("old-key"))...).WantError(t, http.StatusUnauthorized, "invalid_api_key")
	r = e2e.Call(t, srv.Client(), http.MethodGet, base+"/admin-api/journal", "", e2e.Join(sel, e2e.Bearer("new-key"))...)
	if r.Status != http.StatusOK || !strings.Contains(string(r.Body), `"data":[]`) {
		t.Errorf("journal after reset: %d %s, want an empty list", r.Status, r.Body)
	}
}

// A chosen management key is the one that creates sessions; another is
// refused, and the option refuses an empty key or being given twice.
func TestWithManagementKey(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t, llmtest.WithManagementKey("chosen-management-key"))
	require.Equal(t, "chosen-management-key", srv.ManagementKey())
	c := createOverHTTPWith(t, srv, "chosen-management-key")
	require.NotEmpty(t, c.ID)
	r := e2e.Call(t, srv.Client(), "POST", srv.URL()+"/admin-api/sessions", "{}", e2e.Bearer("another-key")...)
	r.WantError(t, http.StatusUnauthorized, "invalid_api_key")

	_, err := llmtest.New(llmtest.WithManagementKey(""))
	require.Error(t, err)
	_, err = llmtest.New(llmtest.WithManagementKey("a"), llmtest.WithManagementKey("b"))
	require.Error(t, err)
}

// createOverHTTPWith creates a default session with the given management key.
func createOverHTTPWith(t *testing.T, srv *llmtest.Server, key string) e2e.Created {
	t.Helper()
	return e2e.CreateOverHTTPAs(t, srv, key, "{}")
}
