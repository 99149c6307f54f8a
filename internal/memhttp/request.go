package memhttp

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"sync"
)

// RemoteAddr is the RemoteAddr of every request a handler sees: an address
// of TEST-NET-1 (RFC 5737), which no real peer has.
const RemoteAddr = "192.0.2.1:1234"

// serverRequest builds the request a handler sees from a client's request,
// as net/http's server would read it off the wire: path and query only in
// URL, RequestURI, Host, HTTP/1.1, the headers as the client transport sends
// them, and a body that honours the read deadline.
func serverRequest(ctx context.Context, creq *http.Request, body *requestBody) (*http.Request, error) {
	uri := creq.URL.RequestURI()
	u, err := url.ParseRequestURI(uri)
	if err != nil {
		return nil, err
	}
	host := creq.Host
	if host == "" {
		host = creq.URL.Host
	}
	if host == "" {
		return nil, errors.New("memhttp: no Host in request URL")
	}
	method := creq.Method
	if method == "" {
		method = http.MethodGet
	}
	header := creq.Header.Clone()
	if header == nil {
		header = http.Header{}
	}
	delete(header, "Host")
	if _, ok := header["User-Agent"]; !ok {
		header.Set("User-Agent", "Go-http-client/1.1")
	}
	sreq := &http.Request{
		Method:     method,
		URL:        u,
		Proto:      "HTTP/1.1",
		ProtoMajor: 1,
		ProtoMinor: 1,
		Header:     header,
		Host:       host,
		RemoteAddr: RemoteAddr,
		RequestURI: uri,
	}
	switch {
	case body == nil:
		sreq.Body = http.NoBody
		if method == http.MethodPost || method == http.MethodPut || method == http.MethodPatch {
			header.Set("Content-Length", "0")
		}
	case creq.ContentLength > 0:
		sreq.Body, sreq.ContentLength = body, creq.ContentLength
		body.remaining = creq.ContentLength
		header.Set("Content-Length", strconv.FormatInt(creq.ContentLength, 10))
	default:
		// Unknown length: net/http's client sends it chunked.
		sreq.Body, sreq.ContentLength = body, -1
		sreq.TransferEncoding = []string{"chunked"}
		body.remaining = -1
	}
	return sreq.WithContext(ctx), nil
}

// hasBody says whether the client's request has a body to send.
func hasBody(creq *http.Request) bool {
	return creq.Body != nil && creq.Body != http.NoBody
}

// requestBody is the body a handler reads: the client's body, read in the
// handler's goroutine, cut off once the read deadline passes or the
// exchange ends (which closes the client's body, so that a read blocked on
// it returns, as net/http's transport does).
type requestBody struct {
	src       io.ReadCloser
	rd        *deadline
	remaining int64 // bytes of Content-Length left, -1 when unknown

	mu        sync.Mutex
	closed    bool // guarded by mu; the handler closed the body
	closeOnce sync.Once
}

// Read reads the client's body within its Content-Length.
func (b *requestBody) Read(p []byte) (int, error) {
	b.mu.Lock()
	closed := b.closed
	b.mu.Unlock()
	if closed {
		return 0, errRequestBodyClosed
	}
	expired := b.rd.done()
	if isClosed(expired) {
		return 0, errDeadline
	}
	if b.remaining == 0 {
		return 0, io.EOF
	}
	if b.remaining > 0 && int64(len(p)) > b.remaining {
		p = p[:b.remaining]
	}
	n, err := b.src.Read(p)
	if b.remaining > 0 {
		b.remaining -= int64(n)
		if b.remaining == 0 && err == nil {
			// net/http's transport reads a body to its end, past its
			// Content-Length, so the client's body sees its EOF here too.
			var probe [1]byte
			b.src.Read(probe[:])
			err = io.EOF
		}
	}
	if isClosed(expired) {
		return n, errDeadline
	}
	if err == io.EOF && b.remaining > 0 {
		err = io.ErrUnexpectedEOF
	}
	return n, err
}

// Close stops the handler's reads; the client's body is closed once the
// exchange ends.
func (b *requestBody) Close() error {
	b.mu.Lock()
	b.closed = true
	b.mu.Unlock()
	return nil
}

// closeSource closes the client's body, once.
func (b *requestBody) closeSource() {
	b.closeOnce.Do(func() { b.src.Close() })
}
