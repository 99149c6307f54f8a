package runtime

import (
	"errors"
	"slices"
	"time"

	"github.com/llmtestserver/llmtestserver/scenario"
)

// A job is long work a request hands to the provider (a video, a batch, a
// background response), kept per runtime. Its state is a function of the
// runtime's clock and its plan: nothing runs in the background, so a job
// costs no goroutine, moves on as the clock does (instantly inside a
// testing/synctest bubble or under a fake clock), and nothing changes it
// after its runtime is retired.

// JobState is where a job stands.
type JobState string

// The states of a job. A job is queued, then in progress, then ends in one
// of the last four.
const (
	JobQueued     JobState = "queued"
	JobInProgress JobState = "in_progress"
	JobCompleted  JobState = "completed"
	JobFailed     JobState = "failed"
	JobExpired    JobState = "expired"
	JobCancelled  JobState = "cancelled"
)

// Ended reports whether s is a final state.
func (s JobState) Ended() bool { return s != JobQueued && s != JobInProgress }

// Defaults of a JobPlan's zero fields: a few seconds of the runtime's
// clock, and a day before an ended job is gone.
const (
	DefaultJobQueued  = time.Second
	DefaultJobRunning = 4 * time.Second
	DefaultJobSteps   = 4
	DefaultJobKeep    = 24 * time.Hour
)

// JobPlan is how a job goes: how long it queues and runs, how many steps
// its progress takes while it runs, how it ends, and how long it is kept
// once ended. A zero duration or count takes its default; a negative one
// means none (a job with Queued and Running both negative ends as soon as
// it is made).
type JobPlan struct {
	Queued, Running time.Duration
	Steps           int
	// Ends is the final state the job reaches on its own: JobCompleted
	// (the default), JobFailed or JobExpired.
	Ends JobState
	Keep time.Duration
}

// PlanOf is the plan a reply scripts for its job; nil gives the
// defaults.
func PlanOf(p *scenario.JobPlan) JobPlan {
	if p == nil {
		return JobPlan{}
	}
	plan := JobPlan{Queued: p.Queued, Running: p.Running, Steps: p.Steps, Keep: p.Keep}
	switch p.Ends {
	case scenario.JobFailed:
		plan.Ends = JobFailed
	case scenario.JobExpired:
		plan.Ends = JobExpired
	}
	return plan
}

// Resolved returns p as its job runs it: its defaults filled in, its
// negative durations made zero, its steps at least one, and its end one
// of the three a job reaches on its own. The admin API shows a job's plan
// so.
func (p JobPlan) Resolved() JobPlan { return p.resolved() }

// resolved returns p with its defaults filled in and its negative values
// made zero.
func (p JobPlan) resolved() JobPlan {
	def := func(d, dflt time.Duration) time.Duration {
		switch {
		case d == 0:
			return dflt
		case d < 0:
			return 0
		}
		return d
	}
	p.Queued = def(p.Queued, DefaultJobQueued)
	p.Running = def(p.Running, DefaultJobRunning)
	p.Keep = def(p.Keep, DefaultJobKeep)
	switch {
	case p.Steps == 0:
		p.Steps = DefaultJobSteps
	case p.Steps < 0:
		p.Steps = 1
	}
	if p.Ends != JobFailed && p.Ends != JobExpired {
		p.Ends = JobCompleted
	}
	return p
}

// Job is one job as kept: a value no one changes once stored (UpdateJob
// stores a new one), so that readers and clones share it.
type Job struct {
	ID string
	// Kind names the API the job belongs to ("video", "batch",
	// "response"), so that one API never sees another's jobs.
	Kind    string
	Created time.Time
	Plan    JobPlan
	// Cancelled is when the job was cancelled; zero while it was not.
	Cancelled time.Time
	// Data is the codec's own record of the job (its request, its
	// result); Bytes is what it weighs against the runtime's bounds.
	Data  any
	Bytes int64
}

// JobStatus is a job's state at one time.
type JobStatus struct {
	State JobState
	// Progress is the percentage done: 0 while queued, in Steps steps
	// while in progress, 100 once completed.
	Progress int
	// Started and Ended are when it began to run and when it ended; Gone
	// is when it is no longer kept. Each is zero until known.
	Started, Ended, Gone time.Time
}

