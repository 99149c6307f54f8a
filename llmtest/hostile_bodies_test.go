package llmtest_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"testing"

	"github.com/llmtestserver/llmtestserver/llmtest"
	"github.com/llmtestserver/llmtestserver/session"
)

// bodyShape is a request body whose size grows with n in a way that once
// made the server's work grow faster than the body: deep nesting, long
// arrays of blocks, many cache breakpoints. Each is sized to stay within
// its model's context window, so that the request is served whole.
type bodyShape struct {
	name, path string
	body       func(n int) string
}

// repeated joins n pieces made by piece with sep.
func repeated(n int, sep string, piece func(i int) string) string {
	var b strings.Builder
	for i := range n {
		if i > 0 {
			b.WriteString(sep)
		}
		b.WriteString(piece(i))
	}
	return b.String()
}

// nestedSchema is a strict object schema nested depth levels deep whose
// innermost property is a string enum of width values: deep and wide.
func nestedSchema(depth, width int) string {
	return strings.Repeat(`{"type":"object","properties":{"a":`, depth) +
		`{"type":"string","enum":[` + repeated(width, ",", func(i int) string { return fmt.Sprintf(`"v%d"`, i) }) + `]}` +
		strings.Repeat(`},"required":["a"],"additionalProperties":false}`, depth)
}

// nestedToolResults nests depth tool_result blocks in one another, around
// a text block.
func nestedToolResults(depth int) string {
	return strings.Repeat(`[{"type":"tool_result","tool_use_id":"t","content":`, depth) + `[{"type":"text","text":"x"}]` +
		strings.Repeat(`}]`, depth)
}

var hostileShapes = []bodyShape{
	{"chat: a strict tool schema nested deep and wide", "/v1/chat/completions", func(n int) string {
		return `{"model":"gpt-4.1-mini","messages":[{"role":"user","content":"hi"}],"tools":[{"type":"function","function":{"name":"f","strict":true,"parameters":` +
			nestedSchema(60, n) + `}}]}`
	}},
	{"chat: a json_schema response format nested deep and wide", "/v1/chat/completions", func(n int) string {
		return `{"model":"gpt-4.1-mini","messages":[{"role":"user","content":"hi"}],"response_format":{"type":"json_schema","json_schema":{"name":"x","strict":true,"schema":` +
			nestedSchema(60, n) + `}}}`
	}},
	{"chat: many content parts", "/v1/chat/completions", func(n int) string {
		return `{"model":"gpt-4.1-mini","messages":[{"role":"user","content":[` +
			repeated(n, ",", func(i int) string { return `{"type":"text","text":"p"}` }) + `]}]}`
	}},
	{"chat: deep tool-call arguments", "/v1/chat/completions", func(n int) string {
		args := strings.Repeat("[", n/4) + strings.Repeat("]", n/4)
		return `{"model":"gpt-4.1-mini","messages":[{"role":"user","content":"hi"},{"role":"assistant","tool_calls":[{"id":"c","type":"function","function":{"name":"f","arguments":"` +
			args + `"}}]},{"role":"tool","tool_call_id":"c","content":"r"}],"tools":[{"type":"function","function":{"name":"f"}}]}`
	}},
	{"responses: a strict tool schema nested deep and wide", "/v1/responses", func(n int) string {
		return `{"model":"gpt-4.1-mini","input":"hi","tools":[{"type":"function","name":"f","strict":true,"parameters":` + nestedSchema(60, n) + `}]}`
	}},
	{"responses: many input items", "/v1/responses", func(n int) string {
		return `{"model":"gpt-4.1-mini","input":[` + repeated(n/4, ",", func(i int) string { return `{"role":"user","content":"i"}` }) + `]}`
	}},
	{"messages: tool_result blocks nested in each other", "/v1/messages", func(n int) string {
		return `{"model":"claude-sonnet-5-5","max_tokens":10,"messages":[{"role":"user","content":"hi"},{"role":"assistant","content":[{"type":"tool_use","id":"t","name":"f","input":{}}]},{"role":"user","content":` +
			nestedToolResults(n/4) + `}]}`
	}},
	{"count_tokens: tool_result blocks nested in each other", "/v1/messages/count_tokens", func(n int) string {
		return `{"model":"claude-sonnet-5-5","messages":[{"role":"user","content":"hi"},{"role":"assistant","content":[{"type":"tool_use","id":"t","name":"f","input":{}}]},{"role":"user","content":` +
			nestedToolResults(n/4) + `}]}`
	}},
	{"messages: many blocks", "/v1/messages", func(n int) string {
		return `{"model":"claude-sonnet-5-5","max_tokens":10,"messages":[{"role":"user","content":[` +
			repeated(n, ",", func(i int) string { return `{"type":"text","text":"b"}` }) + `]}]}`
	}},
	{"messages: many cache breakpoints", "/v1/messages", func(n int) string {
		return `{"model":"claude-sonnet-5-5","max_tokens":10,"messages":[{"role":"user","content":[` +
			repeated(n, ",", func(i int) string { return `{"type":"text","text":"b","cache_control":{"type":"ephemeral"}}` }) + `]}]}`
	}},
	{"messages: a deep tool input", "/v1/messages", func(n int) string {
		return `{"model":"claude-sonnet-5-5","max_tokens":10,"messages":[{"role":"user","content":"hi"},{"role":"assistant","content":[{"type":"tool_use","id":"t","name":"f","input":{"a":` +
			strings.Repeat("[", n/4) + strings.Repeat("]", n/4) + `}}]},{"role":"user","content":[{"type":"tool_result","tool_use_id":"t","content":"r"}]}]}`
	}},
}

