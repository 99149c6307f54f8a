package llmtest_test

import (
	"fmt"
	"net"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/llmtestserver/llmtestserver/internal/e2e"
	"github.com/llmtestserver/llmtestserver/internal/leakcheck"
	"github.com/llmtestserver/llmtestserver/internal/tokens"
	"github.com/llmtestserver/llmtestserver/llmtest"
	"github.com/llmtestserver/llmtestserver/session"
)

// rawRequest opens a connection to srv and sends a request's head and the
// first part of its body; it never reads the answer.
func rawRequest(t *testing.T, srv *llmtest.Server, method, path string, headers []string, contentLength int, body string) net.Conn {
	t.Helper()
	skipInMemory(t, srv, "raw connections that stall mid-request")
	conn, err := net.Dial("tcp", strings.TrimPrefix(srv.URL(), "http://"))
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s %s HTTP/1.1\r\nHost: llmtest\r\nContent-Type: application/json\r\nContent-Length: %d\r\n", method, path, contentLength)
	for i := 0; i+1 < len(headers); i += 2 {
		fmt.Fprintf(&b, "%s: %s\r\n", headers[i], headers[i+1])
	}
	b.WriteString("\r\n")
	b.WriteString(body)
	if _, err := conn.Write([]byte(b.String())); err != nil {
		t.Fatal(err)
	}
	return conn
}

// handlersIn counts the goroutines whose stack runs through fn.
func handlersIn(fn string) int { return strings.Count(leakcheck.Stacks(), fn) }

// Clients that never read their streams or never finish their bodies hold
// neither their session's deletion nor Server.Close: deleting the session
// ends its handlers, Close returns within a bounded time, and every
// goroutine and buffer of those requests is gone afterwards, while the
// clients still hold their connections open.
func TestCloseWithStuckClients(t *testing.T) {
	if testing.Short() {
		t.Skip("measures the heap")
	}
	defer leakcheck.Check(t, leakcheck.Current())
	tokens.Split(e2e.ReplyModel, "Load the tokenizer's tables, which stay.")
	runtime.GC()
	var before runtime.MemStats
	runtime.ReadMemStats(&before)

	srv, err := llmtest.New()
	if err != nil {
		t.Fatal(err)
	}
	sess, err := srv.OpenSession(session.WithStream(1, 0, 0))
	if err != nil {
		t.Fatal(err)
	}
	text := strings.Repeat("Nobody reads this answer. ", 8<<10) // 208 KiB, more than the sockets buffer
	sess.Chat("long").Responds(text).Repeat()
	sel := e2e.Join(e2e.SelectorOf(sess), e2e.Bearer("k"))

	var conns []net.Conn
	defer func() {
		for _, c := range conns {
			c.Close()
		}
	}()
	stream := fmt.Sprintf(`{"model":%q,"stream":true,"n":4,"messages":[{"role":"user","content":"Hi"}]}`, e2e.ReplyModel)
	for range 8 {
		conns = append(conns, rawRequest(t, srv, "POST", "/v1/chat/completions", sel, len(stream), stream))
	}
	// 9 of the 1,000 bytes declared, to the session and to session creation.
	conns = append(conns, rawRequest(t, srv, "POST", "/v1/chat/completions", sel, 1000, `{"model":`))
	conns = append(conns, rawRequest(t, srv, "POST", "/admin-api/sessions", e2e.Bearer(srv.ManagementKey()), 1000, `{"scenari`))
	const provider = "internal/httpx.Serve("
	e2e.Eventually(t, "every request is being served", func() bool { return handlersIn(provider) == 9 })

	sess.Close()
	e2e.Eventually(t, "the deleted session's handlers end", func() bool { return handlersIn(provider) == 0 })

	closed := make(chan struct{})
	go func() {
		srv.Close()
		close(closed)
	}()
	select {
	case <-closed:
	case <-time.After(30 * time.Second):
		t.Fatal("Server.Close did not return within 30s while clients held their connections")
	}
	runtime.GC()
	var after runtime.MemStats
	runtime.ReadMemStats(&after)
	grown := int64(after.HeapAlloc) - int64(before.HeapAlloc)
	t.Logf("heap growth after Close: %d KiB", grown>>10)
	if grown > 4<<20 {
		t.Errorf("the heap grew by %d KiB and stayed so after Close, want at most 4 MiB", grown>>10)
	}
}
