package gemini

import (
	"encoding/json"
	"net/http"
	"slices"
	"strconv"
	"time"

	"github.com/llmtestserver/llmtestserver/internal/apierr"
	"github.com/llmtestserver/llmtestserver/internal/provider"
	"github.com/llmtestserver/llmtestserver/internal/runtime"
)

// batchStates are the wire's BatchState of each neutral job state; genai
// converts them to JOB_STATE_* (tJobState).
var batchStates = map[runtime.JobState]string{
	runtime.JobQueued:     "BATCH_STATE_PENDING",
	runtime.JobInProgress: "BATCH_STATE_RUNNING",
	runtime.JobCompleted:  "BATCH_STATE_SUCCEEDED",
	runtime.JobFailed:     "BATCH_STATE_FAILED",
	runtime.JobCancelled:  "BATCH_STATE_CANCELLED",
	runtime.JobExpired:    "BATCH_STATE_EXPIRED",
}

// operation is the google.longrunning.Operation the API answers for a
// batch, with the GenerateContentBatch as its metadata.
type operation struct {
	Name     string          `json:"name"`
	Metadata batchMetadata   `json:"metadata"`
	Done     bool            `json:"done,omitempty"`
	Error    json.RawMessage `json:"error,omitempty"`
}

// batchMetadata is GenerateContentBatch.
type batchMetadata struct {
	Type        string       `json:"@type"`
	Name        string       `json:"name"`
	Model       string       `json:"model"`
	DisplayName string       `json:"displayName,omitempty"`
	State       string       `json:"state"`
	CreateTime  string       `json:"createTime"`
	UpdateTime  string       `json:"updateTime"`
	EndTime     string       `json:"endTime,omitempty"`
	BatchStats  batchStats   `json:"batchStats"`
	Output      *batchOutput `json:"output,omitempty"`
}

// batchStats is GenerateContentBatch.BatchStats; int64 fields are strings
// in proto3 JSON.
type batchStats struct {
	RequestCount           string `json:"requestCount"`
	SuccessfulRequestCount string `json:"successfulRequestCount,omitempty"`
	FailedRequestCount     string `json:"failedRequestCount,omitempty"`
	PendingRequestCount    string `json:"pendingRequestCount,omitempty"`
}

// batchOutput is GenerateContentBatchOutput with inlined responses.
type batchOutput struct {
	InlinedResponses struct {
		InlinedResponses []inlinedResponse `json:"inlinedResponses"`
	} `json:"inlinedResponses"`
}

// inlinedResponse is one request's answer: its response or its error.
type inlinedResponse struct {
	Response json.RawMessage `json:"response,omitempty"`
	Error    json.RawMessage `json:"error,omitempty"`
	Metadata json.RawMessage `json:"metadata,omitempty"`
}

// stampOf is t as the API writes a Timestamp.
func stampOf(t time.Time) string { return t.UTC().Format(time.RFC3339Nano) }

// operationOf renders the batch j in status s. Its responses show once it
// succeeded; a cancelled, expired or failed batch has none (inferred:
// the docs name the output of a succeeded batch only).
func operationOf(j *runtime.Job, s runtime.JobStatus) operation {
	rec, _ := j.Data.(batchRecord)
	name := "batches/" + j.ID
	n := len(rec.lines)
	m := batchMetadata{Type: "type.googleapis.com/google.ai.generativelanguage.v1beta.GenerateContentBatch",
		Name: name, Model: rec.model, DisplayName: rec.displayName, State: batchStates[s.State],
		CreateTime: stampOf(j.Created), UpdateTime: stampOf(j.Created),
		BatchStats: batchStats{RequestCount: strconv.Itoa(n)}}
	if !s.Started.IsZero() {
		m.UpdateTime = stampOf(s.Started)
	}
	op := operation{Name: name}
	if s.State.Ended() {
		op.Done = true
		m.EndTime, m.UpdateTime = stampOf(s.Ended), stampOf(s.Ended)
	}
	switch s.State {
	case runtime.JobCompleted:
		m.BatchStats.SuccessfulRequestCount = strconv.Itoa(rec.succeeded)
		m.BatchStats.FailedRequestCount = strconv.Itoa(n - rec.succeeded)
		out := &batchOutput{}
		out.InlinedResponses.InlinedResponses = make([]inlinedResponse, n)
		for i, l := range rec.lines {
			r := inlinedResponse{Metadata: l.metadata}
			if l.errored {
				r.Error = l.body
			} else {
				r.Response = l.body
			}
			out.InlinedResponses.InlinedResponses[i] = r
		}
		m.Output = out
	case runtime.JobFailed:
		m.BatchStats.FailedRequestCount = strconv.Itoa(n)
		op.Error = rec.failure
	case runtime.JobQueued, runtime.JobInProgress:
		m.BatchStats.PendingRequestCount = strconv.Itoa(n)
	}
	op.Metadata = m
	return op
}

