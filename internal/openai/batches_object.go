package openai

import (
	"time"

	"github.com/llmtestserver/llmtestserver/internal/provider"
	"github.com/llmtestserver/llmtestserver/internal/runtime"
)

// The statuses of a batch (BatchStatus).
const (
	statusValidating = "validating"
	statusFailed     = "failed"
	statusInProgress = "in_progress"
	statusFinalizing = "finalizing"
	statusCompleted  = "completed"
	statusExpired    = "expired"
	statusCancelling = "cancelling"
	statusCancelled  = "cancelled"
)

// batchWindow is the completion window, the one BatchNewParams allows: a
// batch expires 24 hours after its creation (expires_at), whatever its
// plan.
const batchWindow = 24 * time.Hour

// batchBaseBytes is what a batch's job is charged beyond its tallies,
// custom_ids, errors and metadata: the job, its record, its settings.
const batchBaseBytes = 1 << 10

// batchRecord is the Data of a batch's job, never changed once stored (a
// fork shares it; a cancel stores a new one).
type batchRecord struct {
	req   batchRequest
	model string
	// total is the count of the input's lines; ran says they were
	// answered (a plan that completes), so that they count as done as the
	// plan goes.
	total int
	ran   bool
	// tally holds total+1 tallies (see lineTally), ids the custom_ids of
	// the lines one after another.
	tally []lineTally
	ids   string
	// errors are those of a failed batch: its input's, or its plan's.
	errors []batchError
	// outputFileID and errorFileID name its files, "" for none.
	outputFileID, errorFileID string
}

// weight is what rec is charged.
func (rec *batchRecord) weight() int64 {
	n := int64(batchBaseBytes + len(rec.ids) + len(rec.model) + len(rec.req.inputFileID))
	n += int64(cap(rec.tally)) * lineTallyBytes
	for _, e := range rec.errors {
		n += int64(96 + len(e.Message) + len(e.Code))
	}
	for k, v := range rec.req.metadata {
		n += int64(len(k) + len(v) + metadataOverhead)
	}
	return n + n/8
}

// customID is the custom_id of line i.
func (rec *batchRecord) customID(i int) string {
	return rec.ids[rec.tally[i].idEnd:rec.tally[i+1].idEnd]
}

// doneAfter is how many lines of rec are done once k of its plan's steps
// have: the lines are answered over the steps before the last, which is
// finalizing (a plan of one step does all of them in it). Lines of a batch
// that did not run are never done.
func (rec *batchRecord) doneAfter(k, steps int) int {
	switch {
	case !rec.ran || k <= 0:
		return 0
	case k >= max(steps-1, 1):
		return rec.total
	}
	return rec.total * k / (steps - 1)
}

// batchView is a batch as it stands at one time, in the API's words.
type batchView struct {
	status string
	// done is how many lines are done (from the first), shown in the
	// request counts and usage.
	done int
	// The times of the transitions it went through, zero for the others.
	inProgress, finalizing, completed, failed, expired, cancelling, cancelled time.Time
}

// stepsOf is the plan p's steps and their length.
func stepsOf(p runtime.JobPlan) (int, time.Duration) {
	return p.Steps, p.Running / time.Duration(p.Steps)
}

// viewOf is the batch j as its status s shows it at now.
func viewOf(j *runtime.Job, s runtime.JobStatus, now time.Time) batchView {
	rec, _ := j.Data.(batchRecord)
	p := j.Plan.Resolved()
	steps, step := stepsOf(p)
	start := j.Created.Add(p.Queued)
	finalizing := start.Add(step * time.Duration(steps-1))
	if steps == 1 {
		finalizing = start.Add(p.Running) // no step of its own: an instant
	}
	var v batchView
	switch s.State {
	case runtime.JobQueued:
		v.status = statusValidating
	case runtime.JobInProgress:
		k := steps - 1
		if step > 0 {
			k = min(int(now.Sub(start)/step), steps-1)
		}
		v.status, v.inProgress, v.done = statusInProgress, start, rec.doneAfter(k, steps)
		if steps > 1 && k == steps-1 {
			v.status, v.finalizing = statusFinalizing, finalizing
		}
	case runtime.JobCompleted:
		v.status, v.done = statusCompleted, rec.total
		v.inProgress, v.finalizing, v.completed = start, finalizing, s.Ended
	case runtime.JobFailed:
		v.status, v.failed = statusFailed, s.Ended
	case runtime.JobExpired:
		v.status, v.inProgress, v.expired = statusExpired, start, s.Ended
	case runtime.JobCancelled:
		end, kept, k := cancelEnd(j)
		v.status, v.cancelling = statusCancelling, j.Cancelled
		v.done = rec.doneAfter(k, steps)
		if !j.Cancelled.Before(start) {
			v.inProgress = start
		}
		if steps > 1 && !j.Cancelled.Before(finalizing) {
			v.finalizing = finalizing
		}
		if !now.Before(end) {
			v.status, v.cancelled, v.done = statusCancelled, end, kept
		}
	}
	return v
}

