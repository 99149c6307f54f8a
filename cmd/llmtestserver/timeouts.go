package main

import (
	"io"
	"net/http"
	"time"
)

// timeouts bound how long one client can hold a connection of the
// standalone server without making progress.
//
// net/http's own ReadTimeout and WriteTimeout do not fit an LLM fake: they
// run from the request's start, so they would cut off delayed replies and
// long paced streams, and a ReadTimeout also cancels the context of a
// request still being answered once it passes. Instead the body gets a
// deadline of its own that ends when it has been read, and every write of
// the answer gets its own deadline, so a stream may last as long as it keeps
// flowing while a client that stops reading is cut off.
type timeouts struct {
	body  time.Duration // reading the request body; 0 means no limit
	write time.Duration // each write of the answer; 0 means no limit
}

// wrap returns h with the timeouts applied.
func (t timeouts) wrap(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rc := http.NewResponseController(w)
		if t.body > 0 && r.Body != nil && r.Body != http.NoBody {
			rc.SetReadDeadline(time.Now().Add(t.body))
			r.Body = &deadlineBody{ReadCloser: r.Body, rc: rc}
		}
		if t.write > 0 {
			dw := &deadlineWriter{ResponseWriter: w, rc: rc, d: t.write}
			dw.extend(time.Now())
			w = dw
		}
		h.ServeHTTP(w, r)
	})
}

// deadlineBody lifts the body's read deadline once the body is read
// whole: net/http then reads on in the background to notice a client that
// leaves, and a deadline passing there would cancel the request.
type deadlineBody struct {
	io.ReadCloser
	rc   *http.ResponseController
	done bool
}

func (b *deadlineBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	if err == io.EOF && !b.done {
		b.done = true
		b.rc.SetReadDeadline(time.Time{})
	}
	return n, err
}

// deadlineWriter gives every write and flush of the answer d to complete.
// Setting a deadline costs a trip to the runtime's timers, so the deadline
// is moved only once a quarter of d has passed since it was last set: a
// write that blocks still ends between 3/4 d and d after it started.
type deadlineWriter struct {
	http.ResponseWriter
	rc    *http.ResponseController
	d     time.Duration
	setAt time.Time // when the deadline was last set, to setAt + d
}

// extend moves the deadline to now + d unless it was set less than d/4 ago.
func (w *deadlineWriter) extend(now time.Time) {
	if now.Sub(w.setAt) < w.d/4 {
		return
	}
	w.setAt = now
	w.rc.SetWriteDeadline(now.Add(w.d))
}

func (w *deadlineWriter) Write(p []byte) (int, error) {
	w.extend(time.Now())
	return w.ResponseWriter.Write(p)
}

// Flush flushes a paced stream's events, under the same deadline.
func (w *deadlineWriter) Flush() {
	w.extend(time.Now())
	w.rc.Flush()
}

// Unwrap lets http.ResponseController reach the connection.
func (w *deadlineWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }
