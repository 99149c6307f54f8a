package openai

import (
	"bytes"
	"io"

	"github.com/llmtestserver/llmtestserver/internal/apierr"
	"github.com/llmtestserver/llmtestserver/internal/provider"
)

var (
	_ provider.FailingStream = (*ChatStream)(nil)
	_ provider.FailingStream = (*ResponsesStream)(nil)
)

// Opening implements provider.FailingStream: a Chat Completions stream
// can fail with its error chunk alone.
func (s *ChatStream) Opening() int { return 0 }

// WriteErrorEvent writes, in place of event i, the error chunk that fails
// a Chat Completions stream under way (see ErrorEvent).
func (s *ChatStream) WriteErrorEvent(w io.Writer, _ int, e *apierr.Error) error {
	_, err := w.Write(ErrorEvent(e))
	return err
}

// WriteMalformedEvent writes, in place of event i, a chunk whose JSON
// breaks off half-way. In place of [DONE] it is the chunk before it so
// cut, which SDKs decode and fail on.
func (s *ChatStream) WriteMalformedEvent(w io.Writer, i int) error {
	if _, e, _ := s.event(i); e.kind == doneEvent && i > 0 {
		i--
	}
	var b bytes.Buffer
	if err := s.WriteEvent(&b, i); err != nil {
		return err
	}
	_, err := w.Write(provider.Malformed(b.Bytes(), ""))
	return err
}

// ResponsesStream is a Responses stream that can fail part-way: its
// events, and the answer that response.failed reports.
type ResponsesStream struct {
	*SSE
	answer *ResponseAnswer
}

// NewResponsesStream renders a as its stream (see ResponseAnswer.Stream).
func NewResponsesStream(a *ResponseAnswer, split func(string) []string, tokensPerChunk int) *ResponsesStream {
	return &ResponsesStream{SSE: a.Stream(split, tokensPerChunk), answer: a}
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
