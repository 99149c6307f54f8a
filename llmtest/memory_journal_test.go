package llmtest_test

import (
	"runtime"
	"strings"
	"testing"

	"github.com/llmtestserver/llmtestserver/internal/e2e"
	"github.com/llmtestserver/llmtestserver/llmtest"
	"github.com/llmtestserver/llmtestserver/session"
)

// A session's journal keeps about its max_bytes whatever the prompts are:
// chat requests with 1 MiB prompts once grew the heap by a MiB per kept
// entry, since each kept its whole prompt (1,000 of them against the
// default 8 MiB journal: 1 GiB). Here 40 requests go to a 256 KiB journal.
// Each entry keeps about 40 KiB of such a request: the prompt's first 8 KiB
// as its user text and again as its request's message, and the first 16
// KiB of its body; so the journal keeps the newest 6.
func TestJournalMemoryStaysWithinMaxBytes(t *testing.T) {
	if testing.Short() {
		t.Skip("sends 40 MiB and measures the heap")
	}
	const maxBytes = 256 << 10
	srv := llmtest.NewServer(t)
	sess := srv.NewSession(t, session.WithJournal(1000, maxBytes), session.IgnoreContextWindow()) // prompts past the window
	sess.Chat("answer").Responds("noted").Repeat()
	client := e2e.ClientFor(sess, "k")
	prompt := strings.Repeat("All work and no play makes Jack a dull boy. ", (1<<20)/44)
	ask := func() {
		t.Helper()
		if _, err := client.Chat.Completions.New(t.Context(), e2e.UserTurn("gpt-4o-mini", prompt)); err != nil {
			t.Fatal(err)
		}
	}
	for range 3 {
		ask() // loads the tokenizer, caches the prompt's count, fills pools
	}
	before := e2e.LiveHeap()
	for range 40 {
		ask()
	}
	grown := e2e.LiveHeap() - before
	runtime.KeepAlive(prompt) // live at both readings
	kept := sess.Journal().Len()
	t.Logf("40 requests with 1 MiB prompts grew the heap by %.2f MiB; the journal (max_bytes %d KiB) keeps %d entries",
		float64(grown)/(1<<20), maxBytes>>10, kept)
	// Slack of 1 MiB for what the server and the client keep between
	// requests, such as pooled buffers.
	if grown > maxBytes+1<<20 {
		t.Errorf("the heap grew by %d bytes, want at most the journal's max_bytes of %d and 1 MiB", grown, maxBytes)
	}
	if kept < 5 {
		t.Errorf("the journal keeps %d entries, want the newest that fit", kept)
	}
}
