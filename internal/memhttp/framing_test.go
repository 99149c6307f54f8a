package memhttp_test

import (
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestNoContentHasNoBody(t *testing.T) {
	writeErr := make(chan error, 1)
	client, _ := serve(t, func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusNoContent)
		_, err := w.Write([]byte("x"))
		writeErr <- err
	})
	resp, err := client.Get("http://x.invalid/")
	require.NoError(t, err)
	defer resp.Body.Close()
	assert.Equal(t, http.StatusNoContent, resp.StatusCode)
	assert.Equal(t, http.NoBody, resp.Body)
	assert.ErrorIs(t, <-writeErr, http.ErrBodyNotAllowed)
}

func TestDeclaredContentLength(t *testing.T) {
	client, _ := serve(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Length", "10")
		_, err := w.Write([]byte("0123456789x"))
		assert.ErrorIs(t, err, http.ErrContentLength, "more than declared")
		io.WriteString(w, "01234") // then returns short
	})
	resp, err := client.Get("http://x.invalid/")
	require.NoError(t, err)
	defer resp.Body.Close()
	assert.Equal(t, int64(10), resp.ContentLength)
	b, err := io.ReadAll(resp.Body)
	assert.Equal(t, "01234", string(b))
	assert.ErrorIs(t, err, io.ErrUnexpectedEOF, "a body shorter than declared was cut")
}

func TestBodyOfUnknownLengthAndResponseController(t *testing.T) {
	seen := make(chan string, 1)
	client, _ := serve(t, func(w http.ResponseWriter, r *http.Request) {
		b, err := io.ReadAll(r.Body)
		assert.NoError(t, err)
		assert.Equal(t, int64(-1), r.ContentLength)
		assert.Equal(t, []string{"chunked"}, r.TransferEncoding)
		seen <- string(b)
		io.WriteString(w, "ok")
		assert.NoError(t, http.NewResponseController(w).Flush())
	})
	pr, pw := io.Pipe()
	go func() {
		io.WriteString(pw, "streamed ")
		io.WriteString(pw, "body")
		pw.Close()
	}()
	req, err := http.NewRequest("PUT", "http://x.invalid/upload", pr)
	require.NoError(t, err)
	resp, err := client.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	assert.Equal(t, "streamed body", <-seen)
	b, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	assert.Equal(t, "ok", string(b))
	assert.Equal(t, "text/plain; charset=utf-8", resp.Header.Get("Content-Type"))
}

func TestHandlerHeadersAfterWriteHeaderAreNotSent(t *testing.T) {
	client, _ := serve(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("X-Before", "1")
		w.Header()["Content-Type"] = nil // suppressed, as net/http does
		w.WriteHeader(http.StatusAccepted)
		w.Header().Set("X-After", "1")
		io.WriteString(w, strings.Repeat("a", 10))
	})
	resp, err := client.Get("http://x.invalid/")
	require.NoError(t, err)
	defer resp.Body.Close()
	assert.Equal(t, "1", resp.Header.Get("X-Before"))
	assert.Empty(t, resp.Header.Get("X-After"))
	_, typed := resp.Header["Content-Type"]
	assert.False(t, typed)
	assert.Equal(t, "10", resp.Header.Get("Content-Length"))
}
