package memhttp_test

import (
	"bytes"
	"io"
	"log"
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/llmtestserver/llmtestserver/internal/memhttp"
)

// serveLogged is serve with the transport's panic log captured. The log is
// written before the client sees the aborted response, so the test reads
// it once its request has failed.
func serveLogged(t *testing.T, h http.HandlerFunc) (*http.Client, *bytes.Buffer) {
	t.Helper()
	client, tr := serve(t, h)
	var logged bytes.Buffer
	memhttp.SetErrorLog(tr, log.New(&logged, "", 0))
	return client, &logged
}

// A handler that panics before its headers fails RoundTrip with an error
// that says so, still an aborted connection (io.EOF), and the panic is
// logged with its stack, as net/http's server logs it.
func TestPanicBeforeHeadersIsLoggedAndNamed(t *testing.T) {
	client, logged := serveLogged(t, func(w http.ResponseWriter, r *http.Request) {
		panic("boom")
	})
	_, err := client.Get("http://x.invalid/")
	require.Error(t, err)
	assert.Contains(t, err.Error(), "the handler panicked: boom")
	assert.ErrorIs(t, err, io.EOF)
	assert.Contains(t, logged.String(), "http: panic serving "+memhttp.RemoteAddr+": boom\n")
	assert.Contains(t, logged.String(), "panic_test.go", "the stack shows where the handler panicked")
}

// A handler that panics after its headers ends the body with an error that
// says so, still an unexpected EOF, and the panic is logged.
func TestPanicAfterHeadersIsLoggedAndNamed(t *testing.T) {
	client, logged := serveLogged(t, func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, "data: one\n\n")
		w.(http.Flusher).Flush()
		panic("late boom")
	})
	resp, err := client.Get("http://x.invalid/")
	require.NoError(t, err)
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	assert.Equal(t, "data: one\n\n", string(b))
	require.Error(t, err)
	assert.Contains(t, err.Error(), "the handler panicked: late boom")
	assert.ErrorIs(t, err, io.ErrUnexpectedEOF)
	assert.Contains(t, logged.String(), "http: panic serving "+memhttp.RemoteAddr+": late boom\n")
}

// http.ErrAbortHandler aborts on purpose: net/http logs nothing for it, and
// neither does the transport; the client reads a plain aborted connection.
func TestAbortHandlerIsNotLogged(t *testing.T) {
	client, logged := serveLogged(t, func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/after" {
			w.(http.Flusher).Flush()
		}
		panic(http.ErrAbortHandler)
	})
	_, err := client.Get("http://x.invalid/before")
	require.Error(t, err)
	assert.NotContains(t, err.Error(), "panicked")
	resp, err := client.Get("http://x.invalid/after")
	require.NoError(t, err)
	defer resp.Body.Close()
	_, err = io.ReadAll(resp.Body)
	assert.Equal(t, io.ErrUnexpectedEOF, err)
	assert.Empty(t, logged.String())
}
