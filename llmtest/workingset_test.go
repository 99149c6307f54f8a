package llmtest_test

import (
	"encoding/json"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/llmtestserver/llmtestserver/clock"
	"github.com/llmtestserver/llmtestserver/internal/e2e"
	"github.com/llmtestserver/llmtestserver/llmtest"
	"github.com/llmtestserver/llmtestserver/session"
)

func infoIDs(infos []session.Info) []string {
	ids := make([]string, len(infos))
	for i, s := range infos {
		ids[i] = s.ID
	}
	return ids
}

// The working set lists the live sessions, the most recently used first:
// by the manager's clock, and among uses at one instant by their order.
func TestWorkingSetOrderedByLastAccess(t *testing.T) {
	t.Parallel()
	start := time.Date(2026, 5, 20, 1, 0, 0, 0, time.UTC)
	clk := clock.NewFake(start)
	srv := llmtest.NewServer(t, llmtest.WithClock(clk))
	a, b, c := srv.NewSession(t), srv.NewSession(t), srv.NewSession(t)
	for _, s := range []*session.Session{a, b, c} {
		s.Chat("any").Responds("ok").Repeat()
	}
	hello := func(s *session.Session) {
		t.Helper()
		require.Equal(t, "ok", chatAnswer(t.Context(), e2e.ClientFor(s, "k"), "hello"))
	}
	clk.Advance(time.Minute)
	hello(b)
	clk.Advance(time.Minute)
	hello(a)
	clk.Advance(time.Minute)
	hello(c)

	infos := srv.Manager().Sessions()
	require.Equal(t, []string{c.ID(), a.ID(), b.ID()}, infoIDs(infos))
	for i, want := range []time.Duration{3 * time.Minute, 2 * time.Minute, time.Minute} {
		assert.True(t, infos[i].LastAccess.Equal(start.Add(want)), "session %d last access %v, want %v", i, infos[i].LastAccess, start.Add(want))
		assert.True(t, infos[i].Created.Equal(start), "session %d created %v, want %v", i, infos[i].Created, start)
		assert.Equal(t, 1, infos[i].Requests)
		assert.Equal(t, 1, infos[i].PendingReplies, "a repeating reply stays pending")
	}
	assert.Equal(t, a.Reservation(), infos[1].ReservationBytes)

	// Uses at one instant come in the order they were made.
	hello(b)
	hello(a)
	require.Equal(t, []string{a.ID(), b.ID(), c.ID()}, infoIDs(srv.Manager().Sessions()))

	// An admin call on a session uses it too; a Go call on its handle does
	// not.
	e2e.Call(t, srv.Client(), http.MethodGet, srv.URL()+"/admin-api/journal", "", e2e.SelectorOf(c)...)
	c.Journal().Len()
	b.Chat("more").Responds("more")
	b.Pending()
	require.Equal(t, []string{c.ID(), a.ID(), b.ID()}, infoIDs(srv.Manager().Sessions()))

	// A new session and a fork are used when they are made; a closed one
	// leaves the set.
	clk.Advance(time.Minute)
	d := srv.NewSession(t)
	fork := srv.Fork(t, a)
	b.Close()
	infos = srv.Manager().Sessions()
	require.Equal(t, []string{fork.ID(), d.ID(), c.ID(), a.ID()}, infoIDs(infos))
	assert.True(t, infos[0].Created.Equal(start.Add(4*time.Minute)))
	assert.Zero(t, infos[0].Requests, "a fork has served no request yet")
}

// GET /admin-api/sessions lists the working set as JSON, never with a key,
// and refuses what POST /admin-api/sessions refuses, in the same words.
func TestAdminSessionsListing(t *testing.T) {
	t.Parallel()
	start := time.Date(2026, 5, 20, 1, 0, 0, 0, time.UTC)
	clk := clock.NewFake(start)
	srv := llmtest.NewServer(t, llmtest.WithClock(clk))
	overHTTP := e2e.CreateOverHTTP(t, srv, "{}")
	clk.Advance(time.Second)
	sess := srv.NewSession(t)
	sess.Chat("any").Responds("ok").Then("more")
	require.Equal(t, "ok", chatAnswer(t.Context(), e2e.ClientFor(sess, "k"), "hello"))

	r := e2e.Call(t, srv.Client(), http.MethodGet, srv.URL()+"/admin-api/sessions", "", e2e.Bearer(srv.ManagementKey())...)
	require.Equal(t, http.StatusOK, r.Status, "body %s", r.Body)
	require.Equal(t, "application/json", r.Header.Get("Content-Type"))
	for _, key := range []string{sess.Key(), overHTTP.Key, srv.ManagementKey()} {
		require.NotContains(t, string(r.Body), key, "the listing shows a key")
	}
	var list struct {
		Object string           `json:"object"`
		Data   []map[string]any `json:"data"`
	}
	require.NoError(t, json.Unmarshal(r.Body, &list))
	require.Equal(t, "list", list.Object)
	require.Len(t, list.Data, 2)
	for _, row := range list.Data {
		fields := make([]string, 0, len(row))
		for k := range row {
			fields = append(fields, k)
		}
		slices.Sort(fields)
		require.Equal(t, []string{"created_at", "id", "last_accessed_at", "pending_replies", "requests", "reservation_bytes"}, fields)
	}
	first, second := list.Data[0], list.Data[1]
	assert.Equal(t, sess.ID(), first["id"])
	assert.Equal(t, "2026-05-20T01:00:01Z", first["created_at"])
	assert.Equal(t, "2026-05-20T01:00:01Z", first["last_accessed_at"])
	assert.EqualValues(t, 1, first["requests"])
	assert.EqualValues(t, 1, first["pending_replies"])
	assert.EqualValues(t, sess.Reservation(), first["reservation_bytes"])
	assert.Equal(t, overHTTP.ID, second["id"])
	assert.Equal(t, "2026-05-20T01:00:00Z", second["created_at"])
	assert.EqualValues(t, overHTTP.ReservationBytes, second["reservation_bytes"])

	// Refused as creation is: no key, a wrong key, session headers.
	for name, headers := range map[string][]string{
		"no key":          nil,
		"wrong key":       e2e.Bearer("llmtest-not-the-management-key"),
		"session headers": e2e.Join(e2e.Bearer(srv.ManagementKey()), e2e.SelectorOf(sess)),
	} {
		get := e2e.Call(t, srv.Client(), http.MethodGet, srv.URL()+"/admin-api/sessions", "", headers...)
		post := e2e.Call(t, srv.Client(), http.MethodPost, srv.URL()+"/admin-api/sessions", "{}", headers...)
		assert.NotEqual(t, http.StatusOK, get.Status, name)
		assert.Equal(t, post.Status, get.Status, name)
		assert.JSONEq(t, string(post.Body), string(get.Body), name)
		assert.False(t, strings.Contains(string(get.Body), sess.ID()), "%s: the refusal lists sessions", name)
	}
	require.Equal(t, 2, srv.Manager().Len(), "the refused creations admitted nothing")

	// Other methods are refused with the ones the path serves.
	r = e2e.Call(t, srv.Client(), http.MethodPut, srv.URL()+"/admin-api/sessions", "{}", e2e.Bearer(srv.ManagementKey())...)
	r.WantError(t, http.StatusMethodNotAllowed, "method_not_allowed")
	assert.Equal(t, "GET, POST", r.Header.Get("Allow"))
}
