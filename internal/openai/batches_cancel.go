package openai

import (
	"github.com/llmtestserver/llmtestserver/internal/provider"
	"github.com/llmtestserver/llmtestserver/internal/runtime"
)

// cancelBatch serves POST /v1/batches/{id}/cancel: a batch that has not
// ended is cancelling from now (see cancelEnd), its files rewritten for
// the lines done by the time the cancel takes effect (rewriteFiles); one
// cancelling or cancelled already is answered as it stands (inferred: the
// call is idempotent); one that ended otherwise is refused
// (batchNotCancellable).
func cancelBatch(x *provider.Exchange, id string) provider.Response {
	j, _, found, cancelled := x.Runtime.CancelJob(batchKind, id)
	if !found {
		return provider.Response{Err: batchNotFound(id), Job: id}
	}
	if cancelled {
		end, kept, _ := cancelEnd(&j)
		rec := rewriteFiles(x, &j, end, kept)
		// The session may have been deleted meanwhile: the job is then
		// gone with it, and so is what this would store.
		x.Runtime.UpdateJob(batchKind, id, func(old runtime.Job) runtime.Job {
			old.Data, old.Bytes = rec, rec.weight()
			return old
		})
	}
	j, v, ok := batchAt(x, id)
	switch {
	case !ok:
		return provider.Response{Err: batchNotFound(id), Job: id}
	case j.Cancelled.IsZero():
		return provider.Response{Err: batchNotCancellable(id, v.status), Job: id, JobState: v.status}
	}
	rec, _ := j.Data.(batchRecord)
	return provider.Response{JSON: objectOf(&j, v), Job: id, JobState: v.status, Model: rec.model}
}
