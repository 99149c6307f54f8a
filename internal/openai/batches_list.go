package openai

import (
	"github.com/llmtestserver/llmtestserver/internal/provider"
)

// listBatches serves GET /v1/batches: the session's batches, newest
// first, limit of them (1 to 100, 20 by default: BatchListParams.Limit's
// doc) after the batch after names.
func listBatches(x *provider.Exchange) provider.Response {
	p, err := readPageQuery(x.Request, true)
	if err != nil {
		return provider.Response{Err: err}
	}
	p.desc = true // the list has no order of its own
	jobs, statuses := x.Runtime.Jobs(batchKind)
	now := x.Runtime.Now()
	all := make([]batchObject, len(jobs))
	for i := range jobs {
		all[i] = objectOf(&jobs[i], viewOf(&jobs[i], statuses[i], now))
	}
	page, more, err := pageOf(all, func(b *batchObject) string { return b.ID }, p, "Invalid 'after': no batch with id '%s'.")
	if err != nil {
		return provider.Response{Err: err}
	}
	return provider.Response{JSON: listOf(page, more, func(b *batchObject) string { return b.ID })}
}
