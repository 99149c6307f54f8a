package server

import (
	"bufio"
	"context"
	"io"
	"net/http"
	"sync"
	"time"

	"github.com/llmtestserver/llmtestserver/internal/runtime"
)

// eventStream is an event stream deliver writes one event at a time: a
// rendered *openai.SSE, or an *openai.ChatStream that renders each event as
// it is written.
type eventStream interface {
	Len() int
	WriteEvent(w io.Writer, i int) error
}

// streamingJSON is a JSON body that writes itself in pieces, such as a
// completion with many choices, which would be too large to hold whole. Its
// pieces are plain values that always encode.
type streamingJSON interface {
	WriteJSON(w io.Writer) error
}

// deliver writes res, all but its last bytes, and returns the status to
// journal and a function that writes those last bytes. Until they arrive no
// client can finish reading the answer (a JSON body lacks its closing brace,
// a stream its last event), so journaling in between makes the journal
// complete by the time the client has its answer. A reply that could not be
// written is rolled back to its queue; one that was runs res.delivered.
//
// Answers are written as they are encoded, through a buffer of bounded
// size, so that what a request holds in memory does not grow with the
// number of choices it asks for.
func deliver(ctx context.Context, w http.ResponseWriter, res *response) (status int, finish func()) {
	out := bufferPool.Get().(*bufio.Writer)
	out.Reset(w)
	release := func() {
		out.Reset(nil) // drop the reference to w
		bufferPool.Put(out)
	}
	var last func() error
	var err error
	switch {
	case res.sse != nil:
		status = http.StatusOK
		startSSE(w)
		err = writeEvents(ctx, out, w, res.sse, res.pacing)
		last = func() error {
			if n := res.sse.Len(); n > 0 {
				return res.sse.WriteEvent(out, n-1)
			}
			return nil
		}
	case res.err != nil:
		for k, vs := range res.err.Header {
			w.Header()[k] = vs
		}
		status, last, err = writeHeld(w, out, res.err.Status, res.err)
	default:
		status, last, err = writeHeld(w, out, http.StatusOK, res.json)
	}
	if err == nil {
		err = out.Flush()
	}
	if err != nil {
		release()
		if res.reservation != nil {
			res.reservation.Rollback()
		}
		return statusClientClosed, func() {}
	}
	if res.delivered != nil {
		res.delivered()
	}
	return status, func() {
		if last() == nil {
			out.Flush()
		}
		release()
	}
}

// bufferPool holds the buffers answers are written through.
var bufferPool = sync.Pool{New: func() any { return bufio.NewWriterSize(nil, 32<<10) }}

// writeHeld writes v as a JSON body with status, all but its last byte, and
// returns the status sent (a value that cannot be encoded is a fault of the
// server) and a function that writes the last byte.
func writeHeld(w http.ResponseWriter, out io.Writer, status int, v any) (int, func() error, error) {
	held := &holdLast{w: out}
	if s, ok := v.(streamingJSON); ok {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		return status, held.release, s.WriteJSON(held)
	}
	status, body := marshalJSON(status, v)
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, err := held.Write(body)
	return status, held.release, err
}

// holdLast passes what is written on, except the last byte so far, which
// release writes.
type holdLast struct {
	w    io.Writer
	last [1]byte
	held bool
}

func (h *holdLast) Write(p []byte) (int, error) {
	if len(p) == 0 {
		return 0, nil
	}
	if h.held {
		if _, err := h.w.Write(h.last[:]); err != nil {
			return 0, err
		}
	}
	if _, err := h.w.Write(p[:len(p)-1]); err != nil {
		return 0, err
	}
	h.last[0], h.held = p[len(p)-1], true
	return len(p), nil
}

func (h *holdLast) release() error {
	if !h.held {
		return nil
	}
	h.held = false
	_, err := h.w.Write(h.last[:])
	return err
}

// writeEvents writes every event of a stream but the last to out. A paced
// stream flushes each event, the first after the time to first token, the
// others spaced by the token rate, and then waits the gap before the last
// event, which deliver's finish writes. A stream stops between events when
// ctx ends.
func writeEvents(ctx context.Context, out *bufio.Writer, w http.ResponseWriter, s eventStream, pacing runtime.StreamSettings) error {
	paced := pacing.Paced()
	flusher, _ := w.(http.Flusher)
	var gap time.Duration
	if pacing.TokensPerSecond > 0 {
		gap = time.Duration(float64(pacing.TokensPerChunk) / pacing.TokensPerSecond * float64(time.Second))
	}
	n := s.Len()
	for i := range n {
		if paced {
			delay := gap
			if i == 0 {
				delay = pacing.TTFT
			}
			if err := runtime.Wait(ctx, delay); err != nil {
				return err
			}
		} else if err := ctx.Err(); err != nil {
			return err
		}
		if i == n-1 {
			return nil
		}
		if err := s.WriteEvent(out, i); err != nil {
			return err
		}
		if paced {
			if err := out.Flush(); err != nil {
				return err
			}
			if flusher != nil {
				flusher.Flush()
			}
		}
	}
	return nil
}
