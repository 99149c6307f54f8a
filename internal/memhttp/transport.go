package memhttp

import (
	"context"
	"log"
	"net/http"
	"runtime"
	"sync"
)

// Transport is an http.RoundTripper that serves every request by calling
// its handler in memory. Every URL reaches the handler, whatever its host.
// It is safe for concurrent use. Create it with New.
type Transport struct {
	handler  http.Handler
	errorLog *log.Logger // where handler panics are logged; nil for the log package's standard logger

	mu     sync.Mutex
	closed bool                   // guarded by mu; no new request is served
	active map[*exchange]struct{} // guarded by mu; the requests whose handler runs
	idle   chan struct{}          // guarded by mu; closed while active is empty
	wg     sync.WaitGroup         // counts the handlers running
}

// New returns a Transport that serves requests with h.
func New(h http.Handler) *Transport {
	idle := make(chan struct{})
	close(idle)
	return &Transport{handler: h, active: make(map[*exchange]struct{}), idle: idle}
}

// RoundTrip runs the handler for req and returns its response as soon as
// the handler has committed its headers. The body then streams what the
// handler writes. Closing it before its end, or ending req's context,
// cancels the handler's context and fails its writes.
func (t *Transport) RoundTrip(req *http.Request) (*http.Response, error) {
	ex, err := t.start(req)
	if err != nil {
		if hasBody(req) {
			req.Body.Close()
		}
		return nil, err
	}
	select {
	case <-ex.ready:
		return ex.resp, ex.err
	case <-req.Context().Done():
		ex.clientGone()
		return nil, req.Context().Err()
	}
}

// start registers an exchange for req and runs its handler.
func (t *Transport) start(req *http.Request) (*exchange, error) {
	if req.URL == nil {
		return nil, errNoURL
	}
	ex := newExchange(t, req)
	sreq, err := serverRequest(ex.ctx, req, ex.body)
	if err != nil {
		ex.cancel(err)
		return nil, err
	}
	ex.w.req = sreq
	t.mu.Lock()
	if t.closed {
		t.mu.Unlock()
		ex.cancel(ErrClosed)
		return nil, ErrClosed
	}
	if len(t.active) == 0 {
		t.idle = make(chan struct{})
	}
	t.active[ex] = struct{}{}
	t.wg.Add(1)
	t.mu.Unlock()
	ex.stopWatch = context.AfterFunc(req.Context(), ex.clientGone)
	go t.serve(ex, sreq)
	return ex, nil
}

// serve runs the handler and ends the exchange.
func (t *Transport) serve(ex *exchange, sreq *http.Request) {
	defer t.wg.Done()
	defer t.remove(ex)
	ex.serve(sreq)
}

func (t *Transport) remove(ex *exchange) {
	t.mu.Lock()
	defer t.mu.Unlock()
	delete(t.active, ex)
	if len(t.active) == 0 {
		close(t.idle)
	}
}

// logPanic logs a handler's panic with the stack of its goroutine, in
// net/http's server's words, to errorLog or else the standard logger, as
// net/http logs to its Server's ErrorLog. The caller is the deferred
// function that recovered p, so the stack still shows where it panicked.
func (t *Transport) logPanic(sreq *http.Request, p any) {
	const size = 64 << 10 // as net/http
	buf := make([]byte, size)
	buf = buf[:runtime.Stack(buf, false)]
	const format = "http: panic serving %v: %v\n%s"
	if t.errorLog != nil {
		t.errorLog.Printf(format, sreq.RemoteAddr, p, buf)
	} else {
		log.Printf(format, sreq.RemoteAddr, p, buf)
	}
}

// Shutdown refuses new requests with ErrClosed and waits until no handler
// runs or ctx ends, whichever comes first; it returns ctx's error in the
// second case. The handlers still running keep running: Close ends them.
func (t *Transport) Shutdown(ctx context.Context) error {
	t.mu.Lock()
	t.closed = true
	idle := t.idle
	t.mu.Unlock()
	select {
	case <-idle:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// Close refuses new requests, ends every request in flight (the handlers'
// writes and body reads fail with ErrClosed, their contexts are cancelled,
// their clients read io.ErrUnexpectedEOF) and waits for their handlers to
// return. It is idempotent.
func (t *Transport) Close() {
	t.mu.Lock()
	t.closed = true
	active := make([]*exchange, 0, len(t.active))
	for ex := range t.active {
		active = append(active, ex)
	}
	t.mu.Unlock()
	for _, ex := range active {
		ex.shutdown()
	}
	t.wg.Wait()
}
