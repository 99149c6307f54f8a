package anthropic

import (
	"github.com/llmtestserver/llmtestserver/internal/provider"
)

// cancelBatch serves POST /v1/messages/batches/{id}/cancel: a batch in
// progress is canceling from now (see cancelEnd); one canceling already
// is answered as it stands (the call is idempotent until the batch ends:
// inferred); one that ended is refused (batchAlreadyEnded).
func cancelBatch(x *provider.Exchange, id string) provider.Response {
	_, v, ok := batchAt(x, id)
	switch {
	case !ok:
		return provider.Response{Err: batchNotFound(id), Job: id}
	case v.status == statusEnded:
		return provider.Response{Err: batchAlreadyEnded(id), Job: id, JobState: v.status}
	case v.status == statusInProgress:
		// Between the look above and this call the batch may have ended
		// on the clock: CancelJob then leaves it, and so does this.
		x.Runtime.CancelJob(batchKind, id)
	}
	j, v, ok := batchAt(x, id)
	switch {
	case !ok:
		return provider.Response{Err: batchNotFound(id), Job: id}
	case v.status == statusEnded && j.Cancelled.IsZero():
		return provider.Response{Err: batchAlreadyEnded(id), Job: id, JobState: v.status}
	}
	return provider.Response{JSON: objectOf(x, &j, v), Job: id, JobState: v.status}
}

// batchDeleted is DeletedMessageBatch.
type batchDeleted struct {
	ID   string `json:"id"`
	Type string `json:"type"`
}

// deleteBatch serves DELETE /v1/messages/batches/{id}: "Message Batches
// can only be deleted once they've finished processing. If you'd like to
// delete an in-progress batch, you must first cancel it." (the Delete
// doc); the refusal's status and words are inferred (batchNotEnded).
func deleteBatch(x *provider.Exchange, id string) provider.Response {
	_, v, ok := batchAt(x, id)
	switch {
	case !ok:
		return provider.Response{Err: batchNotFound(id), Job: id}
	case v.status != statusEnded:
		return provider.Response{Err: batchNotEnded(id, v.status, "a Message Batch can be deleted"), Job: id, JobState: v.status}
	case !x.Runtime.DeleteJob(batchKind, id):
		return provider.Response{Err: batchNotFound(id), Job: id}
	}
	return provider.Response{JSON: batchDeleted{ID: id, Type: "message_batch_deleted"}, Job: id, JobState: "deleted"}
}
