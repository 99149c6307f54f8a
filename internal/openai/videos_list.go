package openai

import (
	"github.com/llmtestserver/llmtestserver/internal/provider"
	"github.com/llmtestserver/llmtestserver/internal/runtime"
)

// videoList is a page of GET /v1/videos, as openai-go's
// ConversationCursorPage reads it: the next page is asked with
// after=last_id while has_more.
type videoList struct {
	Object  string        `json:"object"`
	Data    []videoObject `json:"data"`
	FirstID *string       `json:"first_id"`
	LastID  *string       `json:"last_id"`
	HasMore bool          `json:"has_more"`
}

// listVideos serves GET /v1/videos: the session's videos, newest first
// unless order=asc (the default order of the API's other lists of recent
// things; inferred), limit of them (20 by default, 1 to 100) after the
// video named by after, each as it stands now.
func listVideos(x *provider.Exchange) provider.Response {
	q, err := readPageQuery(x.Request, true)
	if err != nil {
		return provider.Response{Err: err}
	}
	type listed struct {
		job    runtime.Job
		status runtime.JobStatus
	}
	jobs, statuses := x.Runtime.Jobs(videoKind)
	all := make([]listed, len(jobs))
	for i := range jobs {
		all[i] = listed{jobs[i], statuses[i]}
	}
	page, more, err := pageOf(all, func(l *listed) string { return l.job.ID }, q, "No video with id '%s' found to list after.")
	if err != nil {
		return provider.Response{Err: err}
	}
	out := videoList{Object: "list", Data: make([]videoObject, len(page)), HasMore: more}
	for i := range page {
		out.Data[i] = videoObjectOf(&page[i].job, page[i].status)
	}
	if n := len(out.Data); n > 0 {
		out.FirstID, out.LastID = &out.Data[0].ID, &out.Data[n-1].ID
	}
	return provider.Response{JSON: out}
}
