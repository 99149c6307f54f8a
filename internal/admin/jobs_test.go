package admin_test

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/llmtestserver/llmtestserver/clock"
	"github.com/llmtestserver/llmtestserver/internal/admin"
	"github.com/llmtestserver/llmtestserver/internal/runtime"
)

// jobRuntimes is the part of admin.Sessions the jobs routes reach (the
// session headers' Lookup, the default runtime, Inspect by ID), over
// runtimes the test makes itself, so that it adds jobs with AddJob
// whichever job APIs the providers serve. The embedded Sessions is nil:
// a route reaching any other method panics, failing the test.
type jobRuntimes struct {
	admin.Sessions
	def  *runtime.Runtime
	byID map[string]*runtime.Runtime
}

func (s *jobRuntimes) Default() *runtime.Runtime { return s.def }

// Lookup selects session id with the key "key-" + id.
func (s *jobRuntimes) Lookup(id, key string) (*runtime.Runtime, bool) {
	rt, ok := s.byID[id]
	return rt, ok && key == "key-"+id
}

func (s *jobRuntimes) Inspect(id string) (*runtime.Runtime, admin.SessionInfo, bool) {
	rt, ok := s.byID[id]
	return rt, admin.SessionInfo{ID: id}, ok
}

// jobsServer serves the admin API over a default runtime (the management
// key mk) and the sessions ids (provider key "pk-" + id), all on clk.
func jobsServer(t *testing.T, clk clock.Clock, ids ...string) (*server, *jobRuntimes) {
	t.Helper()
	settings := func(key string) runtime.Settings {
		return runtime.Settings{APIKey: key, Clock: clk, JournalCapacity: 10, JournalMaxBytes: 1 << 20,
			VideoCapacity: 4, VideoMaxBytes: 4 * 128 << 10, JobCapacity: 8, JobMaxBytes: 1 << 20}
	}
	s := &jobRuntimes{def: runtime.New(settings(mk)), byID: map[string]*runtime.Runtime{}}
	for _, id := range ids {
		s.byID[id] = runtime.New(settings("pk-" + id))
	}
	ts := httptest.NewServer(admin.New(s, 1<<20, 1<<20))
	tr := &http.Transport{}
	t.Cleanup(func() {
		ts.Close()
		tr.CloseIdleConnections()
	})
	return &server{url: ts.URL, tr: tr}, s
}

// addJob keeps j on rt, failing the test if it cannot.
func addJob(t *testing.T, rt *runtime.Runtime, j runtime.Job) {
	t.Helper()
	_, _, err := rt.AddJob(j)
	require.NoError(t, err)
}

// jobIDs decodes a 200 of the jobs routes into its jobs' IDs.
func jobIDs(t *testing.T, a answer) []string {
	t.Helper()
	require.Equal(t, http.StatusOK, a.status, "%s", a.body)
	var list struct{ Data []struct{ ID string } }
	require.NoError(t, json.Unmarshal(a.body, &list))
	ids := []string{}
	for _, j := range list.Data {
		ids = append(ids, j.ID)
	}
	return ids
}