// serveAllocated sends body to path through the server's handler, in
// process, and returns the status and the bytes the request allocated.
func serveAllocated(t *testing.T, h http.Handler, sess *session.Session, path, body string) (int, uint64) {
	t.Helper()
	r := httptest.NewRequest(http.MethodPost, path, strings.NewReader(body))
	r.Header.Set("Content-Type", "application/json")
	r.Header.Set("Anthropic-Version", "2023-06-01")
	r.Header.Set(session.HeaderSession, sess.ID())
	r.Header.Set(session.HeaderSessionKey, sess.Key())
	w := httptest.NewRecorder()
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	h.ServeHTTP(w, r)
	runtime.ReadMemStats(&after)
	return w.Code, after.TotalAlloc - before.TotalAlloc
}

// The work a body makes the server do grows with the body, not faster:
// for each shape, a body twice as large allocates at most about twice as
// much. A decoding that reads every level of a nesting again, or a check
// that decodes each subschema's subtree again, made these grow with the
// square of the body (a 258 KiB body of nested tool_result blocks held a
// core for 30 s).
func TestHostileBodiesCostLinearWork(t *testing.T) {
	if testing.Short() {
		t.Skip("measures allocations of large bodies")
	}
	srv := llmtest.NewServer(t, llmtest.WithMaxRequestBytes(64<<20))
	sess := srv.NewSession(t)
	sess.Chat("any").Repeat().Responds("ok")
	h := srv.Manager().Handler()
	for _, shape := range hostileShapes {
		t.Run(shape.name, func(t *testing.T) {
			const n = 8000
			small, large := shape.body(n), shape.body(2*n)
			status, smallAlloc := serveAllocated(t, h, sess, shape.path, small)
			_, largeAlloc := serveAllocated(t, h, sess, shape.path, large)
			ratio := float64(largeAlloc) / float64(max(smallAlloc, 1))
			t.Logf("%d B: status %d, %d B allocated; %d B: %d B allocated (%.2fx)", len(small), status, smallAlloc, len(large), largeAlloc, ratio)
			if ratio > 2.6 {
				t.Errorf("a body of %d B allocated %.2fx what one of %d B did: the work grows faster than the body", len(large), ratio, len(small))
			}
		})
	}
}

// BenchmarkHostileBodies serves each shape at the larger size of
// TestHostileBodiesCostLinearWork, for the time and bytes each costs the
// server (go test -run X -bench HostileBodies ./llmtest).
func BenchmarkHostileBodies(b *testing.B) {
	srv, err := llmtest.New(llmtest.WithMaxRequestBytes(64 << 20))
	if err != nil {
		b.Fatal(err)
	}
	defer srv.Close()
	sess, err := srv.OpenSession()
	if err != nil {
		b.Fatal(err)
	}
	sess.Chat("any").Repeat().Responds("ok")
	h := srv.Manager().Handler()
	for _, shape := range hostileShapes {
		body := shape.body(16000)
		b.Run(shape.name, func(b *testing.B) {
			b.SetBytes(int64(len(body)))
			b.ReportAllocs()
			for b.Loop() {
				r := httptest.NewRequest(http.MethodPost, shape.path, strings.NewReader(body))
				r.Header.Set("Content-Type", "application/json")
				r.Header.Set("Anthropic-Version", "2023-06-01")
				r.Header.Set(session.HeaderSession, sess.ID())
				r.Header.Set(session.HeaderSessionKey, sess.Key())
				h.ServeHTTP(httptest.NewRecorder(), r)
			}
		})
	}
}
