package llmtest_test

import (
	"encoding/base64"
	"encoding/json"
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/llmtestserver/llmtestserver/clock"
	"github.com/llmtestserver/llmtestserver/internal/e2e"
	"github.com/llmtestserver/llmtestserver/llmtest"
	"github.com/llmtestserver/llmtestserver/session"
)

// basic returns the header pair of HTTP Basic auth with user and password.
func basic(user, password string) []string {
	return []string{"Authorization", "Basic " + base64.StdEncoding.EncodeToString([]byte(user+":"+password))}
}

// The admin API takes its token as the password of HTTP Basic auth too,
// under any user name, so that a browser can log in with the management
// key; a wrong one is refused as a wrong bearer token is, and the API's
// 401s never ask a browser to prompt.
func TestAdminAcceptsTheTokenAsBasicPassword(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t)
	url := srv.URL() + "/admin-api/sessions"
	for _, user := range []string{"", "admin", "someone@example.com"} {
		r := e2e.Call(t, srv.Client(), http.MethodGet, url, "", basic(user, srv.ManagementKey())...)
		require.Equal(t, http.StatusOK, r.Status, "user %q: %s", user, r.Body)
	}
	r := e2e.Call(t, srv.Client(), http.MethodPost, url, "{}", basic("ci", srv.ManagementKey())...)
	require.Equal(t, http.StatusCreated, r.Status, "%s", r.Body)
	var c e2e.Created
	require.NoError(t, json.Unmarshal(r.Body, &c))
	t.Cleanup(func() {
		e2e.Call(t, srv.Client(), http.MethodDelete, url+"/"+c.ID, "", session.HeaderSession, c.ID, session.HeaderSessionKey, c.Key)
	})

	// A session's control routes take its own bearer token the same way.
	sess := srv.NewSession(t, session.RequireAPIKey("provider-key"))
	r = e2e.Call(t, srv.Client(), http.MethodGet, srv.URL()+"/admin-api/journal", "", e2e.Join(e2e.SelectorOf(sess), basic("x", "provider-key"))...)
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)

	wrongKey := "llmtest-not-the-management-key-at-all"
	wrongBasic := e2e.Call(t, srv.Client(), http.MethodGet, url, "", basic("admin", wrongKey)...)
	wrongBearer := e2e.Call(t, srv.Client(), http.MethodGet, url, "", e2e.Bearer(wrongKey)...)
	wrongBasic.WantError(t, http.StatusUnauthorized, "invalid_api_key")
	assert.JSONEq(t, string(wrongBearer.Body), string(wrongBasic.Body))
	assert.NotContains(t, string(wrongBasic.Body), wrongKey, "the refusal shows the key")
	emptyBasic := e2e.Call(t, srv.Client(), http.MethodGet, url, "", basic("admin", "")...)
	none := e2e.Call(t, srv.Client(), http.MethodGet, url, "")
	assert.Equal(t, http.StatusUnauthorized, emptyBasic.Status)
	assert.JSONEq(t, string(none.Body), string(emptyBasic.Body))
	for _, r := range []e2e.Reply{wrongBasic, wrongBearer, emptyBasic, none} {
		assert.Empty(t, r.Header.Get("WWW-Authenticate"), "the admin API asks a browser to prompt")
	}
	// The key as a Basic user name, or a malformed Basic header, is no key.
	asUser := e2e.Call(t, srv.Client(), http.MethodGet, url, "", basic(srv.ManagementKey(), "")...)
	assert.Equal(t, http.StatusUnauthorized, asUser.Status)
	garbled := e2e.Call(t, srv.Client(), http.MethodGet, url, "", "Authorization", "Basic !!!"+srv.ManagementKey())
	assert.Equal(t, http.StatusUnauthorized, garbled.Status)
}

// inspected reads one inspection route with the management key.
func inspected(t *testing.T, srv *llmtest.Server, path string) e2e.Reply {
	t.Helper()
	return e2e.Call(t, srv.Client(), http.MethodGet, srv.URL()+"/admin-api/sessions/"+path, "", e2e.Bearer(srv.ManagementKey())...)
}

