package openai

import (
	"time"

	"github.com/llmtestserver/llmtestserver/internal/apierr"
	"github.com/llmtestserver/llmtestserver/internal/provider"
	"github.com/llmtestserver/llmtestserver/internal/runtime"
	"github.com/llmtestserver/llmtestserver/scenario"
)

// A background response (background: true) is a job of the session. Its
// answer is rendered and stored when it is created, as any stored
// response's is, and its job reveals it on the session's clock: the
// create answers it queued, a GET polls it queued, then in_progress, then
// as the reply's plan ends it (completed with the reply, failed with the
// reply's error, or expired), and a cancel before then leaves it
// cancelled and gives its reply back to its queue. Nothing runs in the
// background: the state is read off the clock (see runtime.Job).
//
// A streamed background response is delivered as it is generated, as a
// stream always is, with response.queued before response.in_progress; a
// stream cut or dropped by a scripted fault leaves the response stuck
// where the stream broke off (queued, or in_progress after a few events)
// for a day and then failed, the way a real background stream aborted at
// its first event stayed queued (wire.md Part 4 §4.1).

// responseJobKind is the job kind of background responses.
const responseJobKind = "response"

// responseJobBytes is what a background response's job is charged beyond
// the stored response, which the history bounds: the job, its plan and
// the reservation it may give back (a copy of the reply), about 620 bytes
// as TestBackgroundResponseJobsRetainWhatTheyAreCharged measures it.
const responseJobBytes = 1 << 10

// stuckFor is how long a background response whose stream broke off
// stays where it stopped before it fails.
const stuckFor = runtime.DefaultJobKeep

// backgroundJob is the Data of a background response's job.
type backgroundJob struct {
	// reservation is the reply the response took, given back to its queue
	// if the response is cancelled before it has run; nil for none.
	reservation *runtime.Reservation
}

// background reports whether the answer is a background response's.
func (a *ResponseAnswer) background() bool {
	if a.Request != nil {
		return a.Request.Background
	}
	return a.echo != nil && a.echo.Background
}

// pending is the response object while it has not ended, or once it was
// cancelled: its settings with status, no output and no usage.
func (a *ResponseAnswer) pending(status string) *ResponseObject {
	o := a.snapshot()
	o.Status = status
	return o
}

// inBackground reports whether the turn's answer is a background job's
// rather than the request's: background and not streamed.
func (t *responsesTurn) inBackground() bool { return t.req.Background && !t.req.Stream }

// jobFailure is the failure a background response's plan ends it with:
// the reply's error (scenario.FailJob), a plain server error for a plan
// that fails without one, and for one that expires an error saying so
// (the real API's words for either are not documented; inferred).
func jobFailure(reply *scenario.Reply) *ResponseError {
	if reply.Job == nil {
		return nil
	}
	switch reply.Job.Ends {
	case scenario.JobFailed:
		if e := reply.Error; e != nil {
			resolved := Resolve(apierr.Scripted(e))
			return &ResponseError{Code: resolved.JournalCode(), Message: resolved.Message}
		}
		return &ResponseError{Code: "server_error", Message: "The response failed to complete."}
	case scenario.JobExpired:
		return &ResponseError{Code: "server_error", Message: "The background response expired before it completed."}
	}
	return nil
}

// startJob keeps the job of a background response, once its answer is
// delivered: the plan its reply scripts, or for a stream broken off by a
// fault, stuck where it broke off.
func (t *responsesTurn) startJob(plan runtime.JobPlan) {
	data := backgroundJob{reservation: t.held}
	// The room was checked before the reply was taken (Rules); a job
	// refused now, by a race for the last room, leaves the response
	// completed at once, as a response that is not in the background.
	_, _, _ = t.x.Runtime.AddJob(runtime.Job{ID: t.answer.ID, Kind: responseJobKind, Plan: plan, Data: data, Bytes: responseJobBytes})
}

// stuckPlan is the plan of a background stream that broke off after
// events events: queued if it broke off within the events that announce
// the response queued, in_progress after.
func stuckPlan(events int) runtime.JobPlan {
	if events <= 2 {
		return runtime.JobPlan{Queued: stuckFor, Running: -1, Ends: runtime.JobFailed}
	}
	return runtime.JobPlan{Queued: -1, Running: stuckFor, Steps: 1, Ends: runtime.JobFailed}
}

// backgroundObject is the stored response id as its job shows it now,
// and false when it is no background job (a response of the foreground,
// or one whose job is gone: the stored response then stands for itself).
func backgroundObject(x *provider.Exchange, stored *StoredResponse) (*ResponseObject, bool) {
	_, s, ok := x.Runtime.Job(responseJobKind, stored.ID)
	if !ok {
		return nil, false
	}
	return objectAt(stored.Answer, s), true
}

// objectAt renders a as its job's status s shows it.
func objectAt(a *ResponseAnswer, s runtime.JobStatus) *ResponseObject {
	switch s.State {
	case runtime.JobQueued, runtime.JobInProgress, runtime.JobCancelled:
		return a.pending(string(s.State))
	case runtime.JobFailed, runtime.JobExpired:
		if a.Failure == nil {
			// A stream that broke off and stayed stuck (see stuckPlan).
			failed := *a
			failed.Failure = &ResponseError{Code: "server_error", Message: "The response stopped before it completed."}
			a = &failed
		}
	}
	o := a.Object()
	if !s.Ended.IsZero() && o.CompletedAt != nil {
		done := s.Ended.Unix()
		o.CompletedAt = &done
	}
	return o
}

// untilEnded is how long from now the job of a background response runs
// before it ends on its own, 0 if it has ended or is no job.
func untilEnded(x *provider.Exchange, id string) time.Duration {
	j, s, ok := x.Runtime.Job(responseJobKind, id)
	if !ok || s.State.Ended() {
		return 0
	}
	return j.EndsAt().Sub(x.Runtime.Now())
}
