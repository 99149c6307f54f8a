package memhttp_test

import (
	"bufio"
	"context"
	"errors"
	"io"
	"net/http"
	"os"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/llmtestserver/llmtestserver/internal/memhttp"
)

// serve returns a client whose transport serves requests with h; the test's
// cleanup closes it.
func serve(t *testing.T, h http.HandlerFunc) (*http.Client, *memhttp.Transport) {
	t.Helper()
	tr := memhttp.New(h)
	t.Cleanup(tr.Close)
	return &http.Client{Transport: tr}, tr
}

func TestHandlerSeesAServerRequest(t *testing.T) {
	seen := make(chan *http.Request, 1)
	bodies := make(chan string, 1)
	client, _ := serve(t, func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		bodies <- string(b)
		seen <- r
	})
	req, err := http.NewRequest("POST", "http://example.invalid/v1/chat?x=1", strings.NewReader(`{"a":1}`))
	require.NoError(t, err)
	req.Header.Set("Authorization", "Bearer k")
	resp, err := client.Do(req)
	require.NoError(t, err)
	resp.Body.Close()
	r := <-seen
	assert.Equal(t, "/v1/chat?x=1", r.RequestURI)
	assert.Equal(t, "/v1/chat", r.URL.Path)
	assert.Equal(t, "x=1", r.URL.RawQuery)
	assert.Empty(t, r.URL.Host)
	assert.Equal(t, "example.invalid", r.Host)
	assert.Equal(t, "HTTP/1.1", r.Proto)
	assert.Equal(t, memhttp.RemoteAddr, r.RemoteAddr)
	assert.Equal(t, int64(7), r.ContentLength)
	assert.Equal(t, "Bearer k", r.Header.Get("Authorization"))
	assert.Equal(t, `{"a":1}`, <-bodies)

	resp, err = client.Get("http://example.invalid/")
	require.NoError(t, err)
	resp.Body.Close()
	r = <-seen
	<-bodies
	assert.Equal(t, http.NoBody, r.Body)
	assert.Zero(t, r.ContentLength)
}

func TestSmallBodyGetsContentLengthDateAndType(t *testing.T) {
	client, _ := serve(t, func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusCreated)
		w.WriteHeader(http.StatusTeapot) // ignored, as net/http does
		io.WriteString(w, "<html>hi</html>")
	})
	resp, err := client.Get("http://x.invalid/")
	require.NoError(t, err)
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	assert.Equal(t, http.StatusCreated, resp.StatusCode)
	assert.Equal(t, "201 Created", resp.Status)
	assert.Equal(t, "<html>hi</html>", string(b))
	assert.Equal(t, int64(len(b)), resp.ContentLength)
	assert.Equal(t, "15", resp.Header.Get("Content-Length"))
	assert.Equal(t, "text/html; charset=utf-8", resp.Header.Get("Content-Type"))
	_, err = http.ParseTime(resp.Header.Get("Date"))
	assert.NoError(t, err)
}

func TestInformationalAndDefaultStatus(t *testing.T) {
	client, _ := serve(t, func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusEarlyHints)
	})
	resp, err := client.Get("http://x.invalid/")
	require.NoError(t, err)
	defer resp.Body.Close()
	assert.Equal(t, http.StatusOK, resp.StatusCode)
	assert.Equal(t, "0", resp.Header.Get("Content-Length"))
	assert.Empty(t, resp.Header.Get("Content-Type"))
}

func TestStreamReachesTheClientEventByEvent(t *testing.T) {
	next := make(chan struct{})
	client, _ := serve(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		for i := range 3 {
			<-next
			io.WriteString(w, "data: "+string(rune('a'+i))+"\n\n")
			w.(http.Flusher).Flush()
		}
	})
	go func() { next <- struct{}{} }()
	resp, err := client.Get("http://x.invalid/")
	require.NoError(t, err)
	defer resp.Body.Close()
	assert.Equal(t, int64(-1), resp.ContentLength)
	assert.Equal(t, []string{"chunked"}, resp.TransferEncoding)
	rd := bufio.NewReader(resp.Body)
	for i := range 3 {
		if i > 0 {
			next <- struct{}{} // the handler writes the next event only now
		}
		line, err := rd.ReadString('\n')
		require.NoError(t, err)
		assert.Equal(t, "data: "+string(rune('a'+i))+"\n", line)
		_, err = rd.ReadString('\n')
		require.NoError(t, err)
	}
	_, err = rd.ReadByte()
	assert.Equal(t, io.EOF, err)
}

