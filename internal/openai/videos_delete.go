package openai

import (
	"github.com/llmtestserver/llmtestserver/internal/provider"
)

// videoDeleted is VideoDeleteResponse.
type videoDeleted struct {
	ID      string `json:"id"`
	Object  string `json:"object"`
	Deleted bool   `json:"deleted"`
}

// deleteVideo serves DELETE /v1/videos/{id}: the video is forgotten in
// any state, and its ID is 404 from then on. The SDK's doc speaks of "a
// completed or failed video"; that a queued or running one is deleted
// too (rather than refused) is inferred. The reply a running video took
// is not given back: its generation was under way.
func deleteVideo(x *provider.Exchange, id string) provider.Response {
	j, _, ok := x.Runtime.Job(videoKind, id)
	if !ok || !x.Runtime.DeleteJob(videoKind, id) {
		return provider.Response{Err: videoNotFound(id), Job: id}
	}
	rec, _ := j.Data.(videoRecord)
	return provider.Response{JSON: videoDeleted{ID: id, Object: "video.deleted", Deleted: true},
		Job: id, JobState: "deleted", Model: rec.model}
}
