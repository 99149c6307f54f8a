package openai

import (
	"github.com/llmtestserver/llmtestserver/internal/provider"
	"github.com/llmtestserver/llmtestserver/internal/runtime"
)

// The statuses of a Video (openai-go's VideoStatus).
const (
	videoQueued     = "queued"
	videoInProgress = "in_progress"
	videoCompleted  = "completed"
	videoFailed     = "failed"
)

// videoObject is the Video object. Its nullable fields are pointers, so
// that they are null until known, as the API sends them.
type videoObject struct {
	ID                 string      `json:"id"`
	Object             string      `json:"object"`
	CreatedAt          int64       `json:"created_at"`
	CompletedAt        *int64      `json:"completed_at"`
	ExpiresAt          *int64      `json:"expires_at"`
	Error              *videoError `json:"error"`
	Model              string      `json:"model"`
	Progress           int         `json:"progress"`
	Prompt             string      `json:"prompt"`
	RemixedFromVideoID *string     `json:"remixed_from_video_id"`
	Seconds            string      `json:"seconds"`
	Size               string      `json:"size"`
	Status             string      `json:"status"`
}

// videoError is VideoCreateError: why a video failed.
type videoError struct {
	Code    string `json:"code"`
	Message string `json:"message"`
}

// videoStatusOf is the Video status of a job's state: a video the plan
// expires (or, were one ever cancelled, cancels) is failed, as a video
// has no other final status.
func videoStatusOf(s runtime.JobState) string {
	switch s {
	case runtime.JobQueued:
		return videoQueued
	case runtime.JobInProgress:
		return videoInProgress
	case runtime.JobCompleted:
		return videoCompleted
	}
	return videoFailed
}

// videoObjectOf renders the video j as its status s shows it:
// completed_at once it ended (completed or failed), expires_at once its
// assets exist (when the job is gone, the plan's keep after it ended: a
// day by default), error once it failed.
func videoObjectOf(j *runtime.Job, s runtime.JobStatus) videoObject {
	rec, _ := j.Data.(videoRecord)
	o := videoObject{ID: j.ID, Object: "video", CreatedAt: j.Created.Unix(), Model: rec.model, Progress: s.Progress,
		Prompt: rec.prompt, Seconds: rec.seconds, Size: rec.size, Status: videoStatusOf(s.State)}
	if rec.remixedFrom != "" {
		o.RemixedFromVideoID = &rec.remixedFrom
	}
	if !s.Ended.IsZero() {
		done := s.Ended.Unix()
		o.CompletedAt = &done
	}
	switch o.Status {
	case videoCompleted:
		gone := s.Gone.Unix()
		o.ExpiresAt = &gone
	case videoFailed:
		o.Error = rec.failure
		if o.Error == nil {
			o.Error = &videoError{Code: "video_generation_failed", Message: "The video could not be generated."}
		}
	}
	return o
}

// getVideo serves GET /v1/videos/{id}, openai-go's Get and each poll of
// PollStatus, with openai-poll-after-ms while the video runs.
func getVideo(x *provider.Exchange, id string) provider.Response {
	j, s, ok := x.Runtime.Job(videoKind, id)
	if !ok {
		return provider.Response{Err: videoNotFound(id), Job: id}
	}
	o := videoObjectOf(&j, s)
	return provider.Response{JSON: o, Job: id, JobState: o.Status, Model: o.Model, Header: pollAfter(x, &j, s)}
}
