package anthropic

import (
	"net/http"

	"github.com/llmtestserver/llmtestserver/internal/apierr"
	"github.com/llmtestserver/llmtestserver/scenario"
)

// The refusals of the Message Batches API. The API documents the rules
// (an ID unknown to the workspace, a delete before the batch ended, the
// results before it ended) but not their wording or, for the last two,
// their status: the 400 invalid_request_error and the messages below are
// inferred.

// batchNotFound answers an ID the session does not keep (never made,
// deleted, gone after its plan's keep, or another session's).
func batchNotFound(id string) *apierr.Error {
	return &apierr.Error{Kind: scenario.ErrorNotFound, Status: http.StatusNotFound, Type: typeNotFound,
		Message: "message_batch_id: no Message Batch " + id + " found"}
}

// batchNotEnded answers a delete or a results fetch of a batch still
// processing (in_progress or canceling): what names the refused call.
func batchNotEnded(id, status, what string) *apierr.Error {
	return invalid("", "Message Batch %s is %s: %s only once its processing has ended", id, status, what)
}

// batchAlreadyEnded answers a cancel of a batch that has ended: "Batches
// may be canceled any time before processing ends" (MessageBatchService.
// Cancel's doc); the refusal of a later one is inferred.
func batchAlreadyEnded(id string) *apierr.Error {
	return invalid("", "Message Batch %s has already ended and cannot be canceled", id)
}

// batchesFull is the 429 of a session whose jobs are at their bound.
func batchesFull() *apierr.Error {
	return apierr.JobsFull("Message Batches", "jobs.capacity or jobs.max_bytes")
}
