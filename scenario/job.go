package scenario

import (
	"errors"
	"fmt"
	"time"

	plainjson "encoding/json"
)

// JobPlan is how a job that a request starts goes on the session's clock:
// a video, a batch, a background response. A reply carries it (Reply.Job)
// and the job runs it: it queues for Queued, then runs for Running in
// Steps steps of progress, then ends as Ends says, and is kept for Keep
// once ended. Zero fields take their defaults (a second queued, four
// seconds running in four steps, completed, kept a day); a negative
// duration means none, so Queued and Running both -1 end the job as soon
// as it is made.
type JobPlan struct {
	Queued, Running time.Duration
	Steps           int
	// Ends is how the job ends on its own: JobCompleted (the default),
	// JobFailed (with the reply's Error, when it has one) or JobExpired.
	Ends JobEnd
	Keep time.Duration
}

// JobEnd is how a job ends on its own.
type JobEnd string

// The ends a JobPlan can script. A job is cancelled only by its API's
// cancel call.
const (
	JobCompleted JobEnd = "completed"
	JobFailed    JobEnd = "failed"
	JobExpired   JobEnd = "expired"
)

// MaxJobSteps bounds JobPlan.Steps.
const MaxJobSteps = 100

// MaxJobTime bounds each duration of a JobPlan: a week, past a batch's
// completion window.
const MaxJobTime = 7 * 24 * time.Hour

// Job is a reply that only times the job its request starts, such as a
// video: sess.Videos("slow").Reply(scenario.Job(scenario.JobPlan{Running: time.Minute})).
func Job(plan JobPlan) Reply { return Reply{Job: &plan} }

// FailJob is a reply that fails the job its request starts with err once
// the job has run, as a video fails on moderation.
func FailJob(err Error) Reply { return Reply{Job: &JobPlan{Ends: JobFailed}, Error: &err} }

func (p *JobPlan) validate() error {
	for name, d := range map[string]time.Duration{"queued_ms": p.Queued, "running_ms": p.Running, "keep_ms": p.Keep} {
		if d > MaxJobTime {
			return fmt.Errorf("job.%s: must be at most %d (%v), or negative for none", name, MaxJobTime.Milliseconds(), MaxJobTime)
		}
	}
	if p.Steps > MaxJobSteps {
		return fmt.Errorf("job.steps: must be at most %d", MaxJobSteps)
	}
	switch p.Ends {
	case "", JobCompleted, JobFailed, JobExpired:
	default:
		return fmt.Errorf("job.ends: %q is not one of completed, failed, expired", p.Ends)
	}
	return nil
}

// jobPlanJSON is the wire form of JobPlan: durations travel as
// milliseconds.
type jobPlanJSON struct {
	QueuedMS  int64  `json:"queued_ms,omitempty"`
	RunningMS int64  `json:"running_ms,omitempty"`
	Steps     int    `json:"steps,omitempty"`
	Ends      JobEnd `json:"ends,omitempty"`
	KeepMS    int64  `json:"keep_ms,omitempty"`
}

// MarshalJSON encodes the durations in milliseconds.
func (p JobPlan) MarshalJSON() ([]byte, error) {
	return plainjson.Marshal(jobPlanJSON{QueuedMS: p.Queued.Milliseconds(), RunningMS: p.Running.Milliseconds(),
		Steps: p.Steps, Ends: p.Ends, KeepMS: p.Keep.Milliseconds()})
}

// UnmarshalJSON decodes the milliseconds and refuses unknown fields.
func (p *JobPlan) UnmarshalJSON(data []byte) error {
	var w jobPlanJSON
	if err := decodeStrict(data, &w); err != nil {
		return err
	}
	ms := func(v int64) time.Duration {
		if v > MaxJobTime.Milliseconds() {
			return MaxJobTime + time.Millisecond // refused by validate, not wrapped
		}
		return time.Duration(v) * time.Millisecond
	}
	*p = JobPlan{Queued: ms(w.QueuedMS), Running: ms(w.RunningMS), Steps: w.Steps, Ends: w.Ends, Keep: ms(w.KeepMS)}
	return nil
}

var errJobAlone = errors.New("job: a job's reply is its plan, with an error for a failed job, a text or tool calls for a background response; not a Go function, vectors or a fault")

// validateJob checks the job of r, if any, against the rest of r.
func (r *Reply) validateJob() error {
	if r.Job == nil {
		return nil
	}
	if r.Func != nil || r.Vectors != nil || r.Fault != nil {
		return errJobAlone
	}
	if r.Error != nil && r.Job.Ends != JobFailed {
		return errors.New("job.ends: a job's reply with an error fails it: set ends to failed")
	}
	return r.Job.validate()
}
