package openai

import (
	"net/http"

	"github.com/llmtestserver/llmtestserver/internal/apierr"
)

// The refusals of the videos API that are not a body's validation (see
// videos_decode.go).

// videoNotFound answers an ID the session does not keep (never made,
// deleted, gone after its plan's keep, or another session's). The
// wording is inferred, on the pattern of the API's other 404s.
func videoNotFound(id string) *Error {
	return invalidRequest(http.StatusNotFound, "", "", "Video with id '%s' not found.", id)
}

// videoNotReady answers a download of a video that has not completed: a
// 404 whose message starts "Video is not ready yet", as the live API was
// seen to answer while a video was queued or in progress
// (BerriAI/litellm#32602); the rest of the message, and the same answer
// for a failed video, are inferred.
func videoNotReady(id string) *Error {
	return invalidRequest(http.StatusNotFound, "", "",
		"Video is not ready yet, use GET /v1/videos/%s to check its status.", id)
}

// remixNotCompleted answers a remix of a video that has not completed:
// the API remixes "a completed video" (VideoService.Remix's doc); the 400
// and its words are inferred.
func remixNotCompleted(id, status string) *Error {
	return invalidRequest(http.StatusBadRequest, "", "",
		"Video '%s' is %s: only a completed video can be remixed.", id, status)
}

// videosFull is the 429 of a session whose videos are at their bound.
func videosFull() *apierr.Error {
	return apierr.JobsFull("videos", "videos.capacity")
}
