package openai

import (
	"bytes"
	"encoding/json"
	"io"
	"strconv"

	"github.com/llmtestserver/llmtestserver/internal/apierr"
	"github.com/llmtestserver/llmtestserver/internal/provider"
	"github.com/llmtestserver/llmtestserver/internal/runtime"
)

// Stream renders a as the body of a Responses stream, in the order the real
// API uses. Every event is `event: <type>`, `data: <json>` and a blank line
// (the last one included; there is no [DONE]), and every payload carries
// its type and a sequence_number counting from 0:
//
//  1. response.created and response.in_progress, each with the response
//     in progress (output [], usage null, service_tier "auto" unless the
//     request named a tier); a background response's response.created
//     carries it queued, and response.queued follows;
//  2. for a reasoning model, its reasoning item at output_index 0, with
//     its summary's events (see streamReasoning);
//  3. for the message: response.output_item.added (status in_progress,
//     content []), response.content_part.added (empty part),
//     response.output_text.delta events (or response.refusal.delta for a
//     refusal), response.output_text.done (response.refusal.done),
//     response.content_part.done and response.output_item.done;
//  4. for each tool call, at the next output_index:
//     response.output_item.added (arguments ""),
//     response.function_call_arguments.delta events,
//     response.function_call_arguments.done and response.output_item.done;
//  5. response.completed, or response.incomplete, whose response is exactly
//     what Object returns.
//
// Every delta (output text, refusal, function call arguments, reasoning
// summary text) carries obfuscation padding unless NoObfuscation is set.
//
// Text, refusals and arguments are cut by split into tokens
// (nil sends each whole), tokensPerChunk (at least 1) per delta, never
// inside a UTF-8 sequence. A failed answer (Failure set) renders
// response.created, response.in_progress and response.failed, whose
// response has status failed and error {code, message}.
// No payload has a top-level "error" key.
func (a *ResponseAnswer) Stream(split func(string) []string, tokensPerChunk int) *SSE {
	return a.StreamUntil(nil, split, tokensPerChunk)
}

// StreamUntil is Stream, rendering no event once done is closed: the
// stream is rendered before any of it is written, and a long answer's
// events each hold its whole text, so a client that left must not wait
// for them all (done is the request's context's; the stream is then
// never delivered).
func (a *ResponseAnswer) StreamUntil(done <-chan struct{}, split func(string) []string, tokensPerChunk int) *SSE {
	w := newEventWriter()
	w.done = done
	if a.background() {
		// A background response is queued first: response.created and
		// response.queued carry it queued (wire.md Part 4 §4.1).
		queued := a.pending(string(runtime.JobQueued))
		w.emit("response.created", responseEvent{Response: queued})
		w.emit("response.queued", responseEvent{Response: queued})
	} else {
		w.emit("response.created", responseEvent{Response: a.snapshot()})
	}
	w.emit("response.in_progress", responseEvent{Response: a.snapshot()})
	if a.Failure != nil {
		w.emit("response.failed", responseEvent{Response: a.Object()})
		return &w.sse
	}
	final := a.Object()
	index := 0
	if a.Reasoning != nil {
		a.streamReasoning(w, split, tokensPerChunk)
		index++
	}
	if a.hasMessage() {
		a.streamMessage(w, index, final.Output[index], split, tokensPerChunk)
		index++
	}
	for _, c := range a.ToolCalls {
		done := final.Output[index]
		added := done
		added.Status, added.Arguments = "in_progress", ""
		w.emit("response.output_item.added", itemEvent{OutputIndex: index, Item: added})
		for _, p := range chunkPieces(done.Arguments, split, tokensPerChunk) {
			w.emit("response.function_call_arguments.delta", argumentsDelta{ItemID: c.ID, OutputIndex: index, Delta: p,
				Obfuscation: a.obfuscation(c.ID, w.seq, p)})
		}
		w.emit("response.function_call_arguments.done", argumentsDone{ItemID: c.ID, OutputIndex: index, Arguments: done.Arguments})
		w.emit("response.output_item.done", itemEvent{OutputIndex: index, Item: done})
		index++
	}
	terminal := "response.completed"
	if final.Status == "incomplete" {
		terminal = "response.incomplete"
	}
	w.emit(terminal, responseEvent{Response: final})
	return &w.sse
}

func (a *ResponseAnswer) streamMessage(w *eventWriter, index int, done Item, split func(string) []string, per int) {
	part := done.Content[0]
	added := done
	added.Status, added.Content = "in_progress", []ItemPart{}
	w.emit("response.output_item.added", itemEvent{OutputIndex: index, Item: added})
	empty := ItemPart{Type: part.Type}
	at := partAt{ItemID: done.ID, OutputIndex: index, ContentIndex: 0}
	w.emit("response.content_part.added", partEvent{partAt: at, Part: empty})
	if part.Type == "refusal" {
		for _, p := range chunkPieces(part.Text, split, per) {
			w.emit("response.refusal.delta", refusalDelta{partAt: at, Delta: p, Obfuscation: a.obfuscation(done.ID, w.seq, p)})
		}
		w.emit("response.refusal.done", refusalDone{partAt: at, Refusal: part.Text})
	} else {
		pieces, logprobs := a.textPieces(split, per)
		for i, p := range pieces {
			w.emit("response.output_text.delta", textDelta{partAt: at, Delta: p, Logprobs: logprobs[i],
				Obfuscation: a.obfuscation(done.ID, w.seq, p)})
		}
		w.emit("response.output_text.done", textDone{partAt: at, Text: part.Text, Logprobs: part.Logprobs})
	}
	w.emit("response.content_part.done", partEvent{partAt: at, Part: part})
	w.emit("response.output_item.done", itemEvent{OutputIndex: index, Item: done})
}

