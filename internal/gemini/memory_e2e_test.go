package gemini_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	goruntime "runtime"
	"testing"

	"github.com/llmtestserver/llmtestserver/internal/e2e"
	"github.com/llmtestserver/llmtestserver/llmtest"
	"github.com/llmtestserver/llmtestserver/session"
)

// generateBody is a generateContent body of one user text.
func generateBody(text string) string {
	b, _ := json.Marshal(map[string]any{"contents": []any{map[string]any{"role": "user", "parts": []any{map[string]any{"text": text}}}}})
	return string(b)
}

// cacheBody is a cachedContents create body holding one user text.
func cacheBody(text string) string {
	b, _ := json.Marshal(map[string]any{"model": "models/gemini-2.5-flash", "ttl": "3600s",
		"contents": []any{map[string]any{"role": "user", "parts": []any{map[string]any{"text": text}}}}})
	return string(b)
}

func post(t *testing.T, srv *llmtest.Server, sess *session.Session, path, body string) {
	t.Helper()
	r := e2e.Call(t, srv.Client(), "POST", sess.GeminiBaseURL()+path, body, e2e.SelectorOf(sess)...)
	if r.Status != http.StatusOK {
		t.Fatalf("%s: status %d: %.300s", path, r.Status, r.Body)
	}
}

// Large generateContent bodies are not kept: 8 requests of 1 MiB grow the
// heap by no more than the journal's bound and two bodies, not 8 MiB (the
// journal keeps a bounded view of each); and one such request allocates a
// bounded multiple of its body.
func TestLargeGenerateBodiesAreNotKept(t *testing.T) {
	if testing.Short() {
		t.Skip("heap measurement")
	}
	const (
		requests     = 8
		bodyBytes    = 1 << 20
		journalBytes = 256 << 10
	)
	srv := llmtest.NewServer(t)
	sess := srv.NewSession(t, session.WithJournal(requests, journalBytes), session.IgnoreContextWindow())
	sess.Chat("any").Responds("ok").Repeat()
	body := generateBody(e2e.BigText(bodyBytes))
	const path = "/v1beta/models/gemini-2.5-flash:generateContent"
	post(t, srv, sess, path, body) // warm up

	var ms goruntime.MemStats
	goruntime.ReadMemStats(&ms)
	allocBefore := ms.TotalAlloc
	post(t, srv, sess, path, body)
	goruntime.ReadMemStats(&ms)
	perRequest := ms.TotalAlloc - allocBefore

	before := e2e.LiveHeap()
	for range requests {
		post(t, srv, sess, path, body)
	}
	growth := e2e.LiveHeap() - before
	t.Logf("one %d KiB generateContent allocated %.1f MiB (%.1fx its body); %d of them grew the heap by %.2f MiB (journal max %d KiB)",
		bodyBytes>>10, float64(perRequest)/(1<<20), float64(perRequest)/bodyBytes, requests, float64(growth)/(1<<20), journalBytes>>10)
	if limit := int64(2*journalBytes + 2*bodyBytes); growth > limit {
		t.Errorf("heap grew by %d bytes, want at most %d", growth, limit)
	}
	// The body is read, normalized and decoded, tokenized and journaled;
	// a multiple beyond this would be a copy per pass too many.
	if limit := uint64(24 * bodyBytes); perRequest > limit {
		t.Errorf("one request allocated %d bytes, want at most %d", perRequest, limit)
	}
	goruntime.KeepAlive(sess)
}

// Explicit caches are kept in the session's history, so its max bytes
// bound them: 20 caches of 256 KiB keep about 1 MiB, not 5.
func TestCachedContentsRetainAtMostTheHistorysMaxBytes(t *testing.T) {
	if testing.Short() {
		t.Skip("heap measurement")
	}
	const (
		caches       = 20
		cacheBytes   = 256 << 10
		historyBytes = 1 << 20
		journalBytes = 64 << 10
	)
	srv := llmtest.NewServer(t)
	sess := srv.NewSession(t, session.WithJournal(2, journalBytes), session.WithHistoryMaxBytes(historyBytes),
		session.IgnoreContextWindow())
	const path = "/v1beta/cachedContents"
	post(t, srv, sess, path, cacheBody(e2e.BigText(cacheBytes))) // warm up

	before := e2e.LiveHeap()
	for i := range caches {
		post(t, srv, sess, path, cacheBody(fmt.Sprint(i)+e2e.BigText(cacheBytes)))
	}
	growth := e2e.LiveHeap() - before
	t.Logf("%d caches of %d KiB: heap grew by %.2f MiB (history.max_bytes %d MiB)",
		caches, cacheBytes>>10, float64(growth)/(1<<20), historyBytes>>20)
	if limit := int64(2*(historyBytes+journalBytes) + 2*cacheBytes); growth > limit {
		t.Errorf("heap grew by %d bytes, want at most %d", growth, limit)
	}
	goruntime.KeepAlive(sess)
}
