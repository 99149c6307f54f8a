package openai

import (
	"errors"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/llmtestserver/llmtestserver/internal/answer"
	"github.com/llmtestserver/llmtestserver/internal/apierr"
	"github.com/llmtestserver/llmtestserver/internal/httpx"
	"github.com/llmtestserver/llmtestserver/internal/provider"
	"github.com/llmtestserver/llmtestserver/internal/runtime"
	"github.com/llmtestserver/llmtestserver/scenario"
)

// videoRecord is the Data of a video's job: its settings and, for a
// plan that fails it, its error. It holds strings only (the prompt the
// largest), which videoBytes charges.
type videoRecord struct {
	prompt, model, seconds, size string
	// remixedFrom is the ID of the video a remix was made from, "" for
	// none.
	remixedFrom string
	failure     *videoError
}

// videoBaseBytes is what a video's job is charged beyond its strings:
// the job, the record, its plan, and the reservation the response holds
// while it is written (about 700 bytes, as
// TestVideoJobsRetainWhatTheyAreCharged measures it).
const videoBaseBytes = 1 << 10

// weight is what rec's job is charged: an honest upper bound of what it
// keeps.
func (rec *videoRecord) weight() int64 {
	n := videoBaseBytes + len(rec.prompt) + len(rec.model) + len(rec.seconds) + len(rec.size) + len(rec.remixedFrom)
	if rec.failure != nil {
		n += len(rec.failure.Code) + len(rec.failure.Message)
	}
	return int64(n)
}

// createVideo serves POST /v1/videos.
func createVideo(x *provider.Exchange) provider.Response {
	req, err := decodeVideoCreate(x, x.Runtime.Settings().AllowUnknownParameters)
	if err != nil {
		return provider.Response{Err: err}
	}
	return startVideo(x, videoRecord{prompt: req.prompt, model: req.model, seconds: req.seconds, size: req.size})
}

// remixVideo serves POST /v1/videos/{id}/remix: a new video of the
// completed one's model, seconds and size, with the new prompt and
// remixed_from_video_id naming the source.
func remixVideo(x *provider.Exchange, id string) provider.Response {
	prompt, err := decodeRemix(x, x.Runtime.Settings().AllowUnknownParameters)
	if err != nil {
		return provider.Response{Err: err}
	}
	src, s, ok := x.Runtime.Job(videoKind, id)
	if !ok {
		return provider.Response{Err: videoNotFound(id), Job: id}
	}
	rec, _ := src.Data.(videoRecord)
	if status := videoStatusOf(s.State); status != videoCompleted {
		return provider.Response{Err: remixNotCompleted(id, status), Job: id, JobState: status, Model: rec.model}
	}
	return startVideo(x, videoRecord{prompt: prompt, model: rec.model, seconds: rec.seconds, size: rec.size, remixedFrom: id})
}

// startVideo keeps rec as a new video job, on the plan of the scenario
// that scripts its prompt, and answers the Video object as it stands
// (queued, unless the plan skips that).
func startVideo(x *provider.Exchange, rec videoRecord) provider.Response {
	norm := &scenario.Request{Endpoint: scenario.EndpointVideos, Model: rec.model,
		Messages: []scenario.Message{{Role: "user", Content: rec.prompt}}}
	answer.RecordRequest(x, norm)
	if !x.Serves(rec.model) {
		return provider.Response{Err: answer.ModelNotFound(x, rec.model)}
	}
	if refused := answer.Limit(x, norm); refused != nil {
		return *refused
	}
	if !x.Runtime.HasJobRoom(videoKind, rec.weight()+maxFailureBytes) {
		// Refused before the video takes a reply.
		return provider.Response{Err: videosFull()}
	}
	// The video's reply times its job: its delay is not waited out here,
	// and a reply of scenario.FailJob fails the video once its plan has
	// run rather than this request (answer.Scripted with x.Deferred sees
	// to that). A scripted error without a failed plan refuses the
	// create itself, as a 429 or a moderation refusal would.
	x.Deferred = true
	res, reply, refused := answer.Scripted(x, norm)
	if refused != nil {
		return *refused
	}
	rec.failure = videoFailure(&reply)
	id := x.Runtime.NewHexID("video_", 48)
	job, status, err := x.Runtime.AddJob(runtime.Job{ID: id, Kind: videoKind, Plan: runtime.PlanOf(reply.Job), Data: rec, Bytes: rec.weight()})
	if err != nil {
		if res != nil {
			res.Rollback() // the video was not made: its reply is the next one's
		}
		if errors.Is(err, runtime.ErrJobsFull) {
			return provider.Response{Err: videosFull()}
		}
		return provider.Response{Err: httpx.ClientGone()} // deleted meanwhile: the core answers the deletion
	}
	o := videoObjectOf(&job, status)
	return provider.Response{JSON: o, Reservation: res, Job: id, JobState: o.Status, Header: pollAfter(x, &job, status)}
}

// maxFailureBytes bounds the failure a reply may add to a record (its
// code and message, clipped by videoFailure), so that the room checked
// before the reply is taken is the room the job needs.
const maxFailureBytes = 1 << 10

// videoFailure is the error a video's plan ends it with: the reply's
// (scenario.FailJob), a plain one for a plan that fails without one, and
// for one that expires an error saying so (a video has no expired
// status; the codes and words of the last two are inferred). nil for a
// plan that completes.
func videoFailure(reply *scenario.Reply) *videoError {
	if reply.Job == nil {
		return nil
	}
	switch reply.Job.Ends {
	case scenario.JobFailed:
		if e := reply.Error; e != nil {
			resolved := Resolve(apierr.Scripted(e))
			return &videoError{Code: clip(resolved.JournalCode(), 64), Message: clip(resolved.Message, maxFailureBytes-64)}
		}
		return &videoError{Code: "video_generation_failed", Message: "The video could not be generated."}
	case scenario.JobExpired:
		return &videoError{Code: "video_expired", Message: "The video generation job expired before it completed."}
	}
	return nil
}

// clip is s cut to at most n bytes, copied so that it keeps nothing of
// the reply it came from.
func clip(s string, n int) string {
	if len(s) > n {
		s = s[:n]
	}
	return strings.Clone(s)
}

// pollAfter is the openai-poll-after-ms header of an answer about the
// video j while it has not ended: the time to its next step of progress
// (or its start), at least 1 ms, which openai-go's PollStatus waits
// between polls (capped at 8 s). Whether the real API sends the header
// for videos is not documented; the SDK reads it, so a client that
// polls here waits no longer than the plan needs. nil once ended.
func pollAfter(x *provider.Exchange, j *runtime.Job, s runtime.JobStatus) http.Header {
	if s.State.Ended() {
		return nil
	}
	p := j.Plan.Resolved()
	now := x.Runtime.Now()
	next := j.Created.Add(p.Queued)
	if s.State == runtime.JobInProgress {
		next = j.EndsAt()
		if step := p.Running / time.Duration(p.Steps); step > 0 {
			next = s.Started.Add(step * (now.Sub(s.Started)/step + 1))
		}
	}
	ms := max(next.Sub(now).Milliseconds(), 1)
	h := http.Header{}
	h.Set("openai-poll-after-ms", strconv.FormatInt(ms, 10))
	return h
}
