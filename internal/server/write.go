package server

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"os"
	"strings"

	"github.com/llmtestserver/llmtestserver/internal/openai"
)

// writeJSON writes v as the JSON body of a response with status.
func writeJSON(w http.ResponseWriter, status int, v any) error {
	status, body := marshalJSON(status, v)
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, err := w.Write(body)
	return err
}

// marshalJSON encodes v as the body of a response with status. A value that
// cannot be encoded is a fault of the server, answered as such.
func marshalJSON(status int, v any) (int, []byte) {
	body, err := json.Marshal(v)
	if err != nil {
		body, _ = json.Marshal(openai.ServerError()) // the error envelope always encodes
		return http.StatusInternalServerError, body
	}
	return status, body
}

// writeError writes e in OpenAI's error envelope with its extra headers.
func writeError(w http.ResponseWriter, e *openai.Error) error {
	for k, vs := range e.Header {
		w.Header()[k] = vs
	}
	return writeJSON(w, e.Status, e)
}

// startSSE sends the headers of an event stream.
func startSSE(w http.ResponseWriter) {
	h := w.Header()
	h.Set("Content-Type", "text/event-stream; charset=utf-8")
	h.Set("Cache-Control", "no-cache")
	w.WriteHeader(http.StatusOK)
}

// readBody reads a JSON request body of at most limit bytes. An absent
// Content-Type is accepted as JSON; any other non-JSON type is refused.
func readBody(r *http.Request, limit int64) ([]byte, *openai.Error) {
	if ct := r.Header.Get("Content-Type"); ct != "" && !isJSON(ct) {
		return nil, openai.UnsupportedContentType(ct)
	}
	if r.Body == nil {
		return nil, nil
	}
	// The body is read one byte past the limit, which tells a body that
	// is too large from one that fits exactly.
	body, err := io.ReadAll(io.LimitReader(r.Body, limit+1))
	if errors.Is(err, os.ErrDeadlineExceeded) {
		// The standalone server's body timeout passed, or the session was
		// deleted while the body was arriving.
		return nil, openai.StatusError(http.StatusRequestTimeout, "request_timeout", "",
			"The request body was not received in time.")
	}
	if err != nil {
		return nil, openai.InvalidJSON()
	}
	if int64(len(body)) > limit {
		return nil, openai.BodyTooLarge(limit)
	}
	return body, nil
}

func isJSON(contentType string) bool {
	mt, _, err := mime.ParseMediaType(contentType)
	return err == nil && (mt == "application/json" || strings.HasSuffix(mt, "+json"))
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

// headersTooLarge answers a request whose headers pass MaxHeaderBytes and
// reports whether it did.
func headersTooLarge(w http.ResponseWriter, r *http.Request) bool {
	n := len(r.Method) + len(r.RequestURI) + len(r.Proto) + 4
	for k, vs := range r.Header {
		for _, v := range vs {
			n += len(k) + len(v) + 4 // ": " and CRLF
		}
	}
	if n <= MaxHeaderBytes {
		return false
	}
	w.Header().Set("Connection", "close")
	writeError(w, openai.StatusError(http.StatusRequestHeaderFieldsTooLarge, "request_header_fields_too_large", "",
		fmt.Sprintf("The request's headers are %d bytes, more than the %d bytes this server accepts.", n, MaxHeaderBytes)))
	return true
}
