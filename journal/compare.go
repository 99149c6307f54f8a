package journal

import "time"

// WithoutTimes returns e with Time, Duration and FirstByte zeroed: what
// differs between two runs of the same test whatever the session's seed.
// Compare entries with it (assert.Equal(t, want, got.WithoutTimes())).
// The other fields are the same on every run, except the IDs the server
// generates (ResponseID, and the Conversation of a Responses API chain),
// which are only when the session has an ID seed (session.WithIDSeed).
func (e Entry) WithoutTimes() Entry {
	e.Time, e.Duration, e.FirstByte = time.Time{}, 0, 0
	return e
}

// WithoutTimes returns a new slice of entries, each WithoutTimes, for
// comparing what a query returned with what a test expects; nil for none.
func WithoutTimes(entries []Entry) []Entry {
	if entries == nil {
		return nil
	}
	out := make([]Entry, len(entries))
	for i, e := range entries {
		out[i] = e.WithoutTimes()
	}
	return out
}
