package openai

import (
	"net/http"

	"github.com/llmtestserver/llmtestserver/internal/apierr"
)

// The refusals of the Files API that are not an upload's field checks
// (see files_create.go).

// fileNotFound answers an ID the session does not keep (never made,
// deleted, expired, another session's, or a batch's output not yet
// written): a 404 in the words users quote of the API ("No such File
// object: file-…", param id); that a batch's output is 404 until the
// batch ends is inferred.
func fileNotFound(id string) *Error {
	return invalidRequest(http.StatusNotFound, "", "id", "No such File object: %s", id)
}

// notMultipart answers an upload whose body is not multipart/form-data,
// in the words the API gives its other multipart routes (the audio
// transcriptions' 400; that the files route says the same is inferred).
func notMultipart(contentType string) *Error {
	return invalidRequest(http.StatusBadRequest, "", "",
		"Invalid Content-Type header (%s), expected multipart/form-data. (HINT: If you're using curl, you can pass -H 'Content-Type: multipart/form-data')", contentType)
}

// notJSONL answers an upload of purpose batch whose name does not end in
// .jsonl, as the live API answers (BerriAI/litellm#37527 quotes it; "The
// Batch API only supports .jsonl files", FileService.New's doc).
func notJSONL() *Error {
	return invalidRequest(http.StatusBadRequest, "", "", "Invalid file format for Batch API. Must be .jsonl")
}

// downloadRefused answers a download of a file whose purpose the API does
// not let one download, as the live API answers ("Not allowed to download
// files of purpose: user_data", a 400 reported on the community forum
// for user_data and assistants; that fine-tune and evals are refused too
// is what the same thread's table says, inferred).
func downloadRefused(purpose string) *Error {
	return invalidRequest(http.StatusBadRequest, "", "", "Not allowed to download files of purpose: %s", purpose)
}

// filesFull is the 429 of a session whose jobs (files among them) are at
// their bound.
func filesFull() *apierr.Error {
	return apierr.JobsFull("files", "jobs.capacity or jobs.max_bytes")
}
