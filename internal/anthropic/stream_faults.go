package anthropic

import (
	"bytes"
	"io"

	"github.com/llmtestserver/llmtestserver/internal/apierr"
	"github.com/llmtestserver/llmtestserver/internal/provider"
)

var _ provider.FailingStream = (*stream)(nil)

// Opening implements provider.FailingStream: a Messages stream can fail
// before its message_start, with its error event alone.
func (s *stream) Opening() int { return 0 }

// WriteErrorEvent writes, in place of event i, the error event that fails
// a stream under way.
func (s *stream) WriteErrorEvent(w io.Writer, _ int, e *apierr.Error) error {
	return writeErrorEvent(w, e)
}

// WriteMalformedEvent writes event i with its JSON cut half-way. A ping,
// which the SDK skips unread, is sent as a content_block_delta instead, so
// that the SDK decodes it and fails.
func (s *stream) WriteMalformedEvent(w io.Writer, i int) error {
	var b bytes.Buffer
	if err := s.WriteEvent(&b, i); err != nil {
		return err
	}
	name := ""
	if n, _ := s.event(i); n == "ping" {
		name = "content_block_delta"
	}
	_, err := w.Write(provider.Malformed(b.Bytes(), name))
	return err
}
