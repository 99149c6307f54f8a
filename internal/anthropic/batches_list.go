package anthropic

import (
	"net/url"
	"slices"

	"github.com/llmtestserver/llmtestserver/internal/provider"
	"github.com/llmtestserver/llmtestserver/internal/runtime"
)

// batchList is a page of GET /v1/messages/batches, as pagination.Page
// reads it: the SDK asks for the next page with after_id=last_id (or,
// when it paged with before_id, before_id=first_id) while has_more.
type batchList struct {
	Data    []batchObject `json:"data"`
	HasMore bool          `json:"has_more"`
	FirstID *string       `json:"first_id"`
	LastID  *string       `json:"last_id"`
}

// listBatches serves GET /v1/messages/batches: the session's batches,
// "most recently created batches are returned first"
// (MessageBatchService.List's doc), limit of them (20 by default, 1 to
// 1000) after after_id or before before_id, read and refused as the
// models list reads them. A cursor the session does not keep pages
// nothing (inferred, as for the models).
func listBatches(x *provider.Exchange) provider.Response {
	q := x.Request.URL.Query()
	lq, err := parseListQuery(url.Values{"limit": q["limit"], "after_id": q["after_id"], "before_id": q["before_id"]})
	if err != nil {
		return provider.Response{Err: err}
	}
	jobs, statuses := x.Runtime.Jobs(batchKind)
	slices.Reverse(jobs)
	slices.Reverse(statuses)
	index := func(id string) int { return slices.IndexFunc(jobs, func(j runtime.Job) bool { return j.ID == id }) }
	start, end := 0, min(lq.Limit, len(jobs))
	switch {
	case lq.AfterID != "":
		start = index(lq.AfterID) + 1
		if start == 0 {
			start = len(jobs)
		}
		end = min(start+lq.Limit, len(jobs))
	case lq.BeforeID != "":
		end = max(index(lq.BeforeID), 0)
		start = max(end-lq.Limit, 0)
	}
	now := x.Runtime.Now()
	page := batchList{Data: make([]batchObject, 0, end-start)}
	for i := start; i < end; i++ {
		page.Data = append(page.Data, objectOf(x, &jobs[i], viewOf(&jobs[i], statuses[i], now)))
	}
	if lq.BeforeID != "" {
		page.HasMore = start > 0
	} else {
		page.HasMore = end < len(jobs)
	}
	if n := len(page.Data); n > 0 {
		page.FirstID, page.LastID = &page.Data[0].ID, &page.Data[n-1].ID
	}
	return provider.Response{JSON: page}
}
