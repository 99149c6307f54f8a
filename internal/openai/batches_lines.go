package openai

import (
	"bytes"
	"encoding/json"
	"errors"
	"net/http"
	"strconv"

	"github.com/llmtestserver/llmtestserver/internal/apierr"
	"github.com/llmtestserver/llmtestserver/internal/httpx"
	"github.com/llmtestserver/llmtestserver/internal/provider"
)

// A line's answer as the output and error files carry it
// (BatchRequestOutput): {"id":"batch_req_…","custom_id","response":
// {"status_code","request_id","body"},"error":null} for an answer the
// endpoint gave, 200 in the output file and any other status in the error
// file (the live API puts a 400's error envelope in response.body, with
// error null: openai/openai-openapi#302); {"response":null,"error":{"code",
// "message"}} in the error file for "a non-HTTP error": a line whose
// answer broke off, timed out (request_timeout), or never ran
// (batch_expired, batch_cancelled), in the codes the spec lists.

// lineTally sums the lines before it: the k-th of a batch's tallies is
// that of its first k lines, so that what a batch shows after any number
// of its lines is one lookup.
type lineTally struct {
	completed, failed int32
	// outEnd and errEnd are where the first lines' entries end in the
	// output and error files as written in the order of the lines (the
	// files keep them last line first: see reversed); idEnd where their
	// custom_ids end in the record's ids.
	outEnd, errEnd, idEnd int32
	usage                 batchUsage
}

// lineTallyBytes is what a lineTally takes.
const lineTallyBytes = 72

// batchUsage is the Batch's usage: the tokens of the lines answered.
type batchUsage struct {
	InputTokens         int64        `json:"input_tokens"`
	InputTokensDetails  cachedTokens `json:"input_tokens_details"`
	OutputTokens        int64        `json:"output_tokens"`
	OutputTokensDetails reasonTokens `json:"output_tokens_details"`
	TotalTokens         int64        `json:"total_tokens"`
}

// cachedTokens is BatchUsageInputTokensDetails.
type cachedTokens struct {
	CachedTokens int64 `json:"cached_tokens"`
}

// reasonTokens is BatchUsageOutputTokensDetails.
type reasonTokens struct {
	ReasoningTokens int64 `json:"reasoning_tokens"`
}

// add sums u and v.
func (u batchUsage) add(v batchUsage) batchUsage {
	u.InputTokens += v.InputTokens
	u.InputTokensDetails.CachedTokens += v.InputTokensDetails.CachedTokens
	u.OutputTokens += v.OutputTokens
	u.OutputTokensDetails.ReasoningTokens += v.OutputTokensDetails.ReasoningTokens
	u.TotalTokens += v.TotalTokens
	return u
}

// lineUsage reads the usage of an answer's body, in the words of any of the
// three endpoints: Chat Completions' prompt_tokens and completion_tokens,
// the Responses API's input_tokens and output_tokens, embeddings'
// prompt_tokens alone.
func lineUsage(body []byte) batchUsage {
	var b struct {
		Usage struct {
			PromptTokens            int64        `json:"prompt_tokens"`
			CompletionTokens        int64        `json:"completion_tokens"`
			InputTokens             int64        `json:"input_tokens"`
			OutputTokens            int64        `json:"output_tokens"`
			TotalTokens             int64        `json:"total_tokens"`
			PromptTokensDetails     cachedTokens `json:"prompt_tokens_details"`
			InputTokensDetails      cachedTokens `json:"input_tokens_details"`
			CompletionTokensDetails reasonTokens `json:"completion_tokens_details"`
			OutputTokensDetails     reasonTokens `json:"output_tokens_details"`
		} `json:"usage"`
	}
	if json.Unmarshal(body, &b) != nil {
		return batchUsage{}
	}
	u := &b.Usage
	return batchUsage{InputTokens: u.PromptTokens + u.InputTokens,
		InputTokensDetails:  cachedTokens{u.PromptTokensDetails.CachedTokens + u.InputTokensDetails.CachedTokens},
		OutputTokens:        u.CompletionTokens + u.OutputTokens,
		OutputTokensDetails: reasonTokens{u.CompletionTokensDetails.ReasoningTokens + u.OutputTokensDetails.ReasoningTokens},
		TotalTokens:         u.TotalTokens}
}

