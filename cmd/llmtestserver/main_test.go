package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptrace"
	"strings"
	"sync"
	"testing"
	"time"
)

const (
	headerSession    = "X-Llm-Test-Server-Session"
	headerSessionKey = "X-Llm-Test-Server-Session-Key"
)

// lineWriter hands every complete line written to it to a channel, so a
// test can read what run prints while run is still going.
type lineWriter struct {
	mu      sync.Mutex
	partial []byte
	lines   chan string
}

func newLineWriter() *lineWriter { return &lineWriter{lines: make(chan string, 64)} }

func (w *lineWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.partial = append(w.partial, p...)
	for {
		i := bytes.IndexByte(w.partial, '\n')
		if i < 0 {
			return len(p), nil
		}
		w.lines <- string(w.partial[:i])
		w.partial = w.partial[i+1:]
	}
}

// next returns the next line, failing the test if none comes in time.
func (w *lineWriter) next(t *testing.T) string {
	t.Helper()
	select {
	case line := <-w.lines:
		return line
	case <-time.After(10 * time.Second):
		t.Fatal("run printed nothing within 10s")
		return ""
	}
}

// syncBuffer is a bytes.Buffer that a test reads while run writes to it.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// instance is a run in progress.
type instance struct {
	url    string // from the "listening on" line
	key    string // from the "management key" line, if printed
	out    *lineWriter
	logs   *syncBuffer // what run wrote to stderr
	cancel context.CancelFunc
	done   chan error
}

func env(vars map[string]string) func(string) (string, bool) {
	return func(name string) (string, bool) {
		v, ok := vars[name]
		return v, ok
	}
}

// start runs the command with args on a free loopback port and waits until
// it has printed its URL (and, when wantKey, the generated key). Cleanup
// stops it if the test did not.
func start(t *testing.T, args []string, vars map[string]string, wantKey bool) *instance {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	in := &instance{out: newLineWriter(), logs: new(syncBuffer), cancel: cancel, done: make(chan error, 1)}
	args = append([]string{"-addr", "127.0.0.1:0"}, args...)
	go func() { in.done <- run(ctx, args, env(vars), in.out, in.logs) }()
	t.Cleanup(func() {
		cancel()
		<-in.done
	})
	line := in.out.next(t)
	url, ok := strings.CutPrefix(line, "llmtestserver listening on ")
	if !ok || !strings.HasPrefix(url, "http://127.0.0.1:") {
		t.Fatalf("first line = %q, want %q", line, "llmtestserver listening on http://127.0.0.1:<port>")
	}
	in.url = url
	if wantKey {
		line = in.out.next(t)
		key, ok := strings.CutPrefix(line, "management key: ")
		if !ok || key == "" {
			t.Fatalf("second line = %q, want %q", line, "management key: <key>")
		}
		in.key = key
	}
	return in
}

