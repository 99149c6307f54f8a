package llmtest_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"testing"

	"github.com/llmtestserver/llmtestserver/llmtest"
	"github.com/llmtestserver/llmtestserver/scenario"
	"github.com/llmtestserver/llmtestserver/session"
	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
)

// Benchmarks only: no timing is ever asserted. Targets, for the record:
// llmtest/bare chat completion at most 1.3x; session lifecycle under 20 µs
// in-process and under 200 µs over HTTP; under 32 KiB of heap per idle
// session.

const (
	benchModel    = "gpt-4.1-mini"
	benchAPIKey   = "bench-provider-key"
	benchUserText = "Say hello to the benchmark."
	benchReply    = "Hello from the benchmark: a short, fixed assistant reply."
)

// benchParams is the request every chat iteration sends.
func benchParams() openai.ChatCompletionNewParams {
	return openai.ChatCompletionNewParams{
		Model:    benchModel,
		Messages: []openai.ChatCompletionMessageParamUnion{openai.UserMessage(benchUserText)},
	}
}

// benchScript queues n copies of the benchmark reply. Replies are used once
// each, so a run of n requests needs n of them; scripting them all up front
// (one AddReplies call) keeps the scripting out of the timed loop.
func benchScript(sess *session.Session, n int) {
	replies := make([]scenario.Reply, n)
	for i := range replies {
		replies[i] = scenario.Reply{Text: benchReply}
	}
	sess.Chat("bench").Reply(replies...)
}

// benchChatLoop sends one untimed warm-up request (it opens the keep-alive
// connection and, on our server, loads the tokenizer vocabulary), then b.N
// timed chat completions with client. It fails on the first error or wrong
// answer.
func benchChatLoop(b *testing.B, client openai.Client) {
	ctx := context.Background()
	params := benchParams()
	call := func() {
		resp, err := client.Chat.Completions.New(ctx, params)
		if err != nil {
			b.Fatal(err)
		}
		if len(resp.Choices) != 1 || resp.Choices[0].Message.Content != benchReply {
			b.Fatalf("unexpected answer %+v", resp.Choices)
		}
	}
	call()
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		call()
	}
	b.StopTimer()
}

// benchClient starts a server with opts and a session that script
// prepares, both closed when b ends, and returns an openai-go client for the
// session that never retries.
func benchClient(b *testing.B, script func(*session.Session), opts ...llmtest.Option) openai.Client {
	b.Helper()
	srv, err := llmtest.New(opts...)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(srv.Close)
	sess, err := srv.OpenSession(session.RequireAPIKey(benchAPIKey), session.OnlyModels(benchModel))
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { sess.Close() })
	script(sess)
	return openai.NewClient(
		option.WithBaseURL(sess.BaseURL()),
		option.WithAPIKey(benchAPIKey),
		option.WithHTTPClient(sess.HTTPClient()),
		option.WithMaxRetries(0))
}

// benchCompletionBody returns the raw body our server answers the benchmark
// request with, so the bare server can send the same bytes.
func benchCompletionBody(b *testing.B) []byte {
	b.Helper()
	body := benchCapture(b, false, func(sess *session.Session) { benchScript(sess, 1) })
	if !strings.Contains(string(body), `"chat.completion"`) {
		b.Fatalf("reference request: body %s", body)
	}
	return body
}

// benchCapture sends the benchmark request once to a session that script
// prepares, streaming or not, and returns the raw body of the 200.
func benchCapture(b *testing.B, stream bool, script func(*session.Session)) []byte {
	b.Helper()
	srv, err := llmtest.New()
	if err != nil {
		b.Fatal(err)
	}
	defer srv.Close()
	sess, err := srv.OpenSession(session.RequireAPIKey(benchAPIKey))
	if err != nil {
		b.Fatal(err)
	}
	defer sess.Close()
	script(sess)
	reqBody, err := json.Marshal(map[string]any{
		"model":    benchModel,
		"stream":   stream,
		"messages": []map[string]string{{"role": "user", "content": benchUserText}},
	})
	if err != nil {
		b.Fatal(err)
	}
	req, err := http.NewRequest(http.MethodPost, sess.BaseURL()+"/chat/completions", bytes.NewReader(reqBody))
	if err != nil {
		b.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+benchAPIKey)
	resp, err := sess.HTTPClient().Do(req)
	if err != nil {
		b.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		b.Fatal(err)
	}
	if resp.StatusCode != http.StatusOK {
		b.Fatalf("reference request: status %d, body %.200s", resp.StatusCode, body)
	}
	return body
}