// GET /admin-api/jobs lists the selected session's jobs, oldest first,
// each with its state, progress and times read off the session's clock
// and its plan with the defaults resolved, and the bounds of both pools
// with what the jobs take of them; jobs gone are left out. The view by ID
// answers the same; another session's jobs, and the default runtime's,
// are never shown. Every answer is one the description documents.
func TestJobsListTheSelectedSessionsJobs(t *testing.T) {
	began := time.Now()
	s := loadSpec(t)
	x := &exercise{t: t}
	t0 := time.Date(2030, 1, 2, 3, 4, 5, 0, time.UTC)
	clk := clock.NewFake(t0)
	srv, rts := jobsServer(t, clk, "sess_a", "sess_b")
	a, b := rts.byID["sess_a"], rts.byID["sess_b"]
	own := append(headersOf("sess_a", "key-sess_a"), bearer("pk-sess_a")...)

	addJob(t, a, runtime.Job{ID: "video_1", Kind: runtime.KindVideo, Bytes: 1000})
	clk.Advance(500 * time.Millisecond)
	addJob(t, a, runtime.Job{ID: "batch_1", Kind: "batch", Bytes: 2000,
		Plan: runtime.JobPlan{Queued: -1, Running: 10 * time.Second, Steps: 5, Keep: time.Minute}})
	addJob(t, a, runtime.Job{ID: "batch_2", Kind: "batch"})
	_, _, found, cancelled := a.CancelJob("batch", "batch_2")
	require.True(t, found && cancelled)
	// Ends as soon as it is made, failed, and is gone a second later.
	addJob(t, a, runtime.Job{ID: "resp_1", Kind: "response",
		Plan: runtime.JobPlan{Queued: -1, Running: -1, Ends: runtime.JobFailed, Keep: time.Second}})
	addJob(t, b, runtime.Job{ID: "video_b", Kind: runtime.KindVideo})
	addJob(t, rts.def, runtime.Job{ID: "batch_default", Kind: "batch"})

	jobs := route(http.MethodGet, "/admin-api/jobs")
	early := x.call(srv, jobs, req{headers: own})
	assert.Equal(t, []string{"video_1", "batch_1", "batch_2", "resp_1"}, jobIDs(t, early))
	assert.Contains(t, string(early.body), `"id":"resp_1","kind":"response","state":"failed","progress":0`)

	clk.Advance(3 * time.Second) // t0 + 3.5 s
	list := x.call(srv, jobs, req{headers: own})
	require.Equal(t, http.StatusOK, list.status, "%s", list.body)
	assert.JSONEq(t, `{"object":"list","data":[
		{"id":"video_1","kind":"video","state":"in_progress","progress":50,
		 "created_at":"2030-01-02T03:04:05Z","started_at":"2030-01-02T03:04:06Z","ended_at":null,"gone_at":null,"cancelled_at":null,
		 "plan":{"queued_ms":1000,"running_ms":4000,"steps":4,"ends":"completed","keep_ms":86400000},"bytes":1000},
		{"id":"batch_1","kind":"batch","state":"in_progress","progress":20,
		 "created_at":"2030-01-02T03:04:05.5Z","started_at":"2030-01-02T03:04:05.5Z","ended_at":null,"gone_at":null,"cancelled_at":null,
		 "plan":{"queued_ms":0,"running_ms":10000,"steps":5,"ends":"completed","keep_ms":60000},"bytes":2000},
		{"id":"batch_2","kind":"batch","state":"cancelled","progress":0,
		 "created_at":"2030-01-02T03:04:05.5Z","started_at":null,"ended_at":"2030-01-02T03:04:05.5Z","gone_at":"2030-01-03T03:04:05.5Z",
		 "cancelled_at":"2030-01-02T03:04:05.5Z",
		 "plan":{"queued_ms":1000,"running_ms":4000,"steps":4,"ends":"completed","keep_ms":86400000},"bytes":0}],
		"bytes":3000,
		"capacity":{"videos":{"capacity":4,"max_bytes":524288,"count":1,"bytes":1000},
		            "jobs":{"capacity":8,"max_bytes":1048576,"count":2,"bytes":2000}}}`, string(list.body))

	// The management key's view by ID is the same body; nothing of
	// another session or of the default runtime is in either.
	byID := route(http.MethodGet, "/admin-api/sessions/{id}/jobs")
	inspected := x.call(srv, byID, req{id: "sess_a", headers: bearer(mk)})
	require.Equal(t, http.StatusOK, inspected.status, "%s", inspected.body)
	assert.JSONEq(t, string(list.body), string(inspected.body))
	assert.Equal(t, []string{"video_b"}, jobIDs(t, x.call(srv, byID, req{id: "sess_b", headers: bearer(mk)})))
	assert.Equal(t, []string{"video_b"}, jobIDs(t, x.call(srv, jobs, req{headers: append(headersOf("sess_b", "key-sess_b"), bearer("pk-sess_b")...)})))
	assert.Equal(t, []string{"batch_default"}, jobIDs(t, x.call(srv, jobs, req{headers: bearer(mk)})))

	// One kind, or a kind no job has.
	assert.Equal(t, []string{"batch_1", "batch_2"}, jobIDs(t, x.call(srv, jobs, req{headers: own, query: "kind=batch"})))
	assert.Equal(t, []string{"video_1"}, jobIDs(t, x.call(srv, byID, req{id: "sess_a", headers: bearer(mk), query: "kind=video"})))
	assert.Equal(t, []string{}, jobIDs(t, x.call(srv, jobs, req{headers: own, query: "kind=gemini_batch"})))

	// Refusals: a filter misspelt, empty or twice; a session the headers
	// or the path do not select; another session's key; no key.
	for _, q := range []string{"kinds=batch", "kind=", "kind=batch&kind=video", "state=queued"} {
		a := x.call(srv, jobs, req{headers: own, query: q})
		assert.Equal(t, http.StatusBadRequest, a.status, "%s: %s", q, a.body)
		assert.Contains(t, string(a.body), `"code":"invalid_query_parameter"`, q)
	}
	assert.Equal(t, http.StatusNotFound, x.call(srv, jobs, req{headers: headersOf("sess_a", "key-sess_b")}).status)
	assert.Equal(t, http.StatusNotFound, x.call(srv, byID, req{id: "sess_gone", headers: bearer(mk)}).status)
	assert.Equal(t, http.StatusUnauthorized, x.call(srv, jobs, req{headers: append(headersOf("sess_a", "key-sess_a"), bearer("pk-sess_b")...)}).status)
	assert.Equal(t, http.StatusUnauthorized, x.call(srv, byID, req{id: "sess_a"}).status)
	assert.Equal(t, http.StatusBadRequest, x.call(srv, byID, req{id: "sess_a", headers: append(own, bearer(mk)...)}).status)

	// Once every job ended and its keep passed, none is listed, and the
	// list is empty, not null.
	clk.Advance(25 * time.Hour)
	gone := x.call(srv, jobs, req{headers: own})
	assert.Contains(t, string(gone.body), `"data":[]`)
	assert.Contains(t, string(gone.body), `"bytes":0`)
	t.Logf("%s of the session's clock in %s", clk.Now().Sub(t0), time.Since(began).Round(time.Millisecond))

	for _, a := range x.answers {
		for _, p := range s.problems(a.route, a.status, a.contentType, a.body) {
			t.Errorf("%s %s answered %d: %s\n\tbody: %.300s", a.route.Method, a.route.Path, a.status, p, a.body)
		}
	}
}

