package anthropic

import (
	"encoding/json"
	"net/http"

	"github.com/llmtestserver/llmtestserver/internal/provider"
	"github.com/llmtestserver/llmtestserver/internal/runtime"
)

// jsonlType is the Content-Type of the results: what the API sends (it
// once sent none, which broke the SDKs that pick their decoder by it:
// anthropics/anthropic-sdk-ruby#208, anthropic-sdk-php#30) and what the
// Go SDK's ResultsStreaming asks for in its Accept.
const jsonlType = "application/x-jsonl"

// batchResults serves GET /v1/messages/batches/{id}/results, the batch's
// results_url: one JSON line per request, {"custom_id","result":{"type":
// "succeeded","message"} | {"type":"errored","error"} | {"type":
// "canceled"} | {"type":"expired"}}, once the batch has ended; before, a
// refusal (inferred: the API documents only that results exist once
// processing ends). "Results are not guaranteed to be in the same order as
// requests": they come last request first, so that code that matches them
// by position rather than custom_id fails here as it would one day there.
func batchResults(x *provider.Exchange, id string) provider.Response {
	j, v, ok := batchAt(x, id)
	switch {
	case !ok:
		return provider.Response{Err: batchNotFound(id), Job: id}
	case v.status != statusEnded:
		return provider.Response{Err: batchNotEnded(id, v.status, "the results of a Message Batch are available"),
			Job: id, JobState: v.status}
	}
	rec, _ := j.Data.(batchRecord)
	h := http.Header{}
	h.Set("Content-Disposition", "attachment; filename*=utf-8''"+id+"_results.jsonl")
	return provider.Response{Body: rec.jsonl(v), ContentType: jsonlType, Header: h, Job: id, JobState: v.status}
}

// Each result line's fixed parts.
const (
	lineCustomID  = `{"custom_id":`
	lineSucceeded = `,"result":{"type":"succeeded","message":`
	lineErrored   = `,"result":{"type":"errored","error":`
	lineCanceled  = `,"result":{"type":"canceled"}`
	lineExpired   = `,"result":{"type":"expired"}`
)

// jsonl writes rec's results in the ended view v, in one buffer sized
// first, so that a batch of many requests costs one allocation of its
// results' size.
func (rec *batchRecord) jsonl(v batchView) []byte {
	size := 0
	for i := range rec.lines {
		size += len(lineCustomID) + len(rec.lines[i].customID) + 2 + len(lineSucceeded) + 3 +
			max(len(rec.lines[i].body), len(rec.failure))
	}
	out := make([]byte, 0, size)
	for i := len(rec.lines) - 1; i >= 0; i-- {
		l := &rec.lines[i]
		out = append(out, lineCustomID...)
		out = appendJSONString(out, l.customID)
		switch rec.resultOf(i, v) {
		case resultSucceeded:
			out = append(append(append(out, lineSucceeded...), l.body...), '}', '}')
		case resultErrored:
			body := l.body
			if v.state == runtime.JobFailed && rec.failure != nil {
				body = rec.failure
			}
			out = append(append(append(out, lineErrored...), body...), '}', '}')
		case resultCanceled:
			out = append(append(out, lineCanceled...), '}')
		case resultExpired:
			out = append(append(out, lineExpired...), '}')
		}
		out = append(out, '\n')
	}
	return out
}

// appendJSONString appends s as a JSON string.
func appendJSONString(out []byte, s string) []byte {
	b, _ := json.Marshal(s)
	return append(out, b...)
}
