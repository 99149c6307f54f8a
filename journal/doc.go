// Package journal records what a session's clients really sent and what they
// got back, so tests can assert on it.
//
// Every provider request that reaches a session is recorded as one [Entry]:
// method, path, status, model, the last user text, the reply text and timing.
// Credentials never enter the journal: neither the session key nor any bearer
// token is stored. The journal is bounded by a number of entries and a number
// of bytes; when either bound would be passed the oldest entries go first and
// are counted in [Journal.Evicted].
package journal