// The inspection routes show the holder of the management key a session
// by its ID alone: its working-set row, and the same journal (with the
// same filters), scenarios and assertions its own control routes answer.
func TestInspectionRoutesShowASessionByID(t *testing.T) {
	t.Parallel()
	start := time.Date(2026, 5, 20, 1, 0, 0, 0, time.UTC)
	clk := clock.NewFake(start)
	srv := llmtest.NewServer(t, llmtest.WithClock(clk))
	sess := srv.NewSession(t)
	other := srv.NewSession(t)
	sess.Chat("greet").Responds("hello back").Then("unused")
	client := e2e.ClientFor(sess, "k")
	require.Equal(t, "hello back", chatAnswer(t.Context(), client, "hello"))
	sess.Chat("greet") // the builder only: no request
	other.Chat("any").Responds("ok")
	require.Equal(t, "ok", chatAnswer(t.Context(), e2e.ClientFor(other, "k"), "hi"))
	require.Equal(t, "400 llm_test_server_no_scenario", chatAnswer(t.Context(), e2e.ClientFor(other, "k"), "again"))
	clk.Advance(time.Minute)
	require.Equal(t, "unused", chatAnswer(t.Context(), client, "hello"))
	require.Equal(t, "400 llm_test_server_no_scenario", chatAnswer(t.Context(), client, "and now?"))

	// The session: its row of the listing.
	r := inspected(t, srv, sess.ID())
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	assert.Equal(t, "no-store", r.Header.Get("Cache-Control"))
	listing := e2e.Call(t, srv.Client(), http.MethodGet, srv.URL()+"/admin-api/sessions", "", e2e.Bearer(srv.ManagementKey())...)
	var list struct {
		Data []json.RawMessage `json:"data"`
	}
	require.NoError(t, json.Unmarshal(listing.Body, &list))
	require.Len(t, list.Data, 2)
	assert.JSONEq(t, string(list.Data[0]), string(r.Body), "the listing's first row is the session used last")
	assert.NotContains(t, string(r.Body), sess.Key())

	// Its journal, scenarios and assertions, as its own routes answer them.
	for _, route := range []string{"journal", "journal?status=4xx", "journal?status=200&model=" + e2e.ResponsesModel, "scenarios", "assertions"} {
		own := e2e.Call(t, srv.Client(), http.MethodGet, srv.URL()+"/admin-api/"+route, "", e2e.SelectorOf(sess)...)
		require.Equal(t, http.StatusOK, own.Status, "%s: %s", route, own.Body)
		got := inspected(t, srv, sess.ID()+"/"+route)
		require.Equal(t, http.StatusOK, got.Status, "%s: %s", route, got.Body)
		assert.JSONEq(t, string(own.Body), string(got.Body), route)
		assert.NotContains(t, string(got.Body), sess.Key(), route)
	}
	var journal struct {
		Data []struct {
			UserText string `json:"user_text"`
		} `json:"data"`
	}
	require.NoError(t, json.Unmarshal(inspected(t, srv, sess.ID()+"/journal?status=4xx").Body, &journal))
	require.Len(t, journal.Data, 1)
	assert.Equal(t, "and now?", journal.Data[0].UserText)
	var assertions struct {
		UnmatchedTotal int `json:"unmatched_total"`
	}
	require.NoError(t, json.Unmarshal(inspected(t, srv, other.ID()+"/assertions").Body, &assertions))
	assert.Equal(t, 1, assertions.UnmatchedTotal, "the other session's assertions")

	// The filters are checked as GET /admin-api/journal checks them.
	for _, query := range []string{"?status=abc", "?nope=1", "?model=", "?generation=0"} {
		own := e2e.Call(t, srv.Client(), http.MethodGet, srv.URL()+"/admin-api/journal"+query, "", e2e.SelectorOf(sess)...)
		got := inspected(t, srv, sess.ID()+"/journal"+query)
		got.WantError(t, http.StatusBadRequest, "invalid_query_parameter")
		assert.JSONEq(t, string(own.Body), string(got.Body), query)
	}
}

