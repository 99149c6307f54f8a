package httpx

import (
	"bytes"
	"time"

	"github.com/llmtestserver/llmtestserver/internal/apierr"
	"github.com/llmtestserver/llmtestserver/internal/runtime"
	"github.com/llmtestserver/llmtestserver/journal"
)

// sent is what the delivery of an answer wrote, for the journal's stream
// facts: the events of a stream, and when the answer's first byte went
// out, on the runtime's clock, so that a test on a fake clock or in a
// synctest bubble reads the exact time its script set.
type sent struct {
	rt      *runtime.Runtime
	arrived time.Time // when the request arrived
	events  int
	first   time.Duration
	wrote   bool
}

// mark notes that the answer's bytes are being written now: the first
// call fixes the time to first byte.
func (s *sent) mark() {
	if !s.wrote {
		s.wrote, s.first = true, s.rt.Now().Sub(s.arrived)
	}
}

// event notes one more stream event written.
func (s *sent) event() {
	s.mark()
	s.events++
}

// journal fills in e's stream facts for a delivery that ended with status.
// An answer whose writing failed (the client left, status 499) was not
// delivered, its reply back in its queue, and a drop (status 0) wrote
// nothing: their entries show neither events nor a first byte.
func (s *sent) journal(e *journal.Entry, status int) {
	if status == 0 || status == apierr.StatusClientClosed {
		return
	}
	e.Chunks, e.FirstByte = s.events, s.first
}

// journalError records in e the error e's client was sent: its code, and
// its message as the client reads it, unless the message quotes what the
// journal never keeps (see apierr.Error.JournalMessage). A client that left
// reads none.
func journalError(e *journal.Entry, err *apierr.Error) {
	e.ErrorCode = err.JournalCode()
	switch {
	case err.Status == apierr.StatusClientClosed:
	case err.JournalMessage != "":
		e.ErrorMessage = err.JournalMessage
	default:
		e.ErrorMessage = err.Message
	}
}

// unsent clears from e what the server would have answered a client that
// left before its answer was delivered: it never got it.
func unsent(e *journal.Entry) {
	e.ReplyText, e.Refusal, e.JSON, e.ResponseID = "", "", false, ""
}

// replayed fills in the stream facts of an answer replayed for its
// Idempotency-Key, written at once: the events of a kept stream, each of
// which ends with a blank line in every codec's framing.
func replayed(e *journal.Entry, rt *runtime.Runtime, a *runtime.IdempotentAnswer) {
	if len(a.Body) == 0 {
		return
	}
	e.FirstByte = rt.Now().Sub(e.Time)
	if a.Stream {
		e.Chunks = bytes.Count(a.Body, []byte("\n\n"))
	}
}
