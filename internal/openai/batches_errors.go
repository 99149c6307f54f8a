package openai

import (
	"net/http"

	"github.com/llmtestserver/llmtestserver/internal/apierr"
	"github.com/llmtestserver/llmtestserver/scenario"
)

// The refusals of the Batch API, and the errors of a batch that fails.
// The API documents the rules; the wording of the 404 and of a cancel
// refused is inferred, on the pattern of the API's other refusals.

// batchNotFound answers an ID the session does not keep (never made, gone
// after its plan's keep, or another session's).
func batchNotFound(id string) *Error {
	return invalidRequest(http.StatusNotFound, "", "", "No batch found with id '%s'.", id)
}

// batchNotCancellable answers a cancel of a batch that has ended: a batch
// is cancelled "in progress" (BatchService.Cancel's doc); a 409 for one
// that ended is inferred.
func batchNotCancellable(id, status string) *Error {
	return invalidRequest(http.StatusConflict, "", "", "Cannot cancel batch '%s': its status is '%s'.", id, status)
}

// batchesFull is the 429 of a session whose jobs are at their bound.
func batchesFull() *apierr.Error {
	return apierr.JobsFull("batches and files", "jobs.capacity or jobs.max_bytes")
}

// inputFileErrors are the errors of a batch whose input file cannot be
// read as one: none kept by that ID, or one uploaded for another purpose.
// Such a batch is created and fails while validating, as the live API
// reports input problems ("even file-access failures come back as failed
// rather than a create-time 400", stdapi-ai/stdapi.ai#240); the codes and
// words are inferred.
func inputFileErrors(id, purpose string, found bool) []batchError {
	if !found {
		return []batchError{lineError(0, "file_not_found", "input_file_id", "No such File object: %s", id)}
	}
	return []batchError{lineError(0, "invalid_file_purpose", "input_file_id",
		"The input file %s was uploaded with purpose '%s': a batch's input file needs purpose 'batch'.", id, purpose)}
}

// planFailure is the error of a batch whose plan fails it: the reply's
// error (scenario.FailJob) as the API would word it, else a server error.
func planFailure(e *scenario.Error) []batchError {
	if e == nil {
		return []batchError{lineError(0, "server_error", "", "The batch failed while it was being validated.")}
	}
	r := Resolve(apierr.Scripted(e))
	return []batchError{lineError(0, r.JournalCode(), r.Param, "%s", r.Message)}
}