// BenchmarkChatCompletion compares one non-streaming chat completion through
// the official openai-go client against a session ("llmtest") with the same
// client against a bare handler that writes a precomputed body of the same
// shape and size ("bare"). The session keeps the default journal bounds
// (1000 entries): runs longer than that evict an entry per request, which is
// part of the real cost. "bare" runs second and reports the ratio of the two
// as the metric llmtest/bare (its last run against llmtest's last run).
func BenchmarkChatCompletion(b *testing.B) {
	var llmtestNs float64 // ns/op of the last llmtest run

	b.Run("llmtest", func(b *testing.B) {
		client := benchClient(b, func(sess *session.Session) {
			benchScript(sess, b.N+1) // +1 for the warm-up request
		})
		benchChatLoop(b, client)
		llmtestNs = float64(b.Elapsed().Nanoseconds()) / float64(b.N)
	})

	b.Run("bare", func(b *testing.B) {
		body := benchCompletionBody(b)
		ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			// A real server reads the request; so does ours.
			io.Copy(io.Discard, r.Body)
			w.Header().Set("Content-Type", "application/json")
			w.Write(body)
		}))
		defer ts.Close()
		transport := http.DefaultTransport.(*http.Transport).Clone()
		defer transport.CloseIdleConnections()
		client := openai.NewClient(
			option.WithBaseURL(ts.URL+"/v1"),
			option.WithAPIKey(benchAPIKey),
			option.WithHTTPClient(&http.Client{Transport: transport}),
			option.WithMaxRetries(0))
		benchChatLoop(b, client)
		bareNs := float64(b.Elapsed().Nanoseconds()) / float64(b.N)
		if llmtestNs > 0 && bareNs > 0 {
			b.ReportMetric(llmtestNs/bareNs, "llmtest/bare") // target: at most 1.3
		}
	})
}

// BenchmarkSessionLifecycle measures admitting and deleting one session,
// through the Go API and through the admin HTTP API.
func BenchmarkSessionLifecycle(b *testing.B) {
	b.Run("in-process", func(b *testing.B) {
		srv, err := llmtest.New()
		if err != nil {
			b.Fatal(err)
		}
		defer srv.Close()
		b.ReportAllocs()
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			sess, err := srv.OpenSession()
			if err != nil {
				b.Fatal(err)
			}
			sess.Close()
		}
		b.StopTimer()
	})

	b.Run("http", func(b *testing.B) {
		srv, err := llmtest.New()
		if err != nil {
			b.Fatal(err)
		}
		defer srv.Close()
		transport := http.DefaultTransport.(*http.Transport).Clone()
		defer transport.CloseIdleConnections()
		client := &http.Client{Transport: transport}
		createURL := srv.URL() + "/admin-api/sessions"
		auth := "Bearer " + srv.ManagementKey()
		createBody := []byte("{}")
		var created struct {
			ID  string `json:"id"`
			Key string `json:"key"`
		}
		b.ReportAllocs()
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			req, err := http.NewRequest(http.MethodPost, createURL, bytes.NewReader(createBody))
			if err != nil {
				b.Fatal(err)
			}
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Authorization", auth)
			resp, err := client.Do(req)
			if err != nil {
				b.Fatal(err)
			}
			err = json.NewDecoder(resp.Body).Decode(&created)
			io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
			if err != nil || resp.StatusCode != http.StatusCreated {
				b.Fatalf("create: status %d, err %v", resp.StatusCode, err)
			}

			req, err = http.NewRequest(http.MethodDelete, createURL+"/"+created.ID, nil)
			if err != nil {
				b.Fatal(err)
			}
			req.Header.Set(session.HeaderSession, created.ID)
			req.Header.Set(session.HeaderSessionKey, created.Key)
			resp, err = client.Do(req)
			if err != nil {
				b.Fatal(err)
			}
			io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
			if resp.StatusCode != http.StatusNoContent {
				b.Fatalf("delete: status %d", resp.StatusCode)
			}
		}
		b.StopTimer()
	})
}

// benchIdleSessions is how many idle sessions BenchmarkIdleSessionHeap holds
// open at once.
const benchIdleSessions = 64

// BenchmarkIdleSessionHeap reports the live heap an idle session holds, as
// B/session: HeapAlloc after a GC before and after opening benchIdleSessions
// sessions (bounds raised to admit them), measured once per run so that the
// forced GCs do not dominate the run time. The timed loop opens and closes
// the benchIdleSessions sessions, so ns/op and allocs/op are per batch.
func BenchmarkIdleSessionHeap(b *testing.B) {
	srv, err := llmtest.New(llmtest.WithBounds(session.Bounds{
		MaxSessions:      benchIdleSessions,
		MaxReservedBytes: 1 << 40,
		MaxConfigBytes:   1 << 20,
	}))
	if err != nil {
		b.Fatal(err)
	}
	defer srv.Close()
	sessions := make([]*session.Session, benchIdleSessions)
	open := func() {
		for j := range sessions {
			if sessions[j], err = srv.OpenSession(); err != nil {
				b.Fatal(err)
			}
		}
	}
	closeAll := func() {
		for j, s := range sessions {
			s.Close()
			sessions[j] = nil
		}
	}

	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	open()
	runtime.GC()
	runtime.ReadMemStats(&after)
	closeAll()
	perSession := float64(int64(after.HeapAlloc)-int64(before.HeapAlloc)) / benchIdleSessions

	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		open()
		closeAll()
	}
	b.StopTimer()
	b.ReportMetric(perSession, "B/session") // target: under 32 KiB
}
