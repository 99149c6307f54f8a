package openai

import (
	"net/http"

	"github.com/llmtestserver/llmtestserver/internal/apierr"
	"github.com/llmtestserver/llmtestserver/internal/provider"
)

// The Batch API (openai-go's BatchService) is a job of the session, of
// kind batchKind, made from a JSONL file uploaded with purpose batch (see
// files.go). When a batch is created its input file is validated as the
// API validates it, and each line is answered through the whole server as
// if it were sent alone to the batch's endpoint (provider.Dispatch: the
// strict decoder, the session's scenarios, the journal with the batch's
// ID and the line's custom_id); the answers are written at once into the
// batch's output and error files, which are files of the session shown
// from the time the batch ends. The batch's own plan (a scenario naming
// scenario.EndpointBatches, else the defaults of runtime.JobPlan) then
// only reveals them over the session's clock, so nothing runs in the
// background:
//
//	job queued        -> validating
//	job in_progress   -> in_progress, request_counts growing step by
//	                     step; the plan's last step is finalizing
//	job completed     -> completed, with output_file_id and error_file_id
//	failed plan, or
//	an input refused  -> validating, then failed with errors (no line runs)
//	expired plan      -> in_progress, then expired: no line runs, each is
//	                     batch_expired in the error file
//	cancel            -> cancelling until the step under way ends, then
//	                     cancelled with the lines done by then
//
// The files: batches_decode.go (the create body), batches_input.go (the
// input file's validation), batches_create.go (POST and its plan),
// batches_lines.go (each line's answer as written in the files),
// batches_files.go (the output and error files), batches_object.go (the
// Batch object, the states, GET), batches_list.go, batches_cancel.go,
// batches_errors.go (the refusals).

// batchKind is the job kind of the batches, bounded by the session's
// jobs.capacity and jobs.max_bytes with its files.
const batchKind = "batch"

// batchesPath is the collection's path; a batch's own paths are under it.
const batchesPath = "/v1/batches"

// serveBatches serves /v1/batches: POST creates a batch, GET lists them.
func serveBatches(x *provider.Exchange) provider.Response {
	switch x.Request.Method {
	case http.MethodPost:
		return createBatch(x)
	case http.MethodGet:
		return listBatches(x)
	}
	return provider.Response{Err: apierr.MethodNotAllowed(x.Request.Method, x.Request.URL.Path, "GET, POST")}
}

// serveBatchByID serves /v1/batches/{id} (GET) and …/{id}/cancel (POST).
func serveBatchByID(x *provider.Exchange) provider.Response {
	return provider.ServeByID(x, batchesPath,
		provider.IDRoute{Method: http.MethodGet, Serve: getBatch},
		provider.IDRoute{Action: "cancel", Method: http.MethodPost, Serve: cancelBatch})
}
