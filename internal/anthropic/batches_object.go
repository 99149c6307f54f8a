package anthropic

import (
	"net/http"
	"time"

	"github.com/llmtestserver/llmtestserver/internal/provider"
	"github.com/llmtestserver/llmtestserver/internal/runtime"
)

// The processing statuses of a Message Batch (MessageBatchProcessingStatus).
const (
	statusInProgress = "in_progress"
	statusCanceling  = "canceling"
	statusEnded      = "ended"
)

// batchExpiry is how long after its creation a batch expires ("24 hours
// after creation", MessageBatch.ExpiresAt's doc), whatever its plan.
const batchExpiry = 24 * time.Hour

// batchTime is the API's RFC 3339 with microseconds, in UTC
// ("2024-09-24T18:37:24.100435Z").
const batchTime = "2006-01-02T15:04:05.000000Z07:00"

// batchObject is the MessageBatch object.
type batchObject struct {
	ID                string        `json:"id"`
	Type              string        `json:"type"`
	ProcessingStatus  string        `json:"processing_status"`
	RequestCounts     requestCounts `json:"request_counts"`
	EndedAt           *string       `json:"ended_at"`
	CreatedAt         string        `json:"created_at"`
	ExpiresAt         string        `json:"expires_at"`
	ArchivedAt        *string       `json:"archived_at"`
	CancelInitiatedAt *string       `json:"cancel_initiated_at"`
	ResultsURL        *string       `json:"results_url"`
}

// requestCounts is MessageBatchRequestCounts: "Requests start as
// processing and move to one of the other statuses only once processing
// of the entire batch ends."
type requestCounts struct {
	Processing int `json:"processing"`
	Succeeded  int `json:"succeeded"`
	Errored    int `json:"errored"`
	Canceled   int `json:"canceled"`
	Expired    int `json:"expired"`
}

// batchView is a batch as it stands at one time, in the API's words.
type batchView struct {
	// status is its processing_status, state the job's neutral one.
	status string
	state  runtime.JobState
	// ended is when its processing ended, zero while it has not.
	ended time.Time
	// kept is, for a cancelled batch, how many of its first requests keep
	// their answers (see cancelEnd); the others are canceled.
	kept int
}

// viewOf is j as its status s shows it at now. A cancelled job is
// canceling until cancelEnd, then ended; every other state maps to one
// status.
func viewOf(j *runtime.Job, s runtime.JobStatus, now time.Time) batchView {
	v := batchView{state: s.State, status: statusInProgress}
	switch {
	case s.State == runtime.JobCancelled:
		v.ended, v.kept = cancelEnd(j)
		v.status = statusCanceling
		if !now.Before(v.ended) {
			v.status = statusEnded
		}
	case s.State.Ended():
		v.status, v.ended = statusEnded, s.Ended
	}
	return v
}

// cancelEnd is when the cancellation of j ends, and how many of its first
// requests keep their answers. Once cancellation is initiated "the system
// may complete any in-progress, non-interruptible requests before
// finalizing cancellation" (MessageBatchService.Cancel's doc): here the
// step of the plan under way at the cancel completes, so the batch stays
// canceling until the time the run would have reached its next step, and
// the requests of the steps done and of that one (in the order of the
// requests, Steps shares of them) keep their answers. A batch cancelled
// while queued has none under way: it is canceling until the time its run
// would have started, and every request is canceled. The choice gives a
// test both what the doc warns of (canceling for a while, partial
// results) on the session's clock, and a plan to control them with.
func cancelEnd(j *runtime.Job) (time.Time, int) {
	rec, _ := j.Data.(batchRecord)
	n := len(rec.lines)
	p := j.Plan.Resolved()
	start := j.Created.Add(p.Queued)
	if j.Cancelled.Before(start) {
		return start, 0
	}
	step := p.Running / time.Duration(p.Steps)
	if step <= 0 {
		return j.Cancelled, n
	}
	k := int64(j.Cancelled.Sub(start) / step)
	end := start.Add(time.Duration(k+1) * step)
	if runEnd := start.Add(p.Running); end.After(runEnd) {
		end = runEnd
	}
	kept := int(min(int64(n)*(k+1)/int64(p.Steps), int64(n)))
	return end, kept
}

// lineResult is what one request's result is once the batch ended.
type lineResult uint8

// The result types of MessageBatchResultUnion.
const (
	resultSucceeded lineResult = iota
	resultErrored
	resultCanceled
	resultExpired
)

// resultOf is the result of the request i of rec in the ended view v.
func (rec *batchRecord) resultOf(i int, v batchView) lineResult {
	l := &rec.lines[i]
	switch {
	case v.state == runtime.JobExpired:
		return resultExpired
	case v.state == runtime.JobFailed:
		return resultErrored
	case v.state == runtime.JobCancelled && i >= v.kept:
		return resultCanceled
	case l.errored:
		return resultErrored
	}
	return resultSucceeded
}

// counts tallies rec's requests in the view v: all processing until the
// batch ends.
func (rec *batchRecord) counts(v batchView) requestCounts {
	n := len(rec.lines)
	if v.status != statusEnded {
		return requestCounts{Processing: n}
	}
	var c requestCounts
	switch v.state {
	case runtime.JobExpired:
		c.Expired = n
	case runtime.JobFailed:
		c.Errored = n
	case runtime.JobCancelled:
		for i := range v.kept {
			if rec.lines[i].errored {
				c.Errored++
			} else {
				c.Succeeded++
			}
		}
		c.Canceled = n - v.kept
	default:
		c.Succeeded, c.Errored = rec.succeeded, n-rec.succeeded
	}
	return c
}

// objectOf renders the batch j in the view v as its MessageBatch object,
// with its results_url on x's server once it ended.
func objectOf(x *provider.Exchange, j *runtime.Job, v batchView) batchObject {
	rec, _ := j.Data.(batchRecord)
	o := batchObject{ID: j.ID, Type: "message_batch", ProcessingStatus: v.status, RequestCounts: rec.counts(v),
		CreatedAt: stamp(j.Created), ExpiresAt: stamp(j.Created.Add(batchExpiry))}
	if !j.Cancelled.IsZero() {
		t := stamp(j.Cancelled)
		o.CancelInitiatedAt = &t
	}
	if v.status == statusEnded {
		t, u := stamp(v.ended), resultsURL(x.Request, j.ID)
		o.EndedAt, o.ResultsURL = &t, &u
	}
	return o
}

// stamp is t as the API writes its times.
func stamp(t time.Time) string { return t.UTC().Format(batchTime) }

// resultsURL is the absolute URL of the results of batch id on the server
// r reached, as the API gives "https://api.anthropic.com/v1/messages/
// batches/{id}/results": clients fetch it directly. Its scheme is the
// request's (or X-Forwarded-Proto's, behind a proxy that ends TLS), its
// host the request's Host.
func resultsURL(r *http.Request, id string) string {
	scheme := "http"
	if r.TLS != nil {
		scheme = "https"
	}
	if p := r.Header.Get("X-Forwarded-Proto"); p == "https" || p == "http" {
		scheme = p
	}
	return scheme + "://" + r.Host + batchesPath + "/" + id + "/results"
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

// getBatch serves GET /v1/messages/batches/{id}.
func getBatch(x *provider.Exchange, id string) provider.Response {
	j, v, ok := batchAt(x, id)
	if !ok {
		return provider.Response{Err: batchNotFound(id), Job: id}
	}
	return provider.Response{JSON: objectOf(x, &j, v), Job: id, JobState: v.status}
}