// At is j's status at now.
func (j *Job) At(now time.Time) JobStatus {
	p := j.Plan.resolved()
	start := j.Created.Add(p.Queued)
	end := start.Add(p.Running)
	if !j.Cancelled.IsZero() && j.Cancelled.Before(end) {
		s := JobStatus{State: JobCancelled, Ended: j.Cancelled, Gone: j.Cancelled.Add(p.Keep)}
		if !j.Cancelled.Before(start) {
			s.Started = start
		}
		return s
	}
	switch {
	case now.Before(start):
		return JobStatus{State: JobQueued}
	case now.Before(end):
		step := int(int64(p.Steps) * int64(now.Sub(start)) / int64(p.Running))
		return JobStatus{State: JobInProgress, Started: start, Progress: step * 100 / p.Steps}
	}
	s := JobStatus{State: p.Ends, Started: start, Ended: end, Gone: end.Add(p.Keep)}
	if p.Ends == JobCompleted {
		s.Progress = 100
	}
	return s
}

// gone reports whether j is no longer kept at now.
func (j *Job) gone(now time.Time) bool {
	s := j.At(now)
	return s.State.Ended() && !now.Before(s.Gone)
}

// Errors of AddJob.
var (
	// ErrJobsFull refuses a job past the runtime's count or bytes of jobs.
	ErrJobsFull = errors.New("runtime: the session's jobs are at their bound")
	// ErrRetired refuses a change to a retired runtime.
	ErrRetired = errors.New("runtime: the session was deleted")
)

// KindVideo is the kind of the video jobs, which have bounds of their
// own (Settings.VideoCapacity, VideoMaxBytes).
const KindVideo = "video"

// jobs holds a runtime's jobs in the order they were made, with the bytes
// of its videos and of its other jobs.
type jobs struct {
	list                   []*Job
	videoBytes, otherBytes int64
}

// clone copies the list; the jobs themselves are shared, as no one
// changes one once stored.
func (js jobs) clone() jobs {
	c := js
	c.list = slices.Clone(js.list)
	return c
}

// weigh adds n bytes to the pool of kind.
func (js *jobs) weigh(kind string, n int64) {
	if kind == KindVideo {
		js.videoBytes += n
	} else {
		js.otherBytes += n
	}
}

// usage is the count and bytes of the jobs in the pool of kind.
func (js *jobs) usage(kind string) (count int, bytes int64) {
	for _, j := range js.list {
		if (j.Kind == KindVideo) == (kind == KindVideo) {
			count++
		}
	}
	if kind == KindVideo {
		return count, js.videoBytes
	}
	return count, js.otherBytes
}

// bounds are the count and bytes s allows the pool of kind.
func bounds(s *Settings, kind string) (int, int64) {
	if kind == KindVideo {
		return s.VideoCapacity, s.VideoMaxBytes
	}
	return s.JobCapacity, s.JobMaxBytes
}

// purge drops the jobs gone at now.
func (js *jobs) purge(now time.Time) {
	js.list = slices.DeleteFunc(js.list, func(j *Job) bool {
		if j.gone(now) {
			js.weigh(j.Kind, -j.Bytes)
			return true
		}
		return false
	})
}

func (js *jobs) index(kind, id string) int {
	return slices.IndexFunc(js.list, func(j *Job) bool { return j.ID == id && j.Kind == kind })
}

// AddJob keeps j, made now (its Created set to the runtime's clock), and
// returns it with its status. It refuses a job past the bounds of the
// settings with ErrJobsFull (VideoCapacity and VideoMaxBytes for the
// videos, JobCapacity and JobMaxBytes for every other kind, the jobs gone
// first dropped), and any job once the runtime is retired with ErrRetired.
func (rt *Runtime) AddJob(j Job) (Job, JobStatus, error) {
	rt.mu.Lock()
	defer rt.mu.Unlock()
	if rt.retired {
		return Job{}, JobStatus{}, ErrRetired
	}
	now := rt.clock.Now()
	rt.jobs.purge(now)
	maxCount, maxBytes := bounds(&rt.settings, j.Kind)
	if count, bytes := rt.jobs.usage(j.Kind); count >= maxCount || bytes+j.Bytes > maxBytes {
		return Job{}, JobStatus{}, ErrJobsFull
	}
	j.Created = now
	rt.jobs.list = append(rt.jobs.list, &j)
	rt.jobs.weigh(j.Kind, j.Bytes)
	return j, j.At(now), nil
}

