package admin

import (
	"maps"
	"net/http"
	"net/url"
	"slices"
	"time"

	"github.com/llmtestserver/llmtestserver/internal/apierr"
	"github.com/llmtestserver/llmtestserver/internal/runtime"
)

// jobList is the body of GET /admin-api/jobs.
type jobList struct {
	Object string    `json:"object"`
	Data   []jobView `json:"data"`
	// Bytes is the sum of the listed jobs' bytes.
	Bytes int64 `json:"bytes"`
	// Capacity holds the bounds in use and what the listed jobs take of
	// them, by pool, under the configuration's names.
	Capacity jobCapacity `json:"capacity"`
}

// jobView is one job as the admin API shows it: its state in neutral
// words, read off the session's clock when the request came. The codec's
// own record (the job's request, its result) is not shown: the provider's
// routes serve it.
type jobView struct {
	ID string `json:"id"`
	// Kind names the API the job belongs to ("video", "batch", ...).
	Kind string `json:"kind"`
	// State is queued, in_progress, completed, failed, expired or
	// cancelled.
	State    runtime.JobState `json:"state"`
	Progress int              `json:"progress"`
	// CreatedAt and the other times are on the session's clock, in UTC;
	// each time not known yet (or never, as the start of a job cancelled
	// while queued) is null.
	CreatedAt   time.Time   `json:"created_at"`
	StartedAt   *time.Time  `json:"started_at"`
	EndedAt     *time.Time  `json:"ended_at"`
	GoneAt      *time.Time  `json:"gone_at"`
	CancelledAt *time.Time  `json:"cancelled_at"`
	Plan        jobPlanView `json:"plan"`
	// Bytes is what the job weighs against its pool's max_bytes.
	Bytes int64 `json:"bytes"`
}

// jobPlanView is a job's plan with its defaults resolved
// (runtime.JobPlan.Resolved), durations in milliseconds.
type jobPlanView struct {
	QueuedMS  int64            `json:"queued_ms"`
	RunningMS int64            `json:"running_ms"`
	Steps     int              `json:"steps"`
	Ends      runtime.JobState `json:"ends"`
	KeepMS    int64            `json:"keep_ms"`
}

// jobCapacity is the two pools of jobs a session keeps apart: its videos
// (videos.capacity) and every other kind (jobs.capacity, jobs.max_bytes).
type jobCapacity struct {
	Videos jobPool `json:"videos"`
	Jobs   jobPool `json:"jobs"`
}

// jobPool is one pool's bounds, and the count and bytes of its listed
// jobs.
type jobPool struct {
	Capacity int   `json:"capacity"`
	MaxBytes int64 `json:"max_bytes"`
	Count    int   `json:"count"`
	Bytes    int64 `json:"bytes"`
}

// jobs serves GET /admin-api/jobs: the jobs the selected runtime keeps now
// (gone ones left out), oldest first, of every kind or of the one ?kind=
// names, with the bounds they are kept within. Reading them changes
// nothing: a job's state is a function of the clock.
func (h *Handler) jobs(w http.ResponseWriter, r *http.Request, c call) {
	kind, err := parseJobsQuery(r.URL.Query())
	if err != nil {
		writeError(w, err)
		return
	}
	jobs, statuses := c.sel.rt.Jobs(kind)
	st := c.sel.rt.Settings()
	list := jobList{Object: "list", Data: make([]jobView, len(jobs)), Capacity: jobCapacity{
		Videos: jobPool{Capacity: st.VideoCapacity, MaxBytes: st.VideoMaxBytes},
		Jobs:   jobPool{Capacity: st.JobCapacity, MaxBytes: st.JobMaxBytes},
	}}
	for i := range jobs {
		list.Data[i] = viewJob(&jobs[i], statuses[i])
		list.Bytes += jobs[i].Bytes
		pool := &list.Capacity.Jobs
		if jobs[i].Kind == runtime.KindVideo {
			pool = &list.Capacity.Videos
		}
		pool.Count++
		pool.Bytes += jobs[i].Bytes
	}
	writeJSON(w, http.StatusOK, list)
}

// parseJobsQuery reads the one filter of GET /admin-api/jobs, kind, and
// refuses any other parameter, or kind twice or empty, as the journal's
// filters are refused: a misspelt filter never reads as "every job".
func parseJobsQuery(values url.Values) (string, *apierr.Error) {
	for _, name := range slices.Sorted(maps.Keys(values)) { // the same error for the same request
		vs := values[name]
		switch {
		case name != "kind":
			return "", badJournalParam(name, "Unknown query parameter '%s' for GET /admin-api/jobs. The one filter is kind.", name)
		case len(vs) != 1:
			return "", badJournalParam(name, "The query parameter '%s' is given %d times; give it once.", name, len(vs))
		case vs[0] == "":
			return "", badJournalParam(name, "The query parameter '%s' is empty; leave it out to list every job.", name)
		}
	}
	return values.Get("kind"), nil
}

// viewJob shows j with its status s.
func viewJob(j *runtime.Job, s runtime.JobStatus) jobView {
	p := j.Plan.Resolved()
	return jobView{ID: j.ID, Kind: j.Kind, State: s.State, Progress: s.Progress, CreatedAt: j.Created.UTC(),
		StartedAt: knownTime(s.Started), EndedAt: knownTime(s.Ended), GoneAt: knownTime(s.Gone),
		CancelledAt: knownTime(j.Cancelled), Bytes: j.Bytes,
		Plan: jobPlanView{QueuedMS: p.Queued.Milliseconds(), RunningMS: p.Running.Milliseconds(), Steps: p.Steps,
			Ends: p.Ends, KeepMS: p.Keep.Milliseconds()}}
}

// knownTime is t in UTC, or nil for the zero time: a time not known.
func knownTime(t time.Time) *time.Time {
	if t.IsZero() {
		return nil
	}
	t = t.UTC()
	return &t
}
