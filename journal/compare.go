package journal

import "time"

// WithoutTimes returns e with Time, Duration and FirstByte zeroed: what
// differs between two runs of the same test whatever the session's seed.
// Compare entries with it (assert.Equal(t, want.WithoutTimes(),
// got.WithoutTimes())), typically the entries of two sessions that ran the
// same code, or of a session and the golden entries it wrote before. The
// other fields are the same on every run of one machine and SDK, except
// the IDs the server generates (ResponseID, and the Conversation of a
// Responses API chain), which are only when the session has an ID seed
// (session.WithIDSeed). Headers and Client name the SDK's version and the
// platform: an entry written by hand compares best field by field.
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
