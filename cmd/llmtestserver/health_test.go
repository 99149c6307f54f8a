package main

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// /healthz and /readyz answer without authorization, before the library:
// nothing reaches the default runtime's journal.
func TestRunHealthRoutes(t *testing.T) {
	t.Parallel()
	in := start(t, nil, nil, true)
	for path, want := range map[string]string{"/healthz": "ok", "/readyz": "ready"} {
		r := do(t, http.MethodGet, in.url+path, nil, "")
		require.Equal(t, http.StatusOK, r.status, path)
		assert.Equal(t, "application/json", r.header.Get("Content-Type"))
		var body struct{ Status string }
		require.NoError(t, json.Unmarshal(r.body, &body), path)
		assert.Equal(t, want, body.Status, path)
	}
	r := do(t, http.MethodGet, in.url+"/admin-api/journal", bearer(in.key), "")
	require.Equal(t, http.StatusOK, r.status)
	assert.JSONEq(t, `[]`, string(mustField(t, r.body, "data")), "the probes are not journaled")

	require.NoError(t, run(context.Background(), []string{"-health-check", in.url + "/healthz"}, env(nil), io.Discard, io.Discard))
	err := run(context.Background(), []string{"-health-check", in.url + "/v1/nowhere"}, env(nil), io.Discard, io.Discard)
	assert.ErrorContains(t, err, "answered 401")
	in.stop(t)

	err = run(context.Background(), []string{"-health-check", in.url + "/healthz"}, env(nil), io.Discard, io.Discard)
	assert.Error(t, err, "a server that is gone is not healthy")
}

// mustField returns the raw JSON of field in the object body.
func mustField(t *testing.T, body []byte, field string) json.RawMessage {
	t.Helper()
	var obj map[string]json.RawMessage
	require.NoError(t, json.Unmarshal(body, &obj), string(body))
	return obj[field]
}

// Once shutdown began, /readyz answers 503 while /healthz still answers
// 200; other requests go on to the handler.
func TestProbesDuringShutdown(t *testing.T) {
	t.Parallel()
	var stopping atomic.Bool
	h := probes(&stopping, http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.WriteHeader(http.StatusTeapot)
	}))
	status := func(path string) int {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, path, nil))
		return rec.Code
	}
	assert.Equal(t, http.StatusOK, status("/readyz"))
	stopping.Store(true)
	assert.Equal(t, http.StatusServiceUnavailable, status("/readyz"))
	assert.Equal(t, http.StatusOK, status("/healthz"))
	assert.Equal(t, http.StatusTeapot, status("/v1/models"))
}
