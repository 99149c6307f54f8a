package memhttp

import (
	"io"
	"net/http"
	"strconv"
	"sync"
	"time"
)

// bufferSize is how many body bytes a handler may write before its headers
// are committed, as net/http's response buffer holds about 4 KiB.
const bufferSize = 4 << 10

// responseWriter is the http.ResponseWriter a handler writes to. Like
// net/http's, it is used by the handler's goroutine only, except its
// deadlines, which another goroutine may set (http.ResponseController).
type responseWriter struct {
	ex          *exchange
	req         *http.Request
	header      http.Header // the handler's header map
	sent        http.Header // the header as of WriteHeader
	status      int
	wroteHeader bool
	committed   bool   // the client has its response
	buf         []byte // body written before the commit
	written     int64  // body bytes accepted
	declared    int64  // the Content-Length the handler set, or -1
	err         error  // sticky: a write failed, the connection is broken
}

// Header returns the header map that WriteHeader sends.
func (w *responseWriter) Header() http.Header { return w.header }

// WriteHeader sends the status as net/http does: the first call wins,
// informational codes (1xx) other than 101 are not final and are dropped,
// since clients do not see them.
func (w *responseWriter) WriteHeader(code int) {
	if w.wroteHeader {
		return
	}
	if code < 100 || code > 999 {
		panic("invalid WriteHeader code " + strconv.Itoa(code))
	}
	if code < 200 && code != http.StatusSwitchingProtocols {
		return
	}
	w.wroteHeader, w.status = true, code
	w.sent = w.header.Clone()
	if cl := w.sent.Get("Content-Length"); cl != "" {
		if n, err := strconv.ParseInt(cl, 10, 64); err == nil && n >= 0 {
			w.declared = n
		} else {
			w.sent.Del("Content-Length")
		}
	}
}

// Write writes body bytes: into the response buffer until the headers are
// committed, then to the client, blocking while the client has not read
// what came before.
func (w *responseWriter) Write(p []byte) (int, error) {
	if !w.wroteHeader {
		w.WriteHeader(http.StatusOK)
	}
	if len(p) == 0 {
		return 0, nil
	}
	if !bodyAllowed(w.status) {
		return 0, http.ErrBodyNotAllowed
	}
	if w.err != nil {
		return 0, w.err
	}
	if w.declared >= 0 && w.written+int64(len(p)) > w.declared {
		return 0, http.ErrContentLength
	}
	w.written += int64(len(p))
	if w.req.Method == http.MethodHead {
		return len(p), nil
	}
	if !w.committed {
		w.buf = append(w.buf, p...)
		if len(w.buf) > bufferSize {
			w.commit(false)
			w.flushBuffer()
		}
		return len(p), w.err
	}
	n, err := w.ex.pipe.write(p, w.ex.wd.done())
	if err != nil {
		w.err = err
	}
	return n, err
}

// Flush commits the headers and sends what is buffered.
func (w *responseWriter) Flush() { w.FlushError() }

// FlushError is Flush, reporting a broken connection; http.ResponseController
// prefers it.
func (w *responseWriter) FlushError() error {
	if !w.wroteHeader {
		w.WriteHeader(http.StatusOK)
	}
	if !w.committed {
		w.commit(false)
	}
	w.flushBuffer()
	return w.err
}

// SetReadDeadline bounds the handler's reads of the request body; a time in
// the past fails them at once, even one blocked on the client.
func (w *responseWriter) SetReadDeadline(t time.Time) error {
	w.ex.rd.set(t)
	return nil
}

// SetWriteDeadline bounds the handler's writes: one still blocked on a
// client that does not read fails when it passes.
func (w *responseWriter) SetWriteDeadline(t time.Time) error {
	w.ex.wd.set(t)
	return nil
}

// EnableFullDuplex is accepted: a handler may always read the request body
// while it writes.
func (w *responseWriter) EnableFullDuplex() error { return nil }

func (w *responseWriter) flushBuffer() {
	if len(w.buf) == 0 || w.err != nil {
		w.buf = nil
		return
	}
	if _, err := w.ex.pipe.write(w.buf, w.ex.wd.done()); err != nil {
		w.err = err
	}
	w.buf = nil
}

