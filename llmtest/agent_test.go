package llmtest_test

import (
	"fmt"
	"testing"

	"github.com/llmtestserver/llmtestserver/journal"
	"github.com/llmtestserver/llmtestserver/session"
)

// The agent tests run one tool-calling loop, written once over an SDK-neutral
// conversation, through openai-go and go-openai, streamed and not.

// journalOf returns the session's journal once it holds n entries. A
// streamed request is journaled after its last event is written, so a
// client that stops reading at [DONE] can get ahead of its entry.
func journalOf(t *testing.T, sess *session.Session, n int) []journal.Entry {
	t.Helper()
	eventually(t, fmt.Sprintf("the journal holds %d entries", n), func() bool { return sess.Journal().Len() >= n })
	return sess.Journal().Entries()
}