// lineWriter writes a batch's lines into its output and error files, in
// the order of the lines, with their tallies and custom_ids.
type lineWriter struct {
	out, errs bytes.Buffer
	tally     []lineTally
	ids       bytes.Buffer
}

// newLineWriter is a writer of n lines.
func newLineWriter(n int) *lineWriter {
	w := &lineWriter{tally: make([]lineTally, 1, n+1)}
	return w
}

// next appends the tally of one more line: ok says it succeeded (in the
// output file), failed that it ran and erred, with its usage.
func (w *lineWriter) next(customID string, ok, failed bool, u batchUsage) {
	t := w.tally[len(w.tally)-1]
	w.ids.WriteString(customID)
	if ok {
		t.completed++
		t.usage = t.usage.add(u)
	}
	if failed {
		t.failed++
	}
	t.outEnd, t.errEnd, t.idEnd = int32(w.out.Len()), int32(w.errs.Len()), int32(w.ids.Len())
	w.tally = append(w.tally, t)
}

// Each entry's fixed parts.
const (
	entryID       = `{"id":"`
	entryCustomID = `","custom_id":`
	entryStatus   = `,"response":{"status_code":`
	entryRequest  = `,"request_id":`
	entryBody     = `,"body":`
	entryNoError  = `},"error":null}` + "\n"
	entryNoAnswer = `,"response":null,"error":{"code":`
	entryMessage  = `,"message":`
	entryEnd      = `}}` + "\n"
)

// writeAnswer writes the entry of an answer with status, request ID and
// body (compact JSON) into the output file (status 200) or the error file.
func (w *lineWriter) writeAnswer(x *provider.Exchange, customID string, status int, requestID string, body []byte) {
	buf := &w.errs
	if status == http.StatusOK {
		buf = &w.out
	}
	buf.WriteString(entryID)
	buf.WriteString(newBatchRequestID(x))
	buf.WriteString(entryCustomID)
	writeJSONString(buf, customID)
	buf.WriteString(entryStatus)
	buf.WriteString(itoa(status))
	buf.WriteString(entryRequest)
	writeJSONString(buf, requestID)
	buf.WriteString(entryBody)
	if json.Compact(buf, body) != nil {
		buf.WriteString("null")
	}
	buf.WriteString(entryNoError)
	ok := status == http.StatusOK
	u := batchUsage{}
	if ok {
		u = lineUsage(body)
	}
	w.next(customID, ok, !ok, u)
}

// writeNoAnswer writes the entry of a line with no answer (code, message)
// into the error file; ran says the line ran (and counts as failed).
func (w *lineWriter) writeNoAnswer(x *provider.Exchange, customID, code, message string, ran bool) {
	writeUnanswered(&w.errs, newBatchRequestID(x), customID, code, message)
	w.next(customID, false, ran, batchUsage{})
}

// writeUnanswered writes the entry of a line without an answer.
func writeUnanswered(buf *bytes.Buffer, id, customID, code, message string) {
	buf.WriteString(entryID)
	buf.WriteString(id)
	buf.WriteString(entryCustomID)
	writeJSONString(buf, customID)
	buf.WriteString(entryNoAnswer)
	writeJSONString(buf, code)
	buf.WriteString(entryMessage)
	writeJSONString(buf, message)
	buf.WriteString(entryEnd)
}

// newBatchRequestID is a line's ID: "batch_req_" and 24 letters and
// digits, as the live API's ("batch_req_YTpodqz4ZJ8arId5Bm73lIEt").
func newBatchRequestID(x *provider.Exchange) string { return x.Runtime.NewID("batch_req_", 24) }

// writeJSONString writes s as a JSON string.
func writeJSONString(buf *bytes.Buffer, s string) {
	b, _ := json.Marshal(s)
	buf.Write(b)
}

// itoa is n in decimal.
func itoa(n int) string { return strconv.Itoa(n) }

