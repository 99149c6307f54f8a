package memhttp

import (
	"context"
	"net/http"
)

// exchange is one request in flight: the handler's side (its context, the
// request body, the response writer and its deadlines) and the client's
// (the committed response, or the error RoundTrip returns).
type exchange struct {
	t      *Transport
	creq   *http.Request // the client's request
	ctx    context.Context
	cancel context.CancelCauseFunc
	body   *requestBody // nil when the request has none
	pipe   *pipe
	rd, wd deadline
	w      *responseWriter

	// ready is closed once resp or err is set, by the handler's goroutine.
	ready chan struct{}
	resp  *http.Response
	err   error

	// stopWatch stops watching the client's context.
	stopWatch func() bool
}

func newExchange(t *Transport, creq *http.Request) *exchange {
	// Not derived from the client's context: a handler sees none of the
	// client's values, and its context ends when the "connection" does.
	ctx, cancel := context.WithCancelCause(context.Background())
	ex := &exchange{t: t, creq: creq, ctx: ctx, cancel: cancel, pipe: newPipe(), ready: make(chan struct{})}
	if hasBody(creq) {
		ex.body = &requestBody{src: creq.Body, rd: &ex.rd}
		// A read blocked on the client's body returns once it is closed.
		ex.rd.onPass = ex.body.closeSource
	}
	ex.w = &responseWriter{ex: ex, header: http.Header{}, declared: -1}
	return ex
}

// serve runs the handler, then ends the response: cleanly if the handler
// returned, as an aborted connection if it panicked or exited its
// goroutine. A panic other than http.ErrAbortHandler (which aborts on
// purpose) is a bug of the server: it is logged with its stack, as
// net/http's server logs it, and the client's error names it, so that in
// memory it does not become an unexplained EOF.
func (ex *exchange) serve(sreq *http.Request) {
	returned := false
	defer func() {
		// Compared, not matched with errors.Is: net/http keeps quiet only
		// for http.ErrAbortHandler itself.
		switch p := recover(); {
		case p == nil && returned:
			ex.w.finish()
		case p == nil || p == http.ErrAbortHandler:
			ex.w.abort(nil)
		default:
			ex.t.logPanic(sreq, p)
			ex.w.abort(p)
		}
		ex.cancel(nil)
		ex.stopWatch()
		ex.rd.stop()
		ex.wd.stop()
		if ex.body != nil {
			ex.body.closeSource()
		}
	}()
	ex.t.handler.ServeHTTP(ex.w, sreq)
	returned = true
}

// clientGone ends the exchange because the client's context ended: the
// handler's context is cancelled, its writes fail, and reads of the
// response return the context's error.
func (ex *exchange) clientGone() {
	ex.leave(ex.creq.Context().Err())
}

// leave ends the exchange from the client's side; the client's reads of
// the response return readErr.
func (ex *exchange) leave(readErr error) {
	ex.cancel(errClientGone)
	ex.pipe.fail(readErr, errClientGone)
	if ex.body != nil {
		ex.body.closeSource()
	}
}

// shutdown ends the exchange because the transport closes.
func (ex *exchange) shutdown() {
	ex.cancel(ErrClosed)
	ex.pipe.fail(errUnexpectedEOF, ErrClosed)
	if ex.body != nil {
		ex.body.closeSource()
	}
}
