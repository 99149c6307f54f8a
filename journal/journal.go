package journal

import (
	"sync"

	"github.com/llmtestserver/llmtestserver/internal/friend"
)

// Journal is a bounded, concurrency-safe record of entries, read-only for
// its users: a session's journal is written by the session's runtime alone,
// which holds its writer. The zero value is an empty journal.
type Journal struct {
	mu       sync.Mutex
	capacity int     // most entries kept
	maxBytes int64   // most bytes kept, as counted by Entry.size
	ring     []Entry // kept entries, oldest at head; grows up to capacity
	head     int     // index in ring of the oldest entry
	count    int     // number of kept entries
	bytes    int64   // sum of the sizes of kept entries
	seq      uint64  // Seq of the last recorded entry
	evicted  uint64  // entries dropped to respect the bounds

	unmatched    int  // entries recorded with NoScenarioCode
	mismatches   int  // entries recorded with SchemaErrors
	contradicted int  // entries recorded with Contradictions
	frozen       bool // set by Freeze: nothing changes any more
}

func init() { friend.RegisterJournal(newJournal) }

// newJournal returns an empty journal that keeps at most capacity entries
// and maxBytes bytes, and its writer.
func newJournal(capacity int, maxBytes int64) (*Journal, friend.JournalWriter[Entry]) {
	j := &Journal{capacity: capacity, maxBytes: maxBytes}
	return j, writer{j}
}

// writer is the write side of a journal, which the module hands only to
// the runtime that owns the journal (see package friend).
type writer struct{ j *Journal }

// Record appends e, numbering it, and evicts the oldest entries that no
// longer fit. The journal keeps its own copies of e's strings, shortened:
// texts (user and reply texts, tool results and arguments, schema errors)
// to 8 KiB, names and identifiers to 512 bytes, and lists to 128 items.
func (w writer) Record(e Entry) {
	j := w.j
	e = own(e)
	j.mu.Lock()
	defer j.mu.Unlock()
	if j.frozen {
		return
	}
	j.seq++
	e.Seq = j.seq
	if e.ErrorCode == NoScenarioCode {
		j.unmatched++
	}
	if len(e.SchemaErrors) > 0 {
		j.mismatches++
	}
	if len(e.Contradictions) > 0 {
		j.contradicted++
	}
	if j.count == j.capacity {
		j.dropOldest()
	}
	if j.count == len(j.ring) {
		j.grow()
	}
	j.ring[(j.head+j.count)%len(j.ring)] = e
	j.count++
	j.bytes += e.size()
	j.trim()
}

// grow enlarges the ring, oldest entry first, without passing capacity, so an
// idle journal costs nothing. The caller holds mu.
func (j *Journal) grow() {
	n := min(max(2*len(j.ring), 16), j.capacity)
	j.ring = append(j.ordered(make([]Entry, 0, n)), make([]Entry, n-j.count)...)
	j.head = 0
}

// dropOldest evicts the oldest entry. The caller holds mu.
func (j *Journal) dropOldest() {
	j.bytes -= j.ring[j.head].size()
	j.ring[j.head] = Entry{} // release its strings
	j.head = (j.head + 1) % len(j.ring)
	j.count--
	j.evicted++
}

// trim evicts the oldest entries until both bounds hold. The caller holds mu.
func (j *Journal) trim() {
	for j.count > 0 && (j.count > j.capacity || j.bytes > j.maxBytes) {
		j.dropOldest()
	}
}

// ordered appends the kept entries to dst, oldest first. The caller holds mu.
func (j *Journal) ordered(dst []Entry) []Entry {
	for i := range j.count {
		dst = append(dst, j.ring[(j.head+i)%len(j.ring)])
	}
	return dst
}

// Entries returns a copy of the kept entries, oldest first.
func (j *Journal) Entries() []Entry {
	j.mu.Lock()
	defer j.mu.Unlock()
	if j.count == 0 {
		return nil
	}
	return j.ordered(make([]Entry, 0, j.count))
}

// Last returns the newest entry, and false when the journal is empty.
func (j *Journal) Last() (Entry, bool) {
	j.mu.Lock()
	defer j.mu.Unlock()
	if j.count == 0 {
		return Entry{}, false
	}
	return j.ring[(j.head+j.count-1)%len(j.ring)], true
}

// Len returns the number of kept entries.
func (j *Journal) Len() int {
	j.mu.Lock()
	defer j.mu.Unlock()
	return j.count
}

// Evicted returns how many entries were dropped to respect the bounds since
// the journal was created or last reset.
func (j *Journal) Evicted() uint64 {
	j.mu.Lock()
	defer j.mu.Unlock()
	return j.evicted
}

// Reset forgets every entry and restarts numbering.
func (w writer) Reset() {
	j := w.j
	j.mu.Lock()
	defer j.mu.Unlock()
	if j.frozen {
		return
	}
	j.ring, j.head, j.count, j.bytes, j.seq, j.evicted = nil, 0, 0, 0, 0, 0
	j.unmatched, j.mismatches, j.contradicted = 0, 0, 0
}

// Resize changes the bounds, evicting what no longer fits.
func (w writer) Resize(capacity int, maxBytes int64) {
	j := w.j
	j.mu.Lock()
	defer j.mu.Unlock()
	if j.frozen {
		return
	}
	j.capacity, j.maxBytes = capacity, maxBytes
	j.trim()
	// Re-lay the ring so that it never holds more slots than the new capacity.
	kept := j.ordered(make([]Entry, 0, j.count))
	j.ring, j.head = kept, 0
}

// Freeze makes the journal read-only for good: Record, Reset and Resize
// change nothing from then on. A deleted session's journal is frozen, so
// that what a test reads after deleting it is what the session recorded.
func (w writer) Freeze() {
	j := w.j
	j.mu.Lock()
	defer j.mu.Unlock()
	j.frozen = true
}