func TestLargeBodyCommitsBeforeTheHandlerReturns(t *testing.T) {
	release := make(chan struct{})
	client, _ := serve(t, func(w http.ResponseWriter, r *http.Request) {
		w.Write(make([]byte, 5000)) // over the 4 KiB buffer
		<-release
	})
	resp, err := client.Get("http://x.invalid/")
	require.NoError(t, err)
	close(release)
	n, err := io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	require.NoError(t, err)
	assert.Equal(t, int64(5000), n)
	assert.Equal(t, int64(-1), resp.ContentLength)
}

func TestClientCancelEndsTheHandlerMidBody(t *testing.T) {
	gone := make(chan error, 1)
	client, tr := serve(t, func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, "first")
		w.(http.Flusher).Flush()
		<-r.Context().Done()
		_, err := w.Write([]byte("late"))
		gone <- err
	})
	ctx, cancel := context.WithCancel(t.Context())
	req, _ := http.NewRequestWithContext(ctx, "GET", "http://x.invalid/", nil)
	resp, err := client.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	b := make([]byte, 5)
	_, err = io.ReadFull(resp.Body, b)
	require.NoError(t, err)
	cancel()
	assert.Error(t, <-gone)
	_, err = resp.Body.Read(b)
	assert.ErrorIs(t, err, context.Canceled)
	waitIdle(t, tr)
}

func TestEarlyBodyCloseCancelsTheHandler(t *testing.T) {
	done := make(chan error, 1)
	client, tr := serve(t, func(w http.ResponseWriter, r *http.Request) {
		w.(http.Flusher).Flush()
		<-r.Context().Done()
		done <- r.Context().Err()
	})
	resp, err := client.Get("http://x.invalid/")
	require.NoError(t, err)
	resp.Body.Close()
	assert.ErrorIs(t, <-done, context.Canceled)
	waitIdle(t, tr)
}

func TestBackpressureAndWriteDeadline(t *testing.T) {
	wrote := make(chan int64, 1)
	client, _ := serve(t, func(w http.ResponseWriter, r *http.Request) {
		w.(http.Flusher).Flush()
		rc := http.NewResponseController(w)
		assert.NoError(t, rc.SetWriteDeadline(time.Now().Add(50*time.Millisecond)))
		chunk := make([]byte, 1024)
		var n int64
		for {
			k, err := w.Write(chunk)
			n += int64(k)
			if err != nil {
				assert.ErrorIs(t, err, os.ErrDeadlineExceeded)
				break
			}
		}
		wrote <- n
	})
	resp, err := client.Get("http://x.invalid/")
	require.NoError(t, err)
	defer resp.Body.Close()
	n := <-wrote // the client reads nothing: the writes block, then fail
	assert.Less(t, n, int64(1<<20), "writes are bounded")
	_, err = io.ReadAll(resp.Body)
	assert.ErrorIs(t, err, io.ErrUnexpectedEOF, "a broken body does not end cleanly")
}

func TestPastReadDeadlineFailsBodyReads(t *testing.T) {
	got := make(chan error, 1)
	client, _ := serve(t, func(w http.ResponseWriter, r *http.Request) {
		rc := http.NewResponseController(w)
		buf := make([]byte, 3)
		_, err := io.ReadFull(r.Body, buf)
		assert.NoError(t, err)
		// Another goroutine (the runtime's interrupt) sets the deadline
		// while the read is blocked on a client that sends no more.
		go rc.SetReadDeadline(time.Now().Add(-time.Second))
		_, err = r.Body.Read(buf)
		got <- err
	})
	pr, pw := io.Pipe()
	go pw.Write([]byte("abc"))
	req, _ := http.NewRequest("POST", "http://x.invalid/", pr)
	resp, err := client.Do(req)
	require.NoError(t, err)
	resp.Body.Close()
	assert.ErrorIs(t, <-got, os.ErrDeadlineExceeded)
	_, err = pw.Write([]byte("more"))
	assert.Error(t, err, "the client's body was closed")
}

