package anthropic

import (
	"net/http"

	"github.com/llmtestserver/llmtestserver/internal/apierr"
	"github.com/llmtestserver/llmtestserver/internal/provider"
)

// The Message Batches API (anthropic-sdk-go's MessageBatchService, and its
// beta twin, which calls the same routes with ?beta=true) is a job of the
// session, of kind batchKind. Each request of a batch is answered when the
// batch is created, one by one, through the whole server as if it were
// sent alone to POST /v1/messages (provider.Dispatch: the strict decoder,
// the session's scenarios, the journal with the batch's ID and the line's
// custom_id); the batch's own plan (a scenario naming
// scenario.EndpointBatches, else the defaults) then only reveals those
// answers over the session's clock, so nothing runs in the background:
//
//	queued, in_progress  -> processing_status in_progress, every request processing
//	cancelled            -> canceling until the step under way ends, then ended
//	completed            -> ended with each request's own result
//	failed               -> ended with every request errored (the plan's error)
//	expired              -> ended with every request expired
//
// The files: batches_decode.go (what creation validates),
// batches_create.go (POST and the run of its lines), batches_lines.go (a
// line's answer as kept, and what it is charged), batches_object.go (the
// MessageBatch object, the states, GET), batches_list.go (the list,
// paged), batches_cancel.go (cancel and delete), batches_results.go (the
// JSONL results), batches_errors.go (the refusals).

// batchKind is the job kind of Message Batches, bounded by the session's
// jobs.capacity and jobs.max_bytes, apart from every other API's jobs.
const batchKind = "anthropic_batch"

// batchesPath is the collection's path; a batch's own paths are under it.
const batchesPath = "/v1/messages/batches"

// serveBatches serves /v1/messages/batches: POST creates a batch, GET
// lists them.
func serveBatches(x *provider.Exchange) provider.Response {
	switch x.Request.Method {
	case http.MethodPost:
		return createBatch(x)
	case http.MethodGet:
		return listBatches(x)
	}
	return provider.Response{Err: apierr.MethodNotAllowed(x.Request.Method, x.Request.URL.Path, "GET, POST")}
}

// serveBatchByID serves /v1/messages/batches/{id} (GET, DELETE),
// …/{id}/cancel (POST) and …/{id}/results (GET).
func serveBatchByID(x *provider.Exchange) provider.Response {
	return provider.ServeByID(x, batchesPath,
		provider.IDRoute{Method: http.MethodGet, Serve: getBatch},
		provider.IDRoute{Method: http.MethodDelete, Serve: deleteBatch},
		provider.IDRoute{Action: "cancel", Method: http.MethodPost, Serve: cancelBatch},
		provider.IDRoute{Action: "results", Method: http.MethodGet, Serve: batchResults})
}