// The messages of the lines without an answer (the codes are the spec's;
// the words are inferred).
const (
	brokeOffMessage  = "The request's processing broke off before its answer was complete."
	timedOutMessage  = "The request timed out before the model answered."
	expiredMessage   = "This request could not be executed before the completion window expired."
	cancelledMessage = "This request was not executed: the batch was cancelled before it ran."
)

// runLines answers each line of the batch id through the whole server, as
// a POST to endpoint, writing each answer; maxBytes bounds one answer (no
// larger one could be kept). It stops with the 429 of a full session as
// soon as the files pass the room the session's jobs have left (base is
// what the batch takes besides), and with the client's leaving, or the
// session's deletion, when the batch's request ends meanwhile. The lines
// answered before it stopped stay in the journal and keep the replies
// they took: they were sent.
func runLines(x *provider.Exchange, id, endpoint string, lines []inputLine, base, maxBytes int64) (*lineWriter, *apierr.Error) {
	w := newLineWriter(len(lines))
	for _, l := range lines {
		if l.stream {
			w.writeAnswer(x, l.customID, http.StatusBadRequest, requestIDOf(x, nil), streamRefusedBody())
		} else {
			a, err := provider.Dispatch(x, http.MethodPost, endpoint, l.body, provider.Line{Job: id, CustomID: l.customID}, maxBytes)
			switch {
			case errors.Is(err, provider.ErrAnswerTooLarge):
				return nil, batchesFull()
			case err != nil:
				return nil, httpx.ClientGone()
			}
			w.line(x, l.customID, a)
		}
		if !x.Runtime.HasJobRoom(batchKind, base+w.weight()) {
			return nil, batchesFull()
		}
	}
	return w, nil
}

// line writes what the endpoint answered a line: an answer with a JSON
// body as it came, a 504 as request_timeout, and anything else (a drop or
// cut fault, a body that is not JSON) as an answer that broke off.
func (w *lineWriter) line(x *provider.Exchange, customID string, a provider.Answered) {
	switch {
	case a.Status == http.StatusGatewayTimeout:
		w.writeNoAnswer(x, customID, "request_timeout", timedOutMessage, true)
	case a.Status != 0 && a.IsJSON() && json.Valid(a.Body):
		w.writeAnswer(x, customID, a.Status, requestIDOf(x, a.Header), a.Body)
	default:
		w.writeNoAnswer(x, customID, "server_error", brokeOffMessage, true)
	}
}

// requestIDOf is the request ID of a line's answer, its x-request-id, or
// a new one for a line that was not sent.
func requestIDOf(x *provider.Exchange, h http.Header) string {
	if id := h.Get("X-Request-Id"); id != "" {
		return id
	}
	return RequestID(x.Runtime.NextSerial())
}

// streamRefusedBody is the error envelope of a line whose body asks for a
// stream, which a batch, whose answers are files, cannot give: an error
// line with the 400 of a parameter the endpoint refuses (inferred: the
// API's answer to stream: true in a batch is not documented). The line is
// not sent, so the journal has no entry for it.
func streamRefusedBody() []byte {
	e := invalidRequest(http.StatusBadRequest, "unsupported_value", "stream",
		"Unsupported value: 'stream' does not support true in a batch: its answers are written to a file. Leave stream unset or false.")
	b, _ := json.Marshal(envelopeOf(Resolve(e)))
	return b
}

// weight is what the files written so far take, with an eighth more for
// the buffers' slack, and the batch's tallies and custom_ids.
func (w *lineWriter) weight() int64 {
	files := int64(w.out.Len() + w.errs.Len())
	return files + files/8 + int64(w.ids.Len()) + int64(len(w.tally))*lineTallyBytes
}

// reversed is the file content written in the order of the lines, whose
// k-th line ends at ends(k), with its lines in the opposite order, in an
// array of its size: "the output line order may not match the input line
// order" (the batch guide), so that code that matches answers by
// position rather than custom_id fails here as it would there. The
// entries of the first k lines are then its tail, from len-ends(k).
func reversed(content []byte, n int, ends func(k int) int) []byte {
	out := make([]byte, 0, len(content))
	for k := n; k > 0; k-- {
		out = append(out, content[ends(k-1):ends(k)]...)
	}
	return out
}
