package memhttp

import (
	"errors"
	"fmt"
	"io"
	"os"
)

// ErrClosed is what a handler's writes return, and its context's cause,
// once the Transport is closed; RoundTrip returns it for requests made
// after Close or Shutdown.
var ErrClosed = errors.New("memhttp: transport closed")

// errClientGone is what a handler's writes return, and its context's cause,
// once its client has left: it cancelled its request or closed the body
// before its end, as a socket's peer resets the connection.
var errClientGone = errors.New("memhttp: client closed the connection")

// errWriteAfterEnd is a write after the handler's body was ended.
var errWriteAfterEnd = errors.New("memhttp: write after the response ended")

// errBodyClosed is a client's read of a response body it closed, in
// net/http's words.
var errBodyClosed = errors.New("http: read on closed response body")

// errRequestBodyClosed is a handler's read of a request body it closed.
var errRequestBodyClosed = errors.New("http: invalid Read on closed Body")

// errDeadline is what reads and writes return once their deadline has
// passed, as on a net.Conn.
var errDeadline = os.ErrDeadlineExceeded

// errNoURL is a request without a URL, as net/http's transport refuses it.
var errNoURL = errors.New("memhttp: nil Request.URL")

// errUnexpectedEOF is what a client reads from a body whose "connection"
// was cut, as net/http's chunked reader reports it.
var errUnexpectedEOF = io.ErrUnexpectedEOF

// handlerPanic is what a client gets from a handler that panicked by
// mistake: the aborted connection it reads (io.EOF before the headers,
// io.ErrUnexpectedEOF after), which errors.Is still finds, with the
// panic's value, which net/http's client could not know.
type handlerPanic struct {
	value any
	cut   error
}

func (e *handlerPanic) Error() string {
	return fmt.Sprintf("memhttp: the handler panicked: %v (the connection was cut: %v)", e.value, e.cut)
}

func (e *handlerPanic) Unwrap() error { return e.cut }
