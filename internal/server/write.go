package server

import (
	"encoding/json"
	"errors"
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