// serveBatches serves /{version}/batches (GET: the list) and
// /{version}/batches/{id} (GET, DELETE) and …/{id}:cancel (POST).
func serveBatches(x *provider.Exchange, t target) provider.Response {
	m := x.Request.Method
	allow := func(want string) *apierr.Error {
		if m != want {
			return apierr.MethodNotAllowed(m, x.Request.URL.Path, want)
		}
		return nil
	}
	switch {
	case t.Name == "" && t.Method == "":
		if err := allow(http.MethodGet); err != nil {
			return provider.Response{Err: err}
		}
		return listBatches(x)
	case t.Name == "":
	case t.Method == "cancel":
		if err := allow(http.MethodPost); err != nil {
			return provider.Response{Err: err}
		}
		return cancelBatch(x, t.Name)
	case t.Method != "":
	case m == http.MethodGet:
		return getBatch(x, t.Name)
	case m == http.MethodDelete:
		return deleteBatch(x, t.Name)
	default:
		return provider.Response{Err: apierr.MethodNotAllowed(m, x.Request.URL.Path, "GET, DELETE")}
	}
	return provider.Response{Err: routeNotFound(x)}
}

// batchNotFound answers an ID the session does not keep.
func batchNotFound(id string) *apierr.Error {
	return notFound("Requested entity was not found.")
}

// getBatch serves GET batches/{id}.
func getBatch(x *provider.Exchange, id string) provider.Response {
	j, s, ok := x.Runtime.Job(batchKind, id)
	if !ok {
		return provider.Response{Err: batchNotFound(id), Job: id}
	}
	op := operationOf(&j, s)
	return provider.Response{JSON: op, Job: id, JobState: op.Metadata.State}
}

// batchList is ListBatchesResponse: genai reads operations and
// nextPageToken.
type batchList struct {
	Operations    []operation `json:"operations"`
	NextPageToken string      `json:"nextPageToken,omitempty"`
}

// listBatches serves GET batches: newest first (inferred), pageSize of
// them (default 50, at most 1000, inferred), after the batch pageToken
// names (the token is the last batch's ID; a token the session does not
// keep pages nothing).
func listBatches(x *provider.Exchange) provider.Response {
	q := x.Request.URL.Query()
	size := 50
	if v := q.Get("pageSize"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 0 {
			return provider.Response{Err: invalid("page_size", "page_size must be a non-negative integer.")}
		}
		if n > 0 {
			size = min(n, 1000)
		}
	}
	jobs, statuses := x.Runtime.Jobs(batchKind)
	slices.Reverse(jobs)
	slices.Reverse(statuses)
	start := 0
	if tok := q.Get("pageToken"); tok != "" {
		start = slices.IndexFunc(jobs, func(j runtime.Job) bool { return j.ID == tok }) + 1
		if start == 0 {
			start = len(jobs)
		}
	}
	end := min(start+size, len(jobs))
	page := batchList{Operations: make([]operation, 0, end-start)}
	for i := start; i < end; i++ {
		page.Operations = append(page.Operations, operationOf(&jobs[i], statuses[i]))
	}
	if end < len(jobs) && end > start {
		page.NextPageToken = jobs[end-1].ID
	}
	return provider.Response{JSON: page}
}

// cancelBatch serves POST batches/{id}:cancel: a pending or running batch
// is cancelled now, and the answer is Empty; an ended one is refused with
// FAILED_PRECONDITION (inferred).
func cancelBatch(x *provider.Exchange, id string) provider.Response {
	if _, s, ok := x.Runtime.Job(batchKind, id); !ok {
		return provider.Response{Err: batchNotFound(id), Job: id}
	} else if s.State.Ended() {
		return provider.Response{Err: &apierr.Error{Status: http.StatusBadRequest, Type: statusFailedPrecondition,
			Message: "The batch has already ended and cannot be cancelled."}, Job: id, JobState: batchStates[s.State]}
	}
	x.Runtime.CancelJob(batchKind, id)
	_, s, ok := x.Runtime.Job(batchKind, id)
	if !ok {
		return provider.Response{Err: batchNotFound(id), Job: id}
	}
	return provider.Response{JSON: struct{}{}, Job: id, JobState: batchStates[s.State]}
}

// deleteBatch serves DELETE batches/{id}: the batch is gone in any state
// (Operations.Delete: the client is no longer interested; inferred for a
// running one), and the answer is Empty.
func deleteBatch(x *provider.Exchange, id string) provider.Response {
	if !x.Runtime.DeleteJob(batchKind, id) {
		return provider.Response{Err: batchNotFound(id), Job: id}
	}
	return provider.Response{JSON: struct{}{}, Job: id, JobState: "deleted"}
}
