package anthropic

import (
	"errors"
	"net/http"

	"github.com/llmtestserver/llmtestserver/internal/answer"
	"github.com/llmtestserver/llmtestserver/internal/apierr"
	"github.com/llmtestserver/llmtestserver/internal/httpx"
	"github.com/llmtestserver/llmtestserver/internal/provider"
	"github.com/llmtestserver/llmtestserver/internal/runtime"
	"github.com/llmtestserver/llmtestserver/scenario"
)

// createBatch serves POST /v1/messages/batches: it validates the batch
// (decodeBatch), takes its plan from a scenario naming
// scenario.EndpointBatches (none: the defaults of runtime.JobPlan), runs
// each request through the Messages API as if it were sent alone, and
// keeps the answers as a job, answered in_progress with every request
// processing.
func createBatch(x *provider.Exchange) provider.Response {
	body, err := x.ReadBody()
	if err != nil {
		return provider.Response{Err: err}
	}
	settings := x.Runtime.Settings()
	reqs, err := decodeBatch(body, settings.AllowUnknownParameters)
	if err != nil {
		return provider.Response{Err: err}
	}
	norm := batchScenarioRequest(reqs)
	answer.RecordRequest(x, norm)
	if !x.Runtime.HasJobRoom(batchKind, batchBaseBytes) {
		// Refused before the batch takes a reply or runs a request.
		return provider.Response{Err: batchesFull()}
	}
	// The batch's reply times a job: its delay is not waited out here, and
	// a reply of scenario.FailJob fails the batch once it has run rather
	// than this request (see answer.Scripted and failsJob). A scripted
	// error without a failed plan still refuses the creation.
	x.Deferred = true
	res, reply, refused := answer.Scripted(x, norm)
	if refused != nil {
		return *refused
	}
	id := x.Runtime.NewBase58ID("msgbatch_01", 22)
	rec, bytes, failed := runLines(x, id, reqs, settings.JobMaxBytes)
	var job runtime.Job
	var status runtime.JobStatus
	if failed == nil {
		job, status, failed = keepBatch(x, id, rec, bytes, &reply)
	}
	if failed != nil {
		if res != nil {
			res.Rollback() // the batch was not made: its reply is the next one's
		}
		return provider.Response{Err: failed}
	}
	v := viewOf(&job, status, job.Created)
	return provider.Response{JSON: objectOf(x, &job, v), Reservation: res, Job: id, JobState: v.status}
}

// runLines answers each request of the batch id through the whole server
// (provider.Dispatch), as POST /v1/messages, with the beta API when the
// batch was made with it, and returns the record with the bytes it is
// charged. It stops with the 429 of a full session as soon as the answers
// pass the room the session's jobs have left (maxBytes bounds one answer:
// none larger could be kept), and with the client's leaving, or the
// session's deletion, when the batch's request ends meanwhile. The lines
// answered before it stopped stay in the journal and keep the replies
// they took: they were sent.
func runLines(x *provider.Exchange, id string, reqs []batchRequest, maxBytes int64) (batchRecord, int64, *apierr.Error) {
	path := "/v1/messages"
	if x.Request.URL.Query().Get("beta") == "true" {
		path += "?beta=true"
	}
	rec := batchRecord{lines: make([]batchLine, 0, len(reqs))}
	total := int64(batchBaseBytes)
	for _, r := range reqs {
		var l batchLine
		if r.stream {
			l = streamRefused(x, r.customID)
		} else {
			a, err := provider.Dispatch(x, http.MethodPost, path, r.params, provider.Line{Job: id, CustomID: r.customID}, maxBytes)
			switch {
			case errors.Is(err, provider.ErrAnswerTooLarge):
				return rec, 0, batchesFull()
			case err != nil:
				return rec, 0, httpx.ClientGone()
			}
			l = lineOf(x, r.customID, a)
		}
		total += l.weight()
		if !x.Runtime.HasJobRoom(batchKind, total) {
			return rec, 0, batchesFull()
		}
		if !l.errored {
			rec.succeeded++
		}
		rec.lines = append(rec.lines, l)
	}
	return rec, total, nil
}

// keepBatch keeps the batch id of rec's answers, weighing bytes, as a
// job on the plan reply scripts, with the error of a plan that fails it.
func keepBatch(x *provider.Exchange, id string, rec batchRecord, bytes int64, reply *scenario.Reply) (runtime.Job, runtime.JobStatus, *apierr.Error) {
	if reply.Job != nil && reply.Job.Ends == scenario.JobFailed {
		rec.failure = planFailure(x, reply.Error)
		bytes += int64(len(rec.failure))
	}
	job, status, err := x.Runtime.AddJob(runtime.Job{ID: id, Kind: batchKind, Plan: runtime.PlanOf(reply.Job), Data: rec, Bytes: bytes})
	switch {
	case errors.Is(err, runtime.ErrJobsFull):
		return job, status, batchesFull()
	case err != nil:
		return job, status, httpx.ClientGone() // deleted meanwhile: the core answers the deletion
	}
	return job, status, nil
}

// planFailure is the error every request of a batch carries when its plan
// fails it: the reply's error (scenario.FailJob), else an api_error. A
// Message Batch has no failed state of its own: a failed plan ends the
// batch with every request errored (inferred).
func planFailure(x *provider.Exchange, e *scenario.Error) []byte {
	if e != nil {
		return errorResponse(x, apierr.Scripted(e))
	}
	return errorResponse(x, &apierr.Error{Kind: scenario.ErrorServer, Status: http.StatusInternalServerError,
		Message: "The Message Batch failed before its requests were processed."})
}
