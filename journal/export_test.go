package journal

import "github.com/llmtestserver/llmtestserver/internal/friend"

// Recorder is a journal with its writer, for this package's external
// tests, which write journals as only a runtime may.
type Recorder struct {
	*Journal
	friend.JournalWriter[Entry]
}

// New returns an empty journal within the bounds, with its writer.
func New(capacity int, maxBytes int64) Recorder {
	j, w := newJournal(capacity, maxBytes)
	return Recorder{j, w}
}