// stop cancels the run and checks that it ends cleanly and printed nothing
// more.
func (in *instance) stop(t *testing.T) {
	t.Helper()
	in.cancel()
	select {
	case err := <-in.done:
		in.done <- err // for the cleanup
		if err != nil {
			t.Fatalf("run returned %v, want nil", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("run did not return within 10s of cancellation")
	}
	select {
	case line := <-in.out.lines:
		t.Errorf("run printed %q after its start lines, want nothing", line)
	default:
	}
}

type reply struct {
	status int
	header http.Header
	body   []byte
}

// errorCode returns the code of an OpenAI error envelope.
func (r reply) errorCode() string {
	var env struct {
		Error struct {
			Code *string `json:"code"`
		} `json:"error"`
	}
	if json.Unmarshal(r.body, &env) != nil || env.Error.Code == nil {
		return ""
	}
	return *env.Error.Code
}

func do(t *testing.T, method, url string, header http.Header, body string) reply {
	t.Helper()
	req, err := http.NewRequest(method, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	for k, vs := range header {
		req.Header[k] = vs
	}
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return reply{resp.StatusCode, resp.Header, b}
}

func bearer(token string) http.Header {
	return http.Header{"Authorization": {"Bearer " + token}}
}

type created struct {
	ID               string `json:"id"`
	Key              string `json:"key"`
	ReservationBytes int64  `json:"reservation_bytes"`
}

func (c created) header() http.Header {
	return http.Header{headerSession: {c.ID}, headerSessionKey: {c.Key}}
}

// createSession creates a session with the configuration body and fails the
// test unless the server answers 201.
func createSession(t *testing.T, url, managementKey, body string) created {
	t.Helper()
	r := do(t, http.MethodPost, url+"/admin-api/sessions", bearer(managementKey), body)
	if r.status != http.StatusCreated {
		t.Fatalf("POST /admin-api/sessions = %d %s, want 201", r.status, r.body)
	}
	var c created
	if err := json.Unmarshal(r.body, &c); err != nil {
		t.Fatalf("decoding the created session %s: %v", r.body, err)
	}
	if c.ID == "" || c.Key == "" || c.ReservationBytes <= 0 {
		t.Fatalf("created session = %s, want an id, a key and a positive reservation_bytes", r.body)
	}
	if got, want := r.header.Get("Location"), "/admin-api/sessions/"+c.ID; got != want {
		t.Errorf("Location = %q, want %q", got, want)
	}
	if got := r.header.Get("Cache-Control"); got != "no-store" {
		t.Errorf("Cache-Control = %q, want no-store", got)
	}
	return c
}

const greetingConfig = `{"scenarios":[{"name":"greeting","match":{"endpoint":"chat.completions"},"replies":[{"text":"Hello"}]}]}`

const chatBody = `{"model":"gpt-4.1-mini","messages":[{"role":"user","content":"Hi"}]}`

func TestRunServesSessions(t *testing.T) {
	t.Parallel()
	in := start(t, nil, nil, true)
	sess := createSession(t, in.url, in.key, greetingConfig)

	r := do(t, http.MethodPost, in.url+"/v1/chat/completions", sess.header(), chatBody)
	if r.status != http.StatusOK {
		t.Fatalf("POST /v1/chat/completions = %d %s, want 200", r.status, r.body)
	}
	var completion struct {
		Choices []struct {
			Message struct {
				Content string `json:"content"`
			} `json:"message"`
		} `json:"choices"`
	}
	if err := json.Unmarshal(r.body, &completion); err != nil {
		t.Fatal(err)
	}
	if len(completion.Choices) != 1 || completion.Choices[0].Message.Content != "Hello" {
		t.Errorf("completion = %s, want one choice saying %q", r.body, "Hello")
	}

	r = do(t, http.MethodGet, in.url+"/admin-api/journal", sess.header(), "")
	var journal struct {
		Data []struct {
			Path      string `json:"path"`
			ReplyText string `json:"reply_text"`
		} `json:"data"`
	}
	if err := json.Unmarshal(r.body, &journal); err != nil || r.status != http.StatusOK {
		t.Fatalf("GET /admin-api/journal = %d %s (%v), want 200 and a list", r.status, r.body, err)
	}
	if len(journal.Data) != 1 || journal.Data[0].Path != "/v1/chat/completions" || journal.Data[0].ReplyText != "Hello" {
		t.Errorf("journal = %s, want one chat completion answered %q", r.body, "Hello")
	}

	if r := do(t, http.MethodDelete, in.url+"/admin-api/sessions/"+sess.ID, sess.header(), ""); r.status != http.StatusNoContent {
		t.Fatalf("DELETE /admin-api/sessions/{id} = %d %s, want 204", r.status, r.body)
	}
	r = do(t, http.MethodDelete, in.url+"/admin-api/sessions/"+sess.ID, sess.header(), "")
	if r.status != http.StatusNotFound || r.errorCode() != "session_not_found" {
		t.Errorf("second DELETE = %d %s, want 404 session_not_found", r.status, r.body)
	}
	in.stop(t)
}

func TestRunManagementKeyFromEnv(t *testing.T) {
	t.Parallel()
	in := start(t, nil, map[string]string{envManagementKey: "key-from-env"}, false)
	createSession(t, in.url, "key-from-env", "{}")
	if r := do(t, http.MethodPost, in.url+"/admin-api/sessions", bearer("another-key"), "{}"); r.status != http.StatusUnauthorized {
		t.Errorf("POST /admin-api/sessions with another key = %d %s, want 401", r.status, r.body)
	}
	in.stop(t) // also checks that no generated key was printed
}

func TestRunFlagOverridesEnv(t *testing.T) {
	t.Parallel()
	in := start(t, []string{"-management-key", "key-from-flag"}, map[string]string{envManagementKey: "key-from-env"}, false)
	createSession(t, in.url, "key-from-flag", "")
	r := do(t, http.MethodPost, in.url+"/admin-api/sessions", bearer("key-from-env"), "{}")
	if r.status != http.StatusUnauthorized || r.errorCode() != "invalid_api_key" {
		t.Errorf("POST /admin-api/sessions with the env key = %d %s, want 401 invalid_api_key", r.status, r.body)
	}
	in.stop(t)
}

func TestRunBoundsFlags(t *testing.T) {
	t.Parallel()
	in := start(t, []string{"-max-sessions", "1"}, nil, true)
	createSession(t, in.url, in.key, "{}")
	r := do(t, http.MethodPost, in.url+"/admin-api/sessions", bearer(in.key), "{}")
	if r.status != http.StatusConflict || r.errorCode() != "session_capacity_exceeded" {
		t.Errorf("second POST /admin-api/sessions = %d %s, want 409 session_capacity_exceeded", r.status, r.body)
	}
	in.stop(t)
}

// result is how a request sent by sendInFlight ended.
type result struct {
	r   reply
	err error
}

// sendInFlight sends a POST and returns once the server has registered it
// as in flight; its result comes on the channel. The server sends "100
// Continue" when the handler starts reading the body, which it does after
// registering the request as in flight.
func sendInFlight(t *testing.T, url string, header http.Header, body string) <-chan result {
	t.Helper()
	inFlight := make(chan struct{})
	ctx := httptrace.WithClientTrace(context.Background(), &httptrace.ClientTrace{
		Got100Continue: func() { close(inFlight) },
	})
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header = header.Clone()
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Expect", "100-continue")
	transport := http.DefaultTransport.(*http.Transport).Clone()
	transport.ExpectContinueTimeout = time.Minute
	results := make(chan result, 1)
	go func() {
		defer transport.CloseIdleConnections()
		resp, err := transport.RoundTrip(req)
		if err != nil {
			results <- result{err: err}
			return
		}
		defer resp.Body.Close()
		b, err := io.ReadAll(resp.Body)
		results <- result{reply{resp.StatusCode, resp.Header, b}, err}
	}()
	select {
	case <-inFlight:
	case res := <-results:
		t.Fatalf("the request ended before it was in flight: %+v", res)
	case <-time.After(10 * time.Second):
		t.Fatal("the server did not start reading the request within 10s")
	}
	return results
}

// TestRunShutdownEndsDelayedReplies checks that cancellation retires the
// sessions before waiting for handlers: a reply scripted to arrive in an
// hour ends at once with 409 llm_test_server_request_superseded.
func TestRunShutdownEndsDelayedReplies(t *testing.T) {
	t.Parallel()
	in := start(t, []string{"-shutdown-timeout", "1m"}, nil, true)
	sess := createSession(t, in.url, in.key,
		`{"scenarios":[{"name":"slow","replies":[{"text":"too late","delay_ms":3600000}]}]}`)

	results := sendInFlight(t, in.url+"/v1/chat/completions", sess.header(), chatBody)
	in.stop(t)
	res := <-results
	if res.err != nil {
		t.Fatalf("the delayed request failed: %v", res.err)
	}
	if res.r.status != http.StatusConflict || res.r.errorCode() != "llm_test_server_request_superseded" {
		t.Errorf("the delayed request got %d %s, want 409 llm_test_server_request_superseded", res.r.status, res.r.body)
	}
}

func TestRunBadArguments(t *testing.T) {
	t.Parallel()
	for name, args := range map[string][]string{
		"unknown flag":          {"-nope"},
		"positional argument":   {"extra"},
		"empty management key":  {"-management-key="},
		"zero sessions":         {"-max-sessions", "0"},
		"negative budget":       {"-max-reserved-bytes", "-1"},
		"zero config bytes":     {"-max-config-bytes", "0"},
		"zero request bytes":    {"-max-request-bytes", "0"},
		"malformed number":      {"-max-sessions", "many"},
		"negative grace period": {"-shutdown-timeout", "-1s"},
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			var out bytes.Buffer
			err := run(context.Background(), args, env(nil), &out, io.Discard)
			var usage *usageError
			if !errors.As(err, &usage) {
				t.Errorf("run(%q) = %v, want a usage error", args, err)
			}
			if out.Len() > 0 {
				t.Errorf("run(%q) printed %q, want nothing", args, out.String())
			}
		})
	}
}

func TestRunListenError(t *testing.T) {
	t.Parallel()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	var out bytes.Buffer
	err = run(context.Background(), []string{"-addr", ln.Addr().String()}, env(nil), &out, io.Discard)
	var usage *usageError
	if err == nil || errors.As(err, &usage) {
		t.Errorf("run on a busy port = %v, want a listen error", err)
	}
}

func TestRunHelp(t *testing.T) {
	t.Parallel()
	var out bytes.Buffer
	if err := run(context.Background(), []string{"-h"}, env(nil), &out, io.Discard); err != nil {
		t.Fatalf("run(-h) = %v, want nil", err)
	}
	for _, want := range []string{"Usage: llmtestserver", "-addr", "-management-key", "-max-sessions", "-max-reserved-bytes", "-max-config-bytes"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("usage does not mention %q:\n%s", want, out.String())
		}
	}
}

func TestEndpointURL(t *testing.T) {
	t.Parallel()
	for addr, want := range map[string]string{
		"127.0.0.1:8080": "http://127.0.0.1:8080",
		"0.0.0.0:8080":   "http://127.0.0.1:8080",
		"[::]:8080":      "http://127.0.0.1:8080",
		"[::1]:8080":     "http://[::1]:8080",
	} {
		tcp, err := net.ResolveTCPAddr("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		if got := endpointURL(tcp); got != want {
			t.Errorf("endpointURL(%s) = %q, want %q", addr, got, want)
		}
	}
}