// commit hands the client its response. final says that the handler has
// returned, so that the buffered body is all of it and its length known.
func (w *responseWriter) commit(final bool) {
	w.committed = true
	h := w.sent
	_, haveType := h["Content-Type"]
	_, haveDate := h["Date"]
	for k, v := range h {
		if len(v) == 0 {
			delete(h, k) // a nil value suppresses a header, as net/http does
		}
	}
	bodyOK := bodyAllowed(w.status)
	head := w.req.Method == http.MethodHead
	if !haveDate {
		h.Set("Date", time.Now().UTC().Format(http.TimeFormat))
	}
	if !haveType && bodyOK && len(w.buf) > 0 {
		h.Set("Content-Type", http.DetectContentType(w.buf))
	}
	chunked := h.Get("Transfer-Encoding") == "chunked"
	h.Del("Transfer-Encoding")
	length := int64(-1)
	switch {
	case !bodyOK:
		length = 0
	case w.declared >= 0:
		length = w.declared
	case final && !chunked && !head:
		length = int64(len(w.buf))
		h.Set("Content-Length", strconv.FormatInt(length, 10))
	}
	resp := &http.Response{
		Status:        strconv.Itoa(w.status) + " " + http.StatusText(w.status),
		StatusCode:    w.status,
		Proto:         "HTTP/1.1",
		ProtoMajor:    1,
		ProtoMinor:    1,
		Header:        h,
		ContentLength: length,
		Request:       w.ex.creq,
	}
	if !bodyOK || head {
		resp.Body = http.NoBody
		w.ex.pipe.closeWrite(io.EOF)
	} else {
		resp.Body = &responseBody{ex: w.ex}
		if length < 0 {
			resp.TransferEncoding = []string{"chunked"}
		}
	}
	w.ex.resp = resp
	close(w.ex.ready)
}

// finish ends the response of a handler that returned.
func (w *responseWriter) finish() {
	if !w.wroteHeader {
		w.WriteHeader(http.StatusOK)
	}
	if !w.committed {
		w.commit(true)
	}
	w.flushBuffer()
	short := w.declared >= 0 && w.written < w.declared && bodyAllowed(w.status) && w.req.Method != http.MethodHead
	if w.err != nil || short {
		// net/http closes a connection it could not finish the body on.
		w.ex.pipe.closeWrite(errUnexpectedEOF)
		return
	}
	w.ex.pipe.closeWrite(io.EOF)
}

// abort cuts the "connection" of a handler that panicked: before the
// headers, the client's RoundTrip fails with io.EOF, as net/http's does
// when the server closes a connection without answering; after, its body
// reads end with io.ErrUnexpectedEOF. panicked is the value of a panic the
// client's error names (see handlerPanic), nil for a deliberate abort.
func (w *responseWriter) abort(panicked any) {
	cut := func(err error) error {
		if panicked == nil {
			return err
		}
		return &handlerPanic{value: panicked, cut: err}
	}
	if !w.committed {
		w.committed = true
		w.ex.err = cut(io.EOF)
		close(w.ex.ready)
		return
	}
	w.ex.pipe.closeWrite(cut(errUnexpectedEOF))
}

// bodyAllowed says whether a response with status may have a body.
func bodyAllowed(status int) bool {
	return status >= 200 && status != http.StatusNoContent && status != http.StatusNotModified
}

// responseBody is the body the client reads.
type responseBody struct {
	ex *exchange

	mu     sync.Mutex
	closed bool // guarded by mu
	ended  bool // guarded by mu; a read returned the body's end
}

// Read reads what the handler wrote.
func (b *responseBody) Read(p []byte) (int, error) {
	b.mu.Lock()
	closed := b.closed
	b.mu.Unlock()
	if closed {
		return 0, errBodyClosed
	}
	n, err := b.ex.pipe.read(p)
	if err != nil {
		b.mu.Lock()
		b.ended = true
		b.mu.Unlock()
	}
	return n, err
}

// Close closes the body; before its end, that cancels the handler's
// context and fails its writes, as closing a connection would.
func (b *responseBody) Close() error {
	b.mu.Lock()
	wasClosed, ended := b.closed, b.ended
	b.closed = true
	b.mu.Unlock()
	if !wasClosed && !ended {
		b.ex.leave(errBodyClosed)
	}
	return nil
}