// Job returns the job of that kind and ID, and its status now, unless it
// is gone.
func (rt *Runtime) Job(kind, id string) (Job, JobStatus, bool) {
	rt.mu.Lock()
	defer rt.mu.Unlock()
	now := rt.clock.Now()
	i := rt.jobs.index(kind, id)
	if i < 0 || rt.jobs.list[i].gone(now) {
		return Job{}, JobStatus{}, false
	}
	j := rt.jobs.list[i]
	return *j, j.At(now), true
}

// Jobs returns the jobs of kind kept now (every kind for ""), oldest
// first, with their statuses.
func (rt *Runtime) Jobs(kind string) ([]Job, []JobStatus) {
	rt.mu.Lock()
	defer rt.mu.Unlock()
	now := rt.clock.Now()
	var out []Job
	var statuses []JobStatus
	for _, j := range rt.jobs.list {
		if (kind == "" || j.Kind == kind) && !j.gone(now) {
			out = append(out, *j)
			statuses = append(statuses, j.At(now))
		}
	}
	return out, statuses
}

// CancelJob cancels the job of that kind and ID if it has not ended, and
// returns it as it now stands; found is false when there is no such job
// (or it is gone, or the runtime retired). cancelled is false for a job
// that had already ended, which stays as it was.
func (rt *Runtime) CancelJob(kind, id string) (j Job, s JobStatus, found, cancelled bool) {
	rt.mu.Lock()
	defer rt.mu.Unlock()
	now := rt.clock.Now()
	i := rt.jobs.index(kind, id)
	if rt.retired || i < 0 || rt.jobs.list[i].gone(now) {
		return Job{}, JobStatus{}, false, false
	}
	old := rt.jobs.list[i]
	if old.At(now).State.Ended() {
		return *old, old.At(now), true, false
	}
	c := *old
	c.Cancelled = now
	rt.jobs.list[i] = &c
	return c, c.At(now), true, true
}

// UpdateJob replaces the job of that kind and ID by what update returns
// from it (its ID, kind and creation kept), within the byte bound, and
// returns the new one; false when there is no such job, the runtime is
// retired, or the new one would pass the bound.
func (rt *Runtime) UpdateJob(kind, id string, update func(Job) Job) (Job, bool) {
	rt.mu.Lock()
	defer rt.mu.Unlock()
	now := rt.clock.Now()
	i := rt.jobs.index(kind, id)
	if rt.retired || i < 0 || rt.jobs.list[i].gone(now) {
		return Job{}, false
	}
	old := rt.jobs.list[i]
	n := update(*old)
	n.ID, n.Kind, n.Created = old.ID, old.Kind, old.Created
	_, maxBytes := bounds(&rt.settings, old.Kind)
	if _, bytes := rt.jobs.usage(old.Kind); bytes-old.Bytes+n.Bytes > maxBytes {
		return Job{}, false
	}
	rt.jobs.weigh(old.Kind, n.Bytes-old.Bytes)
	rt.jobs.list[i] = &n
	return n, true
}

// DeleteJob forgets the job of that kind and ID, and reports whether
// there was one.
func (rt *Runtime) DeleteJob(kind, id string) bool {
	rt.mu.Lock()
	defer rt.mu.Unlock()
	i := rt.jobs.index(kind, id)
	if rt.retired || i < 0 {
		return false
	}
	rt.jobs.weigh(kind, -rt.jobs.list[i].Bytes)
	rt.jobs.list = slices.Delete(rt.jobs.list, i, i+1)
	return true
}

// HasJobRoom reports whether a job of kind weighing bytes would be kept
// now, so that a request can be refused before it takes a reply for a job
// that AddJob would then refuse.
func (rt *Runtime) HasJobRoom(kind string, bytes int64) bool {
	rt.mu.Lock()
	defer rt.mu.Unlock()
	if rt.retired {
		return false
	}
	rt.jobs.purge(rt.clock.Now())
	maxCount, maxBytes := bounds(&rt.settings, kind)
	count, used := rt.jobs.usage(kind)
	return count < maxCount && used+bytes <= maxBytes
}

// EndsAt is when j ends on its own, unless it is cancelled first.
func (j *Job) EndsAt() time.Time {
	p := j.Plan.resolved()
	return j.Created.Add(p.Queued + p.Running)
}