// Reading a session through the inspection routes changes nothing of it:
// not its last access (the working set keeps its order), not its journal
// or request count, not its replies.
func TestInspectionIsNoUseOfTheSession(t *testing.T) {
	t.Parallel()
	start := time.Date(2026, 5, 20, 1, 0, 0, 0, time.UTC)
	clk := clock.NewFake(start)
	srv := llmtest.NewServer(t, llmtest.WithClock(clk))
	old, recent := srv.NewSession(t), srv.NewSession(t)
	old.Chat("any").Responds("ok").Then("later")
	require.Equal(t, "ok", chatAnswer(t.Context(), e2e.ClientFor(old, "k"), "hello"))
	clk.Advance(time.Minute)
	recent.Chat("any").Responds("ok")
	require.Equal(t, "ok", chatAnswer(t.Context(), e2e.ClientFor(recent, "k"), "hello"))
	before := srv.Manager().Sessions()
	require.Equal(t, []string{recent.ID(), old.ID()}, infoIDs(before))

	clk.Advance(time.Minute)
	for range 3 {
		for _, path := range []string{"", "/journal", "/scenarios", "/assertions"} {
			r := inspected(t, srv, old.ID()+path)
			require.Equal(t, http.StatusOK, r.Status, "%s: %s", path, r.Body)
		}
	}
	after := srv.Manager().Sessions()
	assert.Equal(t, before, after, "inspection changed the working set")
	assert.Equal(t, 1, old.Journal().Len(), "inspection was journaled")
	assert.Equal(t, 1, old.Pending())
	var row struct {
		LastAccessedAt time.Time `json:"last_accessed_at"`
		Requests       int       `json:"requests"`
	}
	require.NoError(t, json.Unmarshal(inspected(t, srv, old.ID()).Body, &row))
	assert.True(t, row.LastAccessedAt.Equal(start), "last access %v, want %v", row.LastAccessedAt, start)
	assert.Equal(t, 1, row.Requests)
}

// The inspection routes are the server's, guarded as the listing is: the
// management key, no session headers; an unknown or deleted session is
// 404 session_not_found, and other methods are refused.
func TestInspectionRoutesRefusals(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t)
	sess := srv.NewSession(t)
	gone, err := srv.OpenSession()
	require.NoError(t, err)
	goneID := gone.ID()
	gone.Close()
	listing := srv.URL() + "/admin-api/sessions"
	for _, path := range []string{"", "/journal", "/scenarios", "/assertions"} {
		url := listing + "/" + sess.ID() + path
		for name, headers := range map[string][]string{
			"no key":          nil,
			"wrong key":       e2e.Bearer("llmtest-not-the-management-key"),
			"wrong basic":     basic("admin", "llmtest-not-the-management-key"),
			"session headers": e2e.Join(e2e.Bearer(srv.ManagementKey()), e2e.SelectorOf(sess)),
			"session alone":   e2e.SelectorOf(sess),
		} {
			got := e2e.Call(t, srv.Client(), http.MethodGet, url, "", headers...)
			want := e2e.Call(t, srv.Client(), http.MethodGet, listing, "", headers...)
			assert.NotEqual(t, http.StatusOK, got.Status, "%s %s", path, name)
			assert.Equal(t, want.Status, got.Status, "%s %s: %s", path, name, got.Body)
			assert.JSONEq(t, string(want.Body), string(got.Body), "%s %s", path, name)
		}
		r := e2e.Call(t, srv.Client(), http.MethodGet, url, "", basic("browser", srv.ManagementKey())...)
		assert.Equal(t, http.StatusOK, r.Status, "%s with Basic auth: %s", path, r.Body)

		for _, id := range []string{goneID, "sess_unknown"} {
			r := e2e.Call(t, srv.Client(), http.MethodGet, listing+"/"+id+path, "", e2e.Bearer(srv.ManagementKey())...)
			r.WantError(t, http.StatusNotFound, "session_not_found")
		}
		// No ID at all is no route of the admin API.
		r = e2e.Call(t, srv.Client(), http.MethodGet, listing+"/"+path, "", e2e.Bearer(srv.ManagementKey())...)
		assert.Equal(t, http.StatusNotFound, r.Status, "%s without an ID: %s", path, r.Body)
	}
	for _, view := range []string{"journal", "scenarios", "assertions"} {
		r := e2e.Call(t, srv.Client(), http.MethodPost, listing+"/"+sess.ID()+"/"+view, "{}", e2e.Bearer(srv.ManagementKey())...)
		r.WantError(t, http.StatusMethodNotAllowed, "method_not_allowed")
		assert.Equal(t, "GET", r.Header.Get("Allow"))
	}
	r := e2e.Call(t, srv.Client(), http.MethodPut, listing+"/"+sess.ID(), "{}", e2e.Bearer(srv.ManagementKey())...)
	r.WantError(t, http.StatusMethodNotAllowed, "method_not_allowed")
	assert.Equal(t, "DELETE, GET", r.Header.Get("Allow"))

	// Deletion is untouched: only the session's own headers.
	r = e2e.Call(t, srv.Client(), http.MethodDelete, listing+"/"+sess.ID(), "", e2e.Bearer(srv.ManagementKey())...)
	r.WantError(t, http.StatusNotFound, "session_not_found")
	r = e2e.Call(t, srv.Client(), http.MethodDelete, listing+"/"+sess.ID(), "", e2e.SelectorOf(sess)...)
	require.Equal(t, http.StatusNoContent, r.Status, "%s", r.Body)
	inspected(t, srv, sess.ID()).WantError(t, http.StatusNotFound, "session_not_found")
}

