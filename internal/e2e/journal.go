package e2e

import (
	"fmt"
	"testing"

	"github.com/llmtestserver/llmtestserver/journal"
	"github.com/llmtestserver/llmtestserver/llmtest"
	"github.com/llmtestserver/llmtestserver/session"
)

// JournalOf returns the session's journal once it holds n entries. A
// request is journaled after its answer is written (a stream after its last
// event), so a client that stops reading at [DONE] can get ahead of its
// entry.
func JournalOf(t testing.TB, sess *session.Session, n int) []journal.Entry {
	t.Helper()
	Eventually(t, fmt.Sprintf("the journal holds %d entries", n), func() bool { return sess.Journal().Len() >= n })
	return sess.Journal().Entries()
}

// CheckStatuses checks the status and error code of every journal entry,
// waiting for the journal to hold one per status.
func CheckStatuses(t testing.TB, sess *session.Session, statuses []int, codes []string) {
	t.Helper()
	entries := JournalOf(t, sess, len(statuses))
	if len(entries) != len(statuses) {
		t.Fatalf("journal holds %d entries, want %d:\n%s", len(entries), len(statuses), llmtest.Transcript(sess))
	}
	for i, e := range entries {
		if e.Status != statuses[i] || e.ErrorCode != codes[i] {
			t.Errorf("entry %d: status %d code %q, want %d %q", i+1, e.Status, e.ErrorCode, statuses[i], codes[i])
		}
	}
}
