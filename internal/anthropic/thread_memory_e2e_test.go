package anthropic_test

import (
	"net/http"
	goruntime "runtime"
	"testing"

	"github.com/llmtestserver/llmtestserver/internal/e2e"
	"github.com/llmtestserver/llmtestserver/llmtest"
	"github.com/llmtestserver/llmtestserver/session"
)

// createThreads sends n thread-creating requests of a user message of
// size bytes to sess.
func createThreads(t *testing.T, srv *llmtest.Server, sess *session.Session, n, size int) {
	t.Helper()
	headers := append(e2e.AnthropicSelectorOf(sess), "anthropic-beta", "message-threads-2026-08-12")
	text := e2e.BigText(size)
	for range n {
		r := e2e.Call(t, srv.Client(), "POST", sess.AnthropicBaseURL()+"/v1/messages",
			threadBody(`{"type":"create"}`, text, ""), headers...)
		if r.Status != http.StatusOK {
			t.Fatalf("status %d: %.200s", r.Status, r.Body)
		}
	}
}

// The heap the threads of a session retain is bounded by history.max_bytes,
// whatever their size: 64 threads of 256 KiB messages keep about 1 MiB,
// not 16. The journal is kept small so that only the history is measured.
func TestThreadsRetainAtMostTheHistorysMaxBytes(t *testing.T) {
	if testing.Short() {
		t.Skip("heap measurement")
	}
	const (
		threads      = 64
		messageBytes = 256 << 10
		historyBytes = 1 << 20
		journalBytes = 64 << 10
	)
	srv := llmtest.NewServer(t)
	sess := srv.NewSession(t, session.WithJournal(2, journalBytes), session.WithHistoryMaxBytes(historyBytes),
		session.IgnoreContextWindow())
	sess.Chat("any").Responds("ok").Repeat()
	createThreads(t, srv, sess, 1, messageBytes) // warm up

	before := e2e.LiveHeap()
	createThreads(t, srv, sess, threads, messageBytes)
	growth := e2e.LiveHeap() - before
	t.Logf("%d threads of %d KiB messages: heap grew by %.2f MiB (history.max_bytes %d MiB)",
		threads, messageBytes>>10, float64(growth)/(1<<20), historyBytes>>20)
	if limit := int64(2*(historyBytes+journalBytes) + 2*messageBytes); growth > limit {
		t.Errorf("heap grew by %d bytes, want at most %d", growth, limit)
	}
	goruntime.KeepAlive(sess)
}

// A thread turn's Size, which the history's max bytes add up, is no less
// than the heap the turn keeps: 16 threads of 256 KiB messages, all kept,
// grow the heap by no more than the history's count of their bytes.
func TestThreadTurnSizeBoundsItsHeap(t *testing.T) {
	if testing.Short() {
		t.Skip("heap measurement")
	}
	const (
		threads      = 16
		messageBytes = 256 << 10
	)
	srv := llmtest.NewServer(t)
	sess := srv.NewSession(t, session.WithJournal(2, 64<<10), session.WithHistoryMaxBytes(256<<20),
		session.IgnoreContextWindow())
	sess.Chat("any").Responds("ok").Repeat()
	createThreads(t, srv, sess, 1, messageBytes) // warm up
	keptBefore := sess.History().Bytes

	before := e2e.LiveHeap()
	createThreads(t, srv, sess, threads, messageBytes)
	growth := e2e.LiveHeap() - before
	counted := sess.History().Bytes - keptBefore
	t.Logf("%d threads of %d KiB: heap grew by %.2f MiB, the history counts %.2f MiB", threads, messageBytes>>10,
		float64(growth)/(1<<20), float64(counted)/(1<<20))
	// The journal's two entries may hold a message each.
	if slack := int64(2 * messageBytes); growth > counted+slack {
		t.Errorf("heap grew by %d bytes, more than the %d the history counts (+%d)", growth, counted, slack)
	}
	goruntime.KeepAlive(sess)
}