// eventWriter renders named events with increasing sequence numbers.
type eventWriter struct {
	sse SSE
	seq int
	buf bytes.Buffer
	enc *json.Encoder
	// done, once closed, stops the rendering: emit adds nothing more.
	done <-chan struct{}
}

func newEventWriter() *eventWriter {
	w := &eventWriter{}
	w.enc = json.NewEncoder(&w.buf)
	w.enc.SetEscapeHTML(false)
	return w
}

// emit adds one event. payload's fields follow type and sequence_number.
// The payloads are plain structs of strings, numbers and the package's
// JSON types, which always encode.
func (w *eventWriter) emit(typ string, payload any) {
	select {
	case <-w.done:
		return
	default:
	}
	w.buf.Reset()
	_ = w.enc.Encode(payload)
	body := bytes.TrimSuffix(w.buf.Bytes(), []byte("\n"))
	s := &w.sse
	s.Body = append(s.Body, "event: "...)
	s.Body = append(s.Body, typ...)
	s.Body = append(s.Body, "\ndata: {\"type\":"...)
	s.Body = strconv.AppendQuote(s.Body, typ)
	s.Body = append(s.Body, ",\"sequence_number\":"...)
	s.Body = strconv.AppendInt(s.Body, int64(w.seq), 10)
	if len(body) > 2 { // more than {}
		s.Body = append(s.Body, ',')
		s.Body = append(s.Body, body[1:]...)
	} else {
		s.Body = append(s.Body, '}')
	}
	s.Body = append(s.Body, "\n\n"...)
	s.Ends = append(s.Ends, len(s.Body))
	w.seq++
}

type responseEvent struct {
	Response *ResponseObject `json:"response"`
}

type itemEvent struct {
	OutputIndex int  `json:"output_index"`
	Item        Item `json:"item"`
}

type partAt struct {
	ItemID       string `json:"item_id"`
	OutputIndex  int    `json:"output_index"`
	ContentIndex int    `json:"content_index"`
}

type partEvent struct {
	partAt
	Part ItemPart `json:"part"`
}

type textDelta struct {
	partAt
	Delta       string          `json:"delta"`
	Logprobs    json.RawMessage `json:"logprobs"`
	Obfuscation string          `json:"obfuscation,omitempty"`
}

type textDone struct {
	partAt
	Text     string          `json:"text"`
	Logprobs json.RawMessage `json:"logprobs"`
}

// refusalDelta carries obfuscation like the other deltas: inferred, no
// real refusal stream was found.
type refusalDelta struct {
	partAt
	Delta       string `json:"delta"`
	Obfuscation string `json:"obfuscation,omitempty"`
}

type refusalDone struct {
	partAt
	Refusal string `json:"refusal"`
}

type argumentsDelta struct {
	ItemID      string `json:"item_id"`
	OutputIndex int    `json:"output_index"`
	Delta       string `json:"delta"`
	Obfuscation string `json:"obfuscation,omitempty"`
}

type argumentsDone struct {
	ItemID      string `json:"item_id"`
	OutputIndex int    `json:"output_index"`
	Arguments   string `json:"arguments"`
}

// ResponsesStream is a Responses stream that can fail part-way: its
// events, and the answer that response.failed reports.
type ResponsesStream struct {
	*SSE
	answer *ResponseAnswer
}

// NewResponsesStream renders a as its stream (see ResponseAnswer.Stream).
func NewResponsesStream(a *ResponseAnswer, split func(string) []string, tokensPerChunk int) *ResponsesStream {
	return NewResponsesStreamUntil(nil, a, split, tokensPerChunk)
}

// NewResponsesStreamUntil is NewResponsesStream rendered until done is
// closed (see ResponseAnswer.StreamUntil).
func NewResponsesStreamUntil(done <-chan struct{}, a *ResponseAnswer, split func(string) []string, tokensPerChunk int) *ResponsesStream {
	return &ResponsesStream{SSE: a.StreamUntil(done, split, tokensPerChunk), answer: a}
}

// Opening implements provider.FailingStream: a response is announced,
// response.created and response.in_progress, before it can fail.
func (s *ResponsesStream) Opening() int { return 2 }

// WriteErrorEvent writes, in place of event i, response.failed with e,
// numbered as event i.
func (s *ResponsesStream) WriteErrorEvent(w io.Writer, i int, e *apierr.Error) error {
	failed := *s.answer
	failed.Failure = &ResponseError{Code: e.JournalCode(), Message: e.Message}
	ew := newEventWriter()
	ew.seq = i
	ew.emit("response.failed", responseEvent{Response: failed.Object()})
	_, err := w.Write(ew.sse.Body)
	return err
}

// WriteMalformedEvent writes event i, named as it is, with its JSON cut
// half-way.
func (s *ResponsesStream) WriteMalformedEvent(w io.Writer, i int) error {
	_, err := w.Write(provider.Malformed(s.Event(i), ""))
	return err
}