// A job's view follows its plan to its end: completed at 100, or failed
// or expired at the progress it had, each with when it started, ended and
// is gone; a job whose queue and run are both none ends as it is made.
func TestJobsShowEachEnd(t *testing.T) {
	s := loadSpec(t)
	x := &exercise{t: t}
	t0 := time.Date(2030, 1, 2, 3, 4, 5, 0, time.UTC)
	clk := clock.NewFake(t0)
	srv, rts := jobsServer(t, clk, "sess_a")
	a := rts.byID["sess_a"]
	plan := runtime.JobPlan{Queued: 2 * time.Second, Running: 2 * time.Second, Steps: 2, Keep: time.Hour}
	for _, j := range []struct {
		id   string
		ends runtime.JobState
	}{{"done", runtime.JobCompleted}, {"broke", runtime.JobFailed}, {"late", runtime.JobExpired}} {
		p := plan
		p.Ends = j.ends
		addJob(t, a, runtime.Job{ID: j.id, Kind: "batch", Plan: p})
	}
	addJob(t, a, runtime.Job{ID: "instant", Kind: "file", Plan: runtime.JobPlan{Queued: -1, Running: -1, Steps: -1}})
	clk.Advance(5 * time.Second)

	type view struct {
		ID, State string
		Progress  int
		StartedAt *time.Time `json:"started_at"`
		EndedAt   *time.Time `json:"ended_at"`
		GoneAt    *time.Time `json:"gone_at"`
		Plan      struct {
			Steps int
			Ends  string
		}
	}
	ans := x.call(srv, route(http.MethodGet, "/admin-api/jobs"), req{headers: append(headersOf("sess_a", "key-sess_a"), bearer("pk-sess_a")...)})
	require.Equal(t, http.StatusOK, ans.status, "%s", ans.body)
	var list struct{ Data []view }
	require.NoError(t, json.Unmarshal(ans.body, &list))
	require.Len(t, list.Data, 4)
	at := func(d time.Duration) *time.Time { t := t0.Add(d); return &t }
	for i, want := range []view{
		{ID: "done", State: "completed", Progress: 100},
		{ID: "broke", State: "failed"},
		{ID: "late", State: "expired"},
	} {
		got := list.Data[i]
		assert.Equal(t, want.ID, got.ID)
		assert.Equal(t, want.State, got.State, got.ID)
		assert.Equal(t, want.State, got.Plan.Ends, got.ID)
		assert.Equal(t, want.Progress, got.Progress, got.ID)
		assert.Equal(t, at(2*time.Second), got.StartedAt, got.ID)
		assert.Equal(t, at(4*time.Second), got.EndedAt, got.ID)
		assert.Equal(t, at(time.Hour+4*time.Second), got.GoneAt, got.ID)
	}
	instant := list.Data[3]
	assert.Equal(t, "completed", instant.State)
	assert.Equal(t, 100, instant.Progress)
	assert.Equal(t, 1, instant.Plan.Steps, "no steps resolve to one")
	assert.Equal(t, at(0), instant.StartedAt)
	assert.Equal(t, at(0), instant.EndedAt)

	for _, a := range x.answers {
		for _, p := range s.problems(a.route, a.status, a.contentType, a.body) {
			t.Errorf("%s %s answered %d: %s\n\tbody: %.300s", a.route.Method, a.route.Path, a.status, p, a.body)
		}
	}
}
