package httpx

import (
	"bufio"
	"context"
	"io"
	"net/http"
	"sync"
	"time"

	"github.com/llmtestserver/llmtestserver/internal/apierr"
	"github.com/llmtestserver/llmtestserver/internal/provider"
	"github.com/llmtestserver/llmtestserver/internal/runtime"
)

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
func deliver(ctx context.Context, rt *runtime.Runtime, w http.ResponseWriter, res *provider.Response, serial uint64, render Renderer) (status int, finish func()) {
	out := bufferPool.Get().(*bufio.Writer)
	out.Reset(w)
	release := func() {
		out.Reset(nil) // drop the reference to w
		bufferPool.Put(out)
	}
	var last func() error
	var err error
	switch {
	case res.SSE != nil:
		status = http.StatusOK
		startSSE(w)
		err = writeEvents(ctx, rt, out, w, res.SSE, res.Pacing)
		last = func() error {
			if n := res.SSE.Len(); n > 0 {
				return res.SSE.WriteEvent(out, n-1)
			}
			return nil
		}
	case res.Err != nil:
		for k, vs := range res.Err.Header {
			w.Header()[k] = vs
		}
		errStatus, body := render(res.Err, serial)
		status, last, err = writeHeld(w, out, errStatus, body, render)
	default:
		status, last, err = writeHeld(w, out, http.StatusOK, res.JSON, render)
	}
	if err == nil {
		err = out.Flush()
	}
	if err != nil {
		release()
		if res.Reservation != nil {
			res.Reservation.Rollback()
		}
		return apierr.StatusClientClosed, func() {}
	}
	if res.Delivered != nil {
		res.Delivered()
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
func writeHeld(w http.ResponseWriter, out io.Writer, status int, v any, render Renderer) (int, func() error, error) {
	held := &holdLast{w: out}
	if s, ok := v.(provider.StreamingJSON); ok {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		return status, held.release, s.WriteJSON(held)
	}
	status, body := marshalJSON(status, v, render)
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
func writeEvents(ctx context.Context, rt *runtime.Runtime, out *bufio.Writer, w http.ResponseWriter, s provider.EventStream, pacing runtime.StreamSettings) error {
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
			if err := rt.Wait(ctx, delay); err != nil {
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
