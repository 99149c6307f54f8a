package httpx

import (
	"math/rand/v2"
	"net/http"

	"github.com/llmtestserver/llmtestserver/internal/apierr"
	"github.com/llmtestserver/llmtestserver/internal/plainjson"
	"github.com/llmtestserver/llmtestserver/internal/provider"
)

// Renderer renders an error in an envelope: a codec's, or the admin API's.
// serial is the runtime's request number, for envelopes that carry a
// request ID (0 when no runtime was selected).
type Renderer func(e *apierr.Error, serial uint64) (status int, body any)

// WriteJSON writes v as the JSON body of a response with status. A value
// that cannot be encoded is a fault of the server, answered as render
// words it.
func WriteJSON(w http.ResponseWriter, status int, v any, render Renderer) error {
	status, body := marshalJSON(status, v, render)
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, err := w.Write(body)
	return err
}

// marshalJSON encodes v as the body of a response with status, without
// HTML escaping (see plainjson). A value that cannot be encoded is a fault
// of the server, answered as such.
func marshalJSON(status int, v any, render Renderer) (int, []byte) {
	body, err := plainjson.Marshal(v)
	if err != nil {
		status, v = render(apierr.Internal(), 0)
		body, _ = plainjson.Marshal(v) // an error envelope always encodes
		return status, body
	}
	return status, body
}

// WriteError writes e as render words it, with its extra headers.
func WriteError(w http.ResponseWriter, e *apierr.Error, serial uint64, render Renderer) error {
	for k, vs := range e.Header {
		w.Header()[k] = vs
	}
	status, body := render(e, serial)
	return WriteJSON(w, status, body, render)
}

// WriteCodecError writes e as codec words it, with the headers the codec
// sends with every response, for a request that reached no runtime (or
// one retired under it), which numbers none: it gets a serial of its own,
// drawn at random as runtimes draw their first, so that its request ID is
// as fresh as any other's.
func WriteCodecError(w http.ResponseWriter, e *apierr.Error, codec provider.Codec) error {
	serial := rand.Uint64()
	codec.SetHeaders(w.Header(), serial, 0)
	return WriteError(w, codec.Resolve(e), serial, codec.RenderError)
}

// startSSE sends the headers of an event stream.
func startSSE(w http.ResponseWriter) {
	h := w.Header()
	h.Set("Content-Type", "text/event-stream; charset=utf-8")
	h.Set("Cache-Control", "no-cache")
	// Chunked however short: net/http would give a stream that ends
	// before its buffer fills a Content-Length, which no provider sends
	// with a stream (audit B2).
	h.Set("Transfer-Encoding", "chunked")
	w.WriteHeader(http.StatusOK)
}

// MaxHeaderBytes bounds the size of a request's headers (request line
// included), answered with 431 in the error envelope: 1 MiB, net/http's
// default and so what the server always accepted. The HTTP server's own
// limit (its MaxHeaderBytes; HTTPMaxHeaderBytes) must stay above it:
// net/http rejects what passes that limit before any handler runs, with a
// plain-text 431. It likewise answers plain-text 400s, which no handler can
// intercept, for requests it cannot parse: a bare CR or a NUL in a header,
// an invalid header name, a malformed request line or chunked body.
const MaxHeaderBytes = 1 << 20

// HTTPMaxHeaderBytes is the MaxHeaderBytes the HTTP servers mounting the
// handler set, above MaxHeaderBytes.
const HTTPMaxHeaderBytes = 2 << 20

// HeadersTooLarge returns the error for a request whose headers pass
// MaxHeaderBytes, or nil.
func HeadersTooLarge(r *http.Request) *apierr.Error {
	n := len(r.Method) + len(r.RequestURI) + len(r.Proto) + 4
	for k, vs := range r.Header {
		for _, v := range vs {
			n += len(k) + len(v) + 4 // ": " and CRLF
		}
	}
	if n <= MaxHeaderBytes {
		return nil
	}
	return apierr.HeadersTooLarge(n, MaxHeaderBytes).WithHeader("Connection", "close")
}
