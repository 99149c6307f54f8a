package llmtest_test

import (
	"context"
	"io"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/llmtestserver/llmtestserver/internal/e2e"
	"github.com/llmtestserver/llmtestserver/llmtest"
	"github.com/llmtestserver/llmtestserver/session"
	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
)

// echo is a server that reports the session headers and the body it got.
func echo(t *testing.T) *httptest.Server {
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		w.Header().Set("Got-Session", r.Header.Get(session.HeaderSession))
		w.Header().Set("Got-Key", r.Header.Get(session.HeaderSessionKey))
		w.Header().Set("Got-Content-Type", r.Header.Get("Content-Type"))
		w.Write(body)
	}))
	t.Cleanup(ts.Close)
	return ts
}

// The transport adds both headers to a clone of every request and passes
// streaming and multipart bodies through untouched.
func TestTransportAddsHeadersAndKeepsBodies(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t)
	sess := srv.NewSession(t)
	ts := echo(t)
	client := sess.WrapClient(ts.Client())

	// A streamed body: written while the request is in flight.
	pr, pw := io.Pipe()
	go func() {
		for i := range 3 {
			io.WriteString(pw, strings.Repeat(string(rune('a'+i)), 1000))
			time.Sleep(time.Millisecond)
		}
		pw.Close()
	}()
	req, _ := http.NewRequest(http.MethodPost, ts.URL, pr)
	resp, err := client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.Header.Get("Got-Session") != sess.ID() || resp.Header.Get("Got-Key") != sess.Key() {
		t.Errorf("server saw session %q key %q, want the session's", resp.Header.Get("Got-Session"), resp.Header.Get("Got-Key"))
	}
	if want := strings.Repeat("a", 1000) + strings.Repeat("b", 1000) + strings.Repeat("c", 1000); string(body) != want {
		t.Errorf("streamed body arrived as %d bytes, want %d", len(body), len(want))
	}
	if len(req.Header.Values(session.HeaderSession)) != 0 {
		t.Error("the caller's request was modified")
	}

	// A multipart upload.
	var form strings.Builder
	mw := multipart.NewWriter(&form)
	fw, _ := mw.CreateFormFile("file", "clip.mp4")
	io.WriteString(fw, "binary\x00data")
	mw.Close()
	resp, err = client.Post(ts.URL, mw.FormDataContentType(), strings.NewReader(form.String()))
	if err != nil {
		t.Fatal(err)
	}
	body, _ = io.ReadAll(resp.Body)
	resp.Body.Close()
	if string(body) != form.String() || resp.Header.Get("Got-Content-Type") != mw.FormDataContentType() {
		t.Error("the multipart body or its content type changed on the way")
	}
}

// A caller-owned client is wrapped, not changed, and stays usable after the
// session is gone; many sessions share its transport.
func TestCallerOwnedClient(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t)
	ts := echo(t)
	own := &http.Client{Transport: &http.Transport{}, Timeout: time.Minute}
	ownTransport := own.Transport
	t.Cleanup(own.CloseIdleConnections)

	var sessions []*session.Session
	for range 3 {
		sessions = append(sessions, srv.NewSession(t))
	}
	var wg sync.WaitGroup
	for _, sess := range sessions {
		wg.Go(func() {
			c := sess.WrapClient(own)
			if c.Timeout != own.Timeout {
				t.Error("the wrapped client lost the caller's settings")
			}
			resp, err := c.Get(ts.URL)
			if err != nil {
				t.Error(err)
				return
			}
			resp.Body.Close()
			if resp.Header.Get("Got-Session") != sess.ID() {
				t.Errorf("server saw session %q, want %q", resp.Header.Get("Got-Session"), sess.ID())
			}
		})
	}
	wg.Wait()
	if own.Transport != ownTransport {
		t.Fatal("wrapping replaced the caller's transport")
	}
	for _, sess := range sessions {
		sess.Close()
	}
	resp, err := own.Get(ts.URL)
	if err != nil {
		t.Fatalf("the caller's client after the sessions closed: %v", err)
	}
	resp.Body.Close()
	if resp.Header.Get("Got-Session") != "" {
		t.Error("the caller's own client sends session headers")
	}
}

// openai-go with a caller's client wrapped by the session, the shape the
// README shows for teams that configure their own transport.
func TestWrappedClientWithOpenAIGo(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t)
	sess := srv.NewSession(t)
	sess.Chat("greeting").Responds("wrapped")
	own := &http.Client{Transport: callerTransport(t, srv)}
	client := openai.NewClient(option.WithBaseURL(sess.BaseURL()), option.WithAPIKey("k"),
		option.WithHTTPClient(sess.WrapClient(own)))
	resp, err := client.Chat.Completions.New(context.Background(), e2e.UserTurn("gpt-4.1-mini", "Hi"))
	if err != nil || resp.Choices[0].Message.Content != "wrapped" {
		t.Fatalf("%v %+v", err, resp)
	}
}
