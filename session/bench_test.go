package session_test

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"testing"

	"github.com/llmtestserver/llmtestserver/session"
)

// Benchmarks only: no timing is ever asserted.

// benchManager returns a manager that is never served over a socket.
func benchManager(b *testing.B) *session.Manager {
	b.Helper()
	m, err := session.NewManager(session.ManagerConfig{
		Endpoint:        "http://127.0.0.1:1",
		ManagementKey:   "bench-management-key",
		Startup:         session.DefaultConfig(),
		Bounds:          session.DefaultBounds(),
		MaxRequestBytes: 32 << 20,
	})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(m.Close)
	return m
}

// BenchmarkManagerCreateDelete admits and deletes one session with the
// default configuration: the in-process lifecycle without the llmtest layer.
func BenchmarkManagerCreateDelete(b *testing.B) {
	m := benchManager(b)
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		s, err := m.Create()
		if err != nil {
			b.Fatal(err)
		}
		if err := m.Delete(s.ID(), s.Key()); err != nil {
			b.Fatal(err)
		}
	}
}

// benchWriter is a ResponseWriter that keeps nothing but the status.
type benchWriter struct {
	header http.Header
	status int
	n      int
}

func (w *benchWriter) Header() http.Header { return w.header }
func (w *benchWriter) WriteHeader(status int) {
	if w.status == 0 {
		w.status = status
	}
}
func (w *benchWriter) Write(p []byte) (int, error) {
	if w.status == 0 {
		w.status = http.StatusOK
	}
	w.n += len(p)
	return len(p), nil
}

// BenchmarkHandlerChat serves one non-streaming chat completion per iteration
// straight through Manager.Handler, without sockets or a client: the
// server-side share of BenchmarkChatCompletion in package llmtest. Replies
// are scripted up front (one per iteration); the journal keeps its default
// bounds (1000 entries), so runs longer than that pay for an eviction per
// request as real sessions do. Compare -benchtime 999x with 20000x to see
// what evictions cost.
func BenchmarkHandlerChat(b *testing.B) {
	m := benchManager(b)
	s, err := m.Create(session.RequireAPIKey("bench-provider-key"), session.OnlyModels("gpt-4.1-mini"))
	if err != nil {
		b.Fatal(err)
	}
	// One repeating reply: b.N replies of their own would pass the
	// configuration limit for large b.N.
	s.Chat("bench").Responds("Hello from the benchmark: a short, fixed assistant reply.").Repeat()
	body, err := json.Marshal(map[string]any{
		"model":    "gpt-4.1-mini",
		"messages": []map[string]string{{"role": "user", "content": "Say hello to the benchmark."}},
	})
	if err != nil {
		b.Fatal(err)
	}
	h := m.Handler()
	u := &url.URL{Scheme: "http", Host: "127.0.0.1:1", Path: "/v1/chat/completions"}
	header := http.Header{
		"Content-Type":           {"application/json"},
		"Authorization":          {"Bearer bench-provider-key"},
		session.HeaderSession:    {s.ID()},
		session.HeaderSessionKey: {s.Key()},
	}
	w := &benchWriter{header: make(http.Header)}
	rd := bytes.NewReader(body)
	serve := func() {
		rd.Reset(body)
		req := &http.Request{Method: http.MethodPost, URL: u, Header: header, Body: io.NopCloser(rd),
			ContentLength: int64(len(body)), Host: u.Host, RequestURI: u.Path, Proto: "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1}
		clear(w.header)
		w.status, w.n = 0, 0
		h.ServeHTTP(w, req)
		if w.status != http.StatusOK {
			b.Fatalf("status %d", w.status)
		}
	}
	serve() // warm-up: loads the tokenizer vocabulary, untimed
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		serve()
	}
}

// benchRoundTripper answers every request at once without looking at it.
type benchRoundTripper struct{ resp http.Response }

func (t *benchRoundTripper) RoundTrip(*http.Request) (*http.Response, error) {
	r := t.resp
	return &r, nil
}

// BenchmarkTransport measures what the session transport adds to a request:
// the clone and the two session headers.
func BenchmarkTransport(b *testing.B) {
	m := benchManager(b)
	s, err := m.Create()
	if err != nil {
		b.Fatal(err)
	}
	rt := s.WrapTransport(&benchRoundTripper{resp: http.Response{StatusCode: http.StatusOK, Body: http.NoBody}})
	req, err := http.NewRequest(http.MethodPost, s.BaseURL()+"/chat/completions", nil)
	if err != nil {
		b.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer bench-provider-key")
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := rt.RoundTrip(req); err != nil {
			b.Fatal(err)
		}
	}
}
