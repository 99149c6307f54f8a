package provider

import (
	"errors"
	"io"
	"mime"
	"net/http"
	"os"
	"strings"

	"github.com/llmtestserver/llmtestserver/internal/apierr"
)

// ReadBody reads a JSON request body of at most limit bytes. An absent
// Content-Type is accepted as JSON; any other non-JSON type is refused.
func ReadBody(r *http.Request, limit int64) ([]byte, *apierr.Error) {
	if ct := r.Header.Get("Content-Type"); ct != "" && !isJSON(ct) {
		return nil, apierr.UnsupportedContentType(ct)
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
		return nil, apierr.BodyTimeout()
	}
	if err != nil {
		// The body broke off: what arrived is not a JSON document.
		return nil, &apierr.Error{Status: http.StatusBadRequest, Code: errBodyUnreadable}
	}
	if int64(len(body)) > limit {
		return nil, apierr.BodyTooLarge(limit)
	}
	return body, nil
}

// errBodyUnreadable marks the error of a body that broke off, so that each
// codec answers it as its provider answers invalid JSON.
const errBodyUnreadable = "llm_test_server_body_unreadable"

// IsBodyUnreadable reports whether e is ReadBody's error for a body that
// broke off; codecs answer it with their invalid-JSON error.
func IsBodyUnreadable(e *apierr.Error) bool { return e != nil && e.Code == errBodyUnreadable }

func isJSON(contentType string) bool {
	mt, _, err := mime.ParseMediaType(contentType)
	return err == nil && (mt == "application/json" || strings.HasSuffix(mt, "+json"))
}

// ReadBody reads the request's JSON body within the server's limit.
func (x *Exchange) ReadBody() ([]byte, *apierr.Error) { return ReadBody(x.Request, x.MaxBody) }