func TestAbortBeforeHeaders(t *testing.T) {
	client, _ := serve(t, func(w http.ResponseWriter, r *http.Request) {
		panic(http.ErrAbortHandler)
	})
	_, err := client.Get("http://x.invalid/")
	require.Error(t, err)
	assert.ErrorIs(t, err, io.EOF)
	assert.Contains(t, err.Error(), ": EOF")
}

func TestAbortAfterHeaders(t *testing.T) {
	client, _ := serve(t, func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, "data: one\n\n")
		w.(http.Flusher).Flush()
		panic(http.ErrAbortHandler)
	})
	resp, err := client.Get("http://x.invalid/")
	require.NoError(t, err)
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	assert.Equal(t, "data: one\n\n", string(b))
	assert.ErrorIs(t, err, io.ErrUnexpectedEOF)
}

func TestCloseEndsAHandlerThatNeverReturns(t *testing.T) {
	tr := memhttp.New(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.(http.Flusher).Flush()
		<-r.Context().Done()
		assert.ErrorIs(t, context.Cause(r.Context()), memhttp.ErrClosed)
		_, err := w.Write([]byte("x"))
		assert.ErrorIs(t, err, memhttp.ErrClosed)
	}))
	client := &http.Client{Transport: tr}
	resp, err := client.Get("http://x.invalid/")
	require.NoError(t, err)
	defer resp.Body.Close()
	assert.Equal(t, 1, tr.InFlight())
	tr.Close()
	assert.Zero(t, tr.InFlight())
	_, err = io.ReadAll(resp.Body)
	assert.ErrorIs(t, err, io.ErrUnexpectedEOF)
	_, err = client.Get("http://x.invalid/")
	assert.ErrorIs(t, err, memhttp.ErrClosed)
}

func TestShutdownWaitsForHandlers(t *testing.T) {
	release := make(chan struct{})
	tr := memhttp.New(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.(http.Flusher).Flush()
		<-release
	}))
	defer tr.Close()
	resp, err := (&http.Client{Transport: tr}).Get("http://x.invalid/")
	require.NoError(t, err)
	defer resp.Body.Close()
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	assert.ErrorIs(t, tr.Shutdown(ctx), context.Canceled, "a handler still runs")
	close(release)
	assert.NoError(t, tr.Shutdown(t.Context()))
}

func TestVirtualTimeInsideSynctest(t *testing.T) {
	realStart := time.Now()
	synctest.Test(t, func(t *testing.T) {
		tr := memhttp.New(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			select {
			case <-time.After(30 * time.Second):
			case <-r.Context().Done():
			}
			io.WriteString(w, "late")
		}))
		defer tr.Close()
		start := time.Now()
		resp, err := (&http.Client{Transport: tr}).Get("http://x.invalid/")
		require.NoError(t, err)
		b, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		require.NoError(t, err)
		assert.Equal(t, "late", string(b))
		assert.GreaterOrEqual(t, time.Since(start), 30*time.Second, "virtual time")
	})
	t.Logf("real time: %v", time.Since(realStart))
}

func TestClientTimeoutInsideSynctest(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		tr := memhttp.New(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			<-r.Context().Done()
		}))
		defer tr.Close()
		start := time.Now()
		_, err := (&http.Client{Transport: tr, Timeout: 5 * time.Second}).Get("http://x.invalid/")
		var ue interface{ Timeout() bool }
		require.True(t, errors.As(err, &ue) && ue.Timeout(), "err = %v", err)
		assert.GreaterOrEqual(t, time.Since(start), 5*time.Second, "virtual time")
		synctest.Wait()
		assert.Zero(t, tr.InFlight())
	})
}

// waitIdle waits until tr has no handler left.
func waitIdle(t *testing.T, tr *memhttp.Transport) {
	t.Helper()
	require.NoError(t, tr.Shutdown(t.Context()))
}
