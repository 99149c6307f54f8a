// Package memhttp serves HTTP requests by calling an http.Handler in
// memory, without a socket.
//
// A Transport is an http.RoundTripper: each request runs the handler in a
// goroutine of its own, which sees a server-side request as net/http builds
// it, and the client reads the response body through a bounded pipe, so a
// handler that writes faster than its client reads blocks as it would on a
// socket. RoundTrip returns once the handler has committed its headers (it
// flushed, wrote more than a small buffer, or returned). A handler that
// panics aborts its "connection"; a panic other than http.ErrAbortHandler
// is logged with its stack, as net/http's server logs it, and the client's
// error names it.
//
// Nothing here does I/O or starts a goroutine outside a request: a
// Transport created inside a testing/synctest bubble runs every handler on
// the bubble's virtual time, and an idle Transport keeps no goroutine
// awake.
//
// The package imports nothing of this module.
package memhttp
