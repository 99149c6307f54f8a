package openai

import (
	"errors"
	"strings"

	"github.com/llmtestserver/llmtestserver/internal/answer"
	"github.com/llmtestserver/llmtestserver/internal/apierr"
	"github.com/llmtestserver/llmtestserver/internal/httpx"
	"github.com/llmtestserver/llmtestserver/internal/provider"
	"github.com/llmtestserver/llmtestserver/internal/runtime"
	"github.com/llmtestserver/llmtestserver/scenario"
)

// createBatch serves POST /v1/batches: it decodes the create
// (decodeBatchCreate), validates the input file (parseInput), takes the
// batch's plan from a scenario naming scenario.EndpointBatches (none: the
// defaults of runtime.JobPlan), runs each line through the endpoint as if
// it were sent alone when the plan completes, and keeps the batch and its
// files as jobs; it answers the batch as it stands now (validating, unless
// the plan has none).
func createBatch(x *provider.Exchange) provider.Response {
	body, err := x.ReadBody()
	if err != nil {
		if provider.IsBodyUnreadable(err) {
			return provider.Response{Err: InvalidJSON()}
		}
		return provider.Response{Err: err}
	}
	settings := x.Runtime.Settings()
	req, err := decodeBatchCreate(body, settings.AllowUnknownParameters)
	if err != nil {
		return provider.Response{Err: err}
	}
	lines, model, inputErrs := readInput(x, &req)
	norm := batchScenarioRequest(model, lines)
	answer.RecordRequest(x, norm)
	if !x.Runtime.HasJobRoom(batchKind, batchBaseBytes) {
		// Refused before the batch takes a reply or runs a line.
		return provider.Response{Err: batchesFull(), Model: model}
	}
	// The batch's reply times a job: its delay is not waited out here, and
	// a reply of scenario.FailJob fails the batch rather than this request
	// (answer.Scripted leaves it to the job). A scripted error without a
	// failed plan refuses the creation itself.
	x.Deferred = true
	res, reply, refused := answer.Scripted(x, norm)
	if refused != nil {
		refused.Model = model
		return *refused
	}
	id := x.Runtime.NewHexID("batch_", 32)
	plan, ends := batchPlan(reply.Job, inputErrs != nil)
	rec := batchRecord{req: req, model: model, total: len(lines), errors: inputErrs, tally: []lineTally{{}}}
	var w *lineWriter
	switch {
	case inputErrs != nil:
	case ends == runtime.JobFailed:
		rec.errors, rec.total = planFailure(reply.Error), 0
	case ends == runtime.JobExpired:
		w = expiredLines(x, lines)
	default:
		w, err = runLines(x, id, req.endpoint, lines, batchBaseBytes, settings.JobMaxBytes)
		rec.ran = true
	}
	var job runtime.Job
	var status runtime.JobStatus
	if err == nil {
		job, status, err = keepBatch(x, id, rec, w, plan)
	}
	if err != nil {
		if res != nil {
			res.Rollback() // the batch was not made: its reply is the next one's
		}
		return provider.Response{Err: err, Model: model}
	}
	v := viewOf(&job, status, job.Created)
	return provider.Response{JSON: objectOf(&job, v), Reservation: res, Job: id, JobState: v.status, Model: model}
}

// readInput reads and validates the batch's input file: its lines and
// model, or the errors that fail the batch.
func readInput(x *provider.Exchange, req *batchRequest) ([]inputLine, string, []batchError) {
	f, _, ok := fileAt(x, req.inputFileID)
	rec, _ := f.Data.(fileRecord)
	if !ok || rec.purpose != purposeBatch {
		return nil, "", inputFileErrors(req.inputFileID, rec.purpose, ok)
	}
	return parseInput(rec.content, req.endpoint)
}

// batchPlan is the job plan of a batch scripted p (nil for the defaults),
// with the state it ends in. A batch that fails (its input refused, or a
// plan of scenario.FailJob) fails while validating, as the API's batches
// fail: it validates for its plan's whole time (an input refused: its
// queued time), then fails. A batch whose plan runs past its completion
// window expires when the window ends.
func batchPlan(p *scenario.JobPlan, inputRefused bool) (runtime.JobPlan, runtime.JobState) {
	plan := runtime.PlanOf(p)
	r := plan.Resolved()
	switch {
	case inputRefused:
		return runtime.JobPlan{Queued: none(r.Queued), Running: -1, Ends: runtime.JobFailed, Keep: plan.Keep}, runtime.JobFailed
	case r.Ends == runtime.JobFailed:
		return runtime.JobPlan{Queued: none(r.Queued + r.Running), Running: -1, Ends: runtime.JobFailed, Keep: plan.Keep}, runtime.JobFailed
	case r.Queued >= batchWindow:
		return runtime.JobPlan{Queued: batchWindow, Running: -1, Ends: runtime.JobExpired, Keep: plan.Keep}, runtime.JobExpired
	case r.Queued+r.Running > batchWindow:
		plan.Running, plan.Ends = batchWindow-r.Queued, runtime.JobExpired
	}
	return plan, plan.Resolved().Ends
}

// expiredLines writes each line of a batch whose plan expires it as
// batch_expired: none ran.
func expiredLines(x *provider.Exchange, lines []inputLine) *lineWriter {
	w := newLineWriter(len(lines))
	for _, l := range lines {
		w.writeNoAnswer(x, l.customID, "batch_expired", expiredMessage, false)
	}
	return w
}

// keepBatch keeps the batch id of rec, with the files of w, as jobs on
// plan; when the session has no room for one, it keeps none.
func keepBatch(x *provider.Exchange, id string, rec batchRecord, w *lineWriter, plan runtime.JobPlan) (runtime.Job, runtime.JobStatus, *apierr.Error) {
	out, errs := batchFiles(x, w, rec.total)
	if w != nil {
		rec.tally, rec.ids = w.tally, w.ids.String()
	}
	if out != nil {
		rec.outputFileID = out.id
	}
	if errs != nil {
		rec.errorFileID = errs.id
	}
	job, status, err := x.Runtime.AddJob(runtime.Job{ID: id, Kind: batchKind, Plan: plan, Data: rec, Bytes: rec.weight()})
	switch {
	case errors.Is(err, runtime.ErrJobsFull):
		return job, status, batchesFull()
	case err != nil:
		return job, status, httpx.ClientGone() // deleted meanwhile: the core answers the deletion
	}
	keep := outputKeep(&rec.req)
	for _, f := range []*batchFile{out, errs} {
		if f != nil && !keepFile(x, id, f, job.EndsAt(), keep) {
			x.Runtime.DeleteJob(batchKind, id)
			if out != nil {
				x.Runtime.DeleteJob(fileKind, out.id)
			}
			return job, status, batchesFull()
		}
	}
	return job, status, nil
}

// batchScenarioRequest is the request the batch's own scenarios
// (scenario.EndpointBatches) see: the model its lines name, and one user
// message listing their custom_ids, one a line, so that a test tells its
// batches apart by the IDs it gives their lines
// (sess.Batches("slow").When(scenario.UserContains("slow-"))).
func batchScenarioRequest(model string, lines []inputLine) *scenario.Request {
	var ids strings.Builder
	for i, l := range lines {
		if i > 0 {
			ids.WriteByte('\n')
		}
		ids.WriteString(l.customID)
	}
	return &scenario.Request{Endpoint: scenario.EndpointBatches, Model: model,
		Messages: []scenario.Message{{Role: "user", Content: ids.String()}}}
}