// cancelEnd is when the cancellation of j ends, how many of its first
// lines are done by then, and how many steps were done at the cancel.
// Once cancelled, a batch is cancelling "for up to 10 minutes" before it
// is cancelled (the batch guide); here the step of the plan under way at
// the cancel completes, so the batch stays cancelling until the time its
// run would have reached its next step, and the lines of the steps done
// and of that one keep their answers. A batch cancelled while validating
// has no step under way: it is cancelling until its run would have
// started, and no line is done. The choice gives a test cancelling for a
// while and partial answers on the session's clock, with a plan to
// control them.
func cancelEnd(j *runtime.Job) (time.Time, int, int) {
	rec, _ := j.Data.(batchRecord)
	p := j.Plan.Resolved()
	steps, step := stepsOf(p)
	start := j.Created.Add(p.Queued)
	if j.Cancelled.Before(start) {
		return start, 0, 0
	}
	if step <= 0 {
		return j.Cancelled, rec.total, steps
	}
	k := int(j.Cancelled.Sub(start) / step)
	end := start.Add(time.Duration(k+1) * step)
	if runEnd := start.Add(p.Running); end.After(runEnd) {
		end = runEnd
	}
	return end, rec.doneAfter(k+1, steps), k
}

// batchObject is the Batch object.
type batchObject struct {
	ID               string            `json:"id"`
	Object           string            `json:"object"`
	Endpoint         string            `json:"endpoint"`
	Model            *string           `json:"model,omitempty"`
	Errors           *batchErrors      `json:"errors"`
	InputFileID      string            `json:"input_file_id"`
	CompletionWindow string            `json:"completion_window"`
	Status           string            `json:"status"`
	OutputFileID     *string           `json:"output_file_id"`
	ErrorFileID      *string           `json:"error_file_id"`
	CreatedAt        int64             `json:"created_at"`
	InProgressAt     *int64            `json:"in_progress_at"`
	ExpiresAt        *int64            `json:"expires_at"`
	FinalizingAt     *int64            `json:"finalizing_at"`
	CompletedAt      *int64            `json:"completed_at"`
	FailedAt         *int64            `json:"failed_at"`
	ExpiredAt        *int64            `json:"expired_at"`
	CancellingAt     *int64            `json:"cancelling_at"`
	CancelledAt      *int64            `json:"cancelled_at"`
	RequestCounts    requestCounts     `json:"request_counts"`
	Usage            batchUsage        `json:"usage"`
	Metadata         map[string]string `json:"metadata"`
}

// batchErrors is BatchErrors.
type batchErrors struct {
	Object string       `json:"object"`
	Data   []batchError `json:"data"`
}

// requestCounts is BatchRequestCounts: the lines of the input once
// validated, those answered with a 200, and those that ran and erred.
// Lines that never ran (expired, cancelled) are neither (inferred).
type requestCounts struct {
	Total     int `json:"total"`
	Completed int `json:"completed"`
	Failed    int `json:"failed"`
}

// objectOf renders the batch j in the view v as its Batch object.
func objectOf(j *runtime.Job, v batchView) batchObject {
	rec, _ := j.Data.(batchRecord)
	expires := j.Created.Add(batchWindow).Unix()
	o := batchObject{ID: j.ID, Object: "batch", Endpoint: rec.req.endpoint, InputFileID: rec.req.inputFileID,
		CompletionWindow: rec.req.completionWindow, Status: v.status, CreatedAt: j.Created.Unix(), ExpiresAt: &expires,
		InProgressAt: unix(v.inProgress), FinalizingAt: unix(v.finalizing), CompletedAt: unix(v.completed),
		FailedAt: unix(v.failed), ExpiredAt: unix(v.expired), CancellingAt: unix(v.cancelling),
		CancelledAt: unix(v.cancelled), Metadata: rec.req.metadata}
	if rec.model != "" {
		o.Model = &rec.model
	}
	switch v.status {
	case statusFailed:
		o.Errors = &batchErrors{Object: "list", Data: rec.errors}
	case statusValidating:
	default:
		t := rec.tally[v.done]
		o.RequestCounts = requestCounts{Total: rec.total, Completed: int(t.completed), Failed: int(t.failed)}
		o.Usage = t.usage
	}
	// The files are written once the batch has ended.
	switch v.status {
	case statusCompleted, statusCancelled, statusExpired:
		o.OutputFileID, o.ErrorFileID = nullable(rec.outputFileID), nullable(rec.errorFileID)
	}
	return o
}

// unix is t in Unix seconds, nil for the zero time.
func unix(t time.Time) *int64 {
	if t.IsZero() {
		return nil
	}
	u := t.Unix()
	return &u
}

// batchAt returns the batch id of x's session and its view now, false
// when the session keeps no such batch.
func batchAt(x *provider.Exchange, id string) (runtime.Job, batchView, bool) {
	j, s, ok := x.Runtime.Job(batchKind, id)
	if !ok {
		return runtime.Job{}, batchView{}, false
	}
	return j, viewOf(&j, s, x.Runtime.Now()), true
}

// getBatch serves GET /v1/batches/{id}.
func getBatch(x *provider.Exchange, id string) provider.Response {
	j, v, ok := batchAt(x, id)
	if !ok {
		return provider.Response{Err: batchNotFound(id), Job: id}
	}
	rec, _ := j.Data.(batchRecord)
	return provider.Response{JSON: objectOf(&j, v), Job: id, JobState: v.status, Model: rec.model}
}
