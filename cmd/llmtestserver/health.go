package main

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"sync/atomic"
	"time"
)

// Paths of the probes the command answers itself, before the library's
// handler: no authorization, nothing journaled, nothing counted as a use
// of a session.
const (
	healthzPath = "/healthz" // 200 while the process serves
	readyzPath  = "/readyz"  // 200 while it accepts work, 503 once shutdown began
)

// probes answers /healthz and /readyz and hands every other request to
// next. stopping is set once shutdown begins.
func probes(stopping *atomic.Bool, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case healthzPath:
			writeProbe(w, http.StatusOK, "ok")
		case readyzPath:
			if stopping.Load() {
				writeProbe(w, http.StatusServiceUnavailable, "shutting_down")
			} else {
				writeProbe(w, http.StatusOK, "ready")
			}
		default:
			next.ServeHTTP(w, r)
		}
	})
}

// writeProbe answers a probe with {"status": status}.
func writeProbe(w http.ResponseWriter, code int, status string) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(code)
	fmt.Fprintf(w, "{\"status\":%q}\n", status)
}

// isProbe reports whether r is one of the probes, which the request log
// records below its default level (a container polls them all day).
func isProbe(r *http.Request) bool { return r.URL.Path == healthzPath || r.URL.Path == readyzPath }

// healthCheckTimeout bounds the whole health check.
const healthCheckTimeout = 5 * time.Second

// healthCheck GETs url and returns nil if it answers 200: the -health-check
// mode, which lets an image without a shell or curl run its HEALTHCHECK
// with the binary itself.
func healthCheck(ctx context.Context, url string) error {
	ctx, cancel := context.WithTimeout(ctx, healthCheckTimeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return fmt.Errorf("health check: %w", err)
	}
	transport := &http.Transport{DisableKeepAlives: true}
	defer transport.CloseIdleConnections()
	resp, err := (&http.Client{Transport: transport}).Do(req)
	if err != nil {
		return fmt.Errorf("health check: %w", err)
	}
	defer resp.Body.Close()
	io.Copy(io.Discard, io.LimitReader(resp.Body, 1<<10))
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("health check: %s answered %s", url, resp.Status)
	}
	return nil
}
