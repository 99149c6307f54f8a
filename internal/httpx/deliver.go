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
	"github.com/llmtestserver/llmtestserver/scenario"
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
//
// A fault plan changes what the last bytes are: a stream stops after the
// plan's events and its finish writes the error or malformed event, or
// aborts the connection (a cut); a JSON body's finish withholds its last
// byte (malformed) or aborts (a cut); a drop writes nothing and its finish
// aborts, status 0. A fault that fires counts as delivered: the
// reservation stands. res.Delivered runs for an answer that fails with
// its error event, not for one cut, malformed or dropped.
//
// What is written goes on sent: the events of a stream (those finish
// writes counted in advance) and the time of the first byte.
func deliver(ctx context.Context, rt *runtime.Runtime, w http.ResponseWriter, res *provider.Response, serial uint64, render Renderer,
	plan *faultPlan, sent *sent) (status int, finish func()) {
	faulted := plan.fires(res)
	if faulted && plan.kind == string(scenario.FaultDrop) {
		plan.fired = true
		return 0, func() { abort(w, false) }
	}
	out := bufferPool.Get().(*bufio.Writer)
	out.Reset(w)
	release := func() {
		out.Reset(nil) // drop the reference to w
		bufferPool.Put(out)
	}
	var last func() error
	var err error
	cut := false
	switch {
	case res.SSE != nil:
		status = http.StatusOK
		startSSE(w)
		stop := plan.stop(res.SSE)
		err = writeEvents(ctx, rt, out, w, res.SSE, res.Pacing, stop, sent)
		last, cut = plan.last(res.SSE, out, stop)
		if !cut && stop >= 0 {
			sent.event() // the event finish writes
		}
	case res.Err != nil:
		for k, vs := range res.Err.Header {
			w.Header()[k] = vs
		}
		errStatus, body := render(res.Err, serial)
		status, last, err = writeHeld(w, out, errStatus, body, render)
		sent.mark()
	case res.Body != nil:
		for k, vs := range res.Header {
			w.Header()[k] = vs
		}
		w.Header().Set("Content-Type", res.ContentType)
		w.WriteHeader(http.StatusOK)
		held := &holdLast{w: out}
		_, err = held.Write(res.Body)
		status, last = http.StatusOK, held.release
		sent.mark()
	default:
		for k, vs := range res.Header {
			w.Header()[k] = vs
		}
		status, last, err = writeHeld(w, out, http.StatusOK, res.JSON, render)
		sent.mark()
		if faulted {
			// A cut body breaks off before its last byte; a malformed one
			// has a stray byte in its place, so that it reads as invalid
			// JSON rather than as a body that broke off.
			last, cut = func() error { return nil }, plan.kind == string(scenario.FaultCut)
			if !cut {
				last = func() error { _, err := out.Write([]byte("]")); return err }
			}
		}
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
	plan.fired = faulted
	if res.Delivered != nil && (!faulted || plan.kind == scenario.FaultErrorEvent) {
		// A stream that fails with its error event is a whole answer, a
		// failed one; a cut or malformed one is not.
		res.Delivered()
	}
	return status, func() {
		if last() == nil {
			out.Flush()
		}
		release()
		if cut {
			abort(w, true)
		}
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

// writeEvents writes the events of a stream before event stop (its last,
// or where a fault fires) to out. A paced stream flushes each event, the
// first after the time to first token, the others spaced by the token
// rate, and then waits the gap before event stop, which deliver's finish
// writes. A stream stops between events when ctx ends. Each event written
// goes on sent.
func writeEvents(ctx context.Context, rt *runtime.Runtime, out *bufio.Writer, w http.ResponseWriter, s provider.EventStream,
	pacing runtime.StreamSettings, stop int, sent *sent) error {
	paced := pacing.Paced()
	flusher, _ := w.(http.Flusher)
	var gap time.Duration
	if pacing.TokensPerSecond > 0 {
		gap = time.Duration(float64(pacing.TokensPerChunk) / pacing.TokensPerSecond * float64(time.Second))
	}
	for i := range stop + 1 {
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
		if i == stop {
			return nil
		}
		if err := s.WriteEvent(out, i); err != nil {
			return err
		}
		sent.event()
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