// A browser that logged in to the dashboard sends its Basic credentials
// with requests other sites' pages make too: those that change something
// are refused, whether the browser says where they come from
// (Sec-Fetch-Site) or only their Origin, so that no page elsewhere can
// drive the server with them. The dashboard's own requests, reads from a
// link elsewhere, and programs are not affected.
func TestBasicCredentialsFromAnotherSiteAreRefused(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t)
	auth := basic("browser", srv.ManagementKey())
	for _, from := range [][]string{
		{"Sec-Fetch-Site", "cross-site"},
		{"Sec-Fetch-Site", "same-site"},
		{"Origin", "http://elsewhere.example"}, // a plain-http host: no Sec-Fetch-Site
	} {
		r := e2e.Call(t, srv.Client(), http.MethodPost, srv.URL()+"/admin-api/reset", "", e2e.Join(auth, from)...)
		r.WantError(t, http.StatusForbidden, "cross_site_request")
		r = e2e.Call(t, srv.Client(), http.MethodPost, srv.URL()+"/admin-api/sessions", "{}", e2e.Join(auth, from)...)
		r.WantError(t, http.StatusForbidden, "cross_site_request")
		r = e2e.Call(t, srv.Client(), http.MethodGet, srv.URL()+"/admin-api/journal", "", e2e.Join(auth, from)...)
		assert.Equal(t, http.StatusOK, r.Status, "a read from %v: %s", from, r.Body)
	}
	require.Zero(t, srv.Manager().Len(), "a cross-site request created a session")
	for _, site := range []string{"same-origin", "none", ""} {
		headers := auth
		if site != "" {
			headers = e2e.Join(auth, []string{"Sec-Fetch-Site", site})
		}
		r := e2e.Call(t, srv.Client(), http.MethodGet, srv.URL()+"/admin-api/journal", "", headers...)
		assert.Equal(t, http.StatusOK, r.Status, "%q: %s", site, r.Body)
	}
	// A bearer token is never sent by a browser on its own.
	r := e2e.Call(t, srv.Client(), http.MethodPost, srv.URL()+"/admin-api/reset", "", e2e.Join(e2e.Bearer(srv.ManagementKey()), []string{"Sec-Fetch-Site", "cross-site"})...)
	assert.Equal(t, http.StatusNoContent, r.Status, "%s", r.Body)
}
