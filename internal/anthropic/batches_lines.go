package anthropic

import (
	"bytes"
	"encoding/json"
	"net/http"

	"github.com/llmtestserver/llmtestserver/internal/apierr"
	"github.com/llmtestserver/llmtestserver/internal/provider"
	"github.com/llmtestserver/llmtestserver/scenario"
)

// batchRecord is the Data of a batch's job: each request's answer, in the
// order of the requests, and the error every request carries when the
// batch's plan fails it. It is never changed once stored (a fork shares
// it).
type batchRecord struct {
	lines []batchLine
	// failure is the ErrorResponse of a plan that fails the batch
	// (scenario.FailJob), nil otherwise.
	failure []byte
	// succeeded counts the lines whose answer is a message.
	succeeded int
}

// batchLine is one request's answer, as the Messages API gave it when the
// batch was created.
type batchLine struct {
	customID string
	// body is compact JSON, one line of the results: the Message when
	// errored is false, else the ErrorResponse ({"type":"error",
	// "error":{...},"request_id"}), which is what the API's error answer
	// is and what an errored result carries.
	body    []byte
	errored bool
}

// Bytes a batch is charged, beyond its lines' custom IDs and bodies: the
// job and its record, and per line its batchLine (40 B) with the slack of
// the allocator's size classes over its two allocations, so that the
// charge stays above what the heap keeps: 703 B charged per request of a
// 540 B message, against 641 B kept, as compat/anthropicsdk's
// TestBatchOfAThousandRetainsWhatItIsCharged measures it.
const (
	batchBaseBytes = 1 << 10
	batchLineBytes = 96
)

// weight is what l is charged: its custom ID and body, an eighth more for
// the size classes the allocator rounds them up to, and its overhead.
func (l *batchLine) weight() int64 {
	n := int64(len(l.customID) + cap(l.body))
	return n + n/8 + batchLineBytes
}

// lineOf turns what the Messages API answered a line into its result: a
// message for a 200 with a JSON body, the API's error envelope for an
// error; a line whose answer was aborted (a drop or cut fault) or is not
// JSON is errored with an api_error (inferred: a request whose processing
// broke off errors, as the guide's "internal server errors" do).
func lineOf(x *provider.Exchange, customID string, a provider.Answered) batchLine {
	ok := a.Status != 0 && a.IsJSON() && json.Valid(a.Body)
	if ok && a.Status == http.StatusOK {
		return batchLine{customID: customID, body: compact(a.Body)}
	}
	if ok && a.Status >= http.StatusBadRequest {
		return batchLine{customID: customID, body: compact(a.Body), errored: true}
	}
	e := &apierr.Error{Kind: scenario.ErrorServer, Status: http.StatusInternalServerError,
		Message: "The request's processing broke off before its answer was complete."}
	return batchLine{customID: customID, body: errorResponse(x, e), errored: true}
}

// streamRefused is the result of a request whose params ask for a stream,
// which a batch, whose results are files, cannot give. The Python SDK's
// batch params are MessageCreateParamsNonStreaming; what the API does
// with stream: true is not documented: an errored result, like any
// params the API refuses, is inferred. The request is not sent to the
// Messages API, so the journal has no entry for it.
func streamRefused(x *provider.Exchange, customID string) batchLine {
	e := invalid("stream", "stream: a request of a Message Batch cannot be streamed; leave stream unset or false")
	return batchLine{customID: customID, body: errorResponse(x, e), errored: true}
}

// errorResponse renders e as the ErrorResponse the API answers with, with
// a request ID of its own.
func errorResponse(x *provider.Exchange, e *apierr.Error) []byte {
	_, v := Envelope(Codec{}.Resolve(e), RequestID(x.Runtime.NextSerial()))
	b, _ := json.Marshal(v)
	return b
}

// compact copies b without insignificant whitespace, so that it is one
// line of JSONL, into an array of b's size (an answer is compact already,
// so nothing is left over).
func compact(b []byte) []byte {
	out := bytes.NewBuffer(make([]byte, 0, len(b)))
	if json.Compact(out, b) != nil {
		return bytes.Clone(b)
	}
	return out.Bytes()
}
