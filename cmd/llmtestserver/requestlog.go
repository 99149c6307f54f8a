package main

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"strings"
	"time"

	"github.com/llmtestserver/llmtestserver/session"
)

// newLogger returns the slog logger of format ("text" or "json") writing
// to w, or nil for "off".
func newLogger(format string, w io.Writer) *slog.Logger {
	switch format {
	case "text":
		return slog.New(slog.NewTextHandler(w, nil))
	case "json":
		return slog.New(slog.NewJSONHandler(w, nil))
	default:
		return nil
	}
}

// maxLoggedSessionID bounds the session IDs the log prints: a real one is
// "sess_" and a UUID.
const maxLoggedSessionID = 64

// requestLog logs one record per request served by next, once it is over:
// its method, path, status, the bytes of the answer's body, how long it
// took and the session its headers select. What it prints is chosen so
// that it never holds a secret: the path without its query string (where
// a client may put api-key or key), no header but the session ID (IDs
// name sessions, keys authorize them), and a session ID only if it looks
// like one, so that a key sent in the wrong header is not printed either.
// The probes are logged at debug level, below the default.
func requestLog(log *slog.Logger, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		lw := &loggingWriter{ResponseWriter: w}
		defer func() {
			// A fault that aborts the connection panics with
			// http.ErrAbortHandler: the request is logged all the same.
			p := recover()
			attrs := []slog.Attr{
				slog.String("method", r.Method),
				slog.String("path", r.URL.Path),
				slog.Int("status", lw.status),
				slog.Int64("bytes", lw.bytes),
				slog.Duration("duration", time.Since(start)),
			}
			if id := r.Header.Get(session.HeaderSession); strings.HasPrefix(id, "sess_") && len(id) <= maxLoggedSessionID {
				attrs = append(attrs, slog.String("session", id))
			}
			if p != nil {
				attrs = append(attrs, slog.Bool("aborted", true))
			}
			level := slog.LevelInfo
			if isProbe(r) {
				level = slog.LevelDebug
			}
			log.LogAttrs(context.Background(), level, "request", attrs...)
			if p != nil {
				panic(p)
			}
		}()
		next.ServeHTTP(lw, r)
	})
}

// loggingWriter counts what a handler writes and keeps its status.
type loggingWriter struct {
	http.ResponseWriter
	status int   // 0 until the header is written
	bytes  int64 // of the body
}

func (w *loggingWriter) WriteHeader(code int) {
	if w.status < 200 { // 1xx headers come before the final one
		w.status = code
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *loggingWriter) Write(p []byte) (int, error) {
	if w.status == 0 {
		w.status = http.StatusOK
	}
	n, err := w.ResponseWriter.Write(p)
	w.bytes += int64(n)
	return n, err
}

// Flush flushes a paced stream's events: the handler finds http.Flusher
// by a type assertion.
func (w *loggingWriter) Flush() {
	if w.status == 0 {
		w.status = http.StatusOK
	}
	http.NewResponseController(w.ResponseWriter).Flush()
}

// Unwrap lets http.ResponseController reach the connection, for the
// timeouts' deadlines.
func (w *loggingWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }
