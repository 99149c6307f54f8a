package provider

import (
	"bytes"
	"context"
	"errors"
	"net/http"
	"strings"
)

// A batch's lines are answered one by one as if each were sent alone: each
// is a request of its own, run through the whole server (its session, its
// key, the journal, the rate limits, the chaos rules, the scenarios), so
// that a line gets exactly what the same request sent alone would get, and
// the journal shows it as such, with its batch and custom ID.

// Line names the batch line a subrequest answers.
type Line struct {
	// Job is the batch's ID, and CustomID the line's own.
	Job, CustomID string
}

type lineKey struct{}

// LineOf returns the batch line the request of ctx answers, if it is one.
// Only Dispatch makes such a request: no header can claim to be one.
func LineOf(ctx context.Context) (Line, bool) {
	l, ok := ctx.Value(lineKey{}).(Line)
	return l, ok
}

// Answered is what a subrequest got.
type Answered struct {
	Status int
	Header http.Header
	Body   []byte
}

// ErrAnswerTooLarge is Dispatch's error for an answer past its bound.
var ErrAnswerTooLarge = errors.New("provider: the line's answer is past its bound")

// headersNotCopied are the headers of the batch's own request that its
// lines do not send: they frame or key that one request.
var headersNotCopied = []string{"Content-Length", "Content-Type", "Content-Encoding", "Accept", "Accept-Encoding",
	"Idempotency-Key", "Transfer-Encoding", "Connection"}

// Dispatch answers one line of a batch: a request with method, path and
// a JSON body, with the headers of x's request that authenticate it and
// select its session, served by x's server. An answer past maxAnswer
// bytes is cut and reported with ErrAnswerTooLarge; a line whose answer
// was aborted (a drop or cut fault) has status 0. It returns at once
// when x's request is gone.
func Dispatch(x *Exchange, method, path string, body []byte, line Line, maxAnswer int64) (Answered, error) {
	if x.Dispatcher == nil {
		return Answered{}, errors.New("provider: this exchange has no dispatcher")
	}
	if err := x.Ctx.Err(); err != nil {
		return Answered{}, err
	}
	ctx := context.WithValue(x.Ctx, lineKey{}, line)
	r, err := http.NewRequestWithContext(ctx, method, path, bytes.NewReader(body))
	if err != nil {
		return Answered{}, err
	}
	r.Header = x.Request.Header.Clone()
	for _, h := range headersNotCopied {
		r.Header.Del(h)
	}
	r.Header.Set("Content-Type", "application/json")
	r.Host, r.RemoteAddr = x.Request.Host, x.Request.RemoteAddr
	rec := &recorder{header: http.Header{}, max: maxAnswer}
	aborted := serveRecovering(x.Dispatcher, rec, r)
	if aborted {
		return Answered{Header: rec.header}, nil
	}
	if rec.status == 0 {
		rec.status = http.StatusOK
	}
	a := Answered{Status: rec.status, Header: rec.header, Body: rec.body.Bytes()}
	if rec.over {
		return a, ErrAnswerTooLarge
	}
	return a, nil
}

// serveRecovering serves r, and reports whether the handler aborted it as
// a fault aborts a connection (http.ErrAbortHandler); other panics go on.
func serveRecovering(h http.Handler, w http.ResponseWriter, r *http.Request) (aborted bool) {
	defer func() {
		if p := recover(); p != nil {
			if p != http.ErrAbortHandler {
				panic(p)
			}
			aborted = true
		}
	}()
	h.ServeHTTP(w, r)
	return false
}

// recorder keeps a subrequest's answer, within max bytes.
type recorder struct {
	header http.Header
	status int
	body   bytes.Buffer
	max    int64
	over   bool
}

func (w *recorder) Header() http.Header { return w.header }

func (w *recorder) WriteHeader(status int) {
	if w.status == 0 {
		w.status = status
	}
}

func (w *recorder) Write(p []byte) (int, error) {
	w.WriteHeader(http.StatusOK)
	if room := w.max - int64(w.body.Len()); int64(len(p)) > room {
		w.body.Write(p[:max(room, 0)])
		w.over = true
		return len(p), nil
	}
	return w.body.Write(p)
}

// Flush lets the core flush a line's answer as it does any answer.
func (w *recorder) Flush() {}

// IsJSON reports whether the answer a carries is JSON by its
// Content-Type.
func (a *Answered) IsJSON() bool {
	return strings.HasPrefix(a.Header.Get("Content-Type"), "application/json")
}
