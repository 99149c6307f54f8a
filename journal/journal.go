package journal

import "sync"

// Journal is a bounded, concurrency-safe record of entries. The zero value is
// not usable; call New.
type Journal struct {
	mu       sync.Mutex
	capacity int     // most entries kept
	maxBytes int64   // most bytes kept, as counted by Entry.size
	entries  []Entry // oldest first
	bytes    int64   // sum of the sizes of entries
	seq      uint64  // Seq of the last recorded entry
	evicted  uint64  // entries dropped to respect the bounds
}

// New returns an empty journal that keeps at most capacity entries and
// maxBytes bytes.
func New(capacity int, maxBytes int64) *Journal {
	return &Journal{capacity: capacity, maxBytes: maxBytes}
}

// Record appends e, numbering it, and evicts the oldest entries that no
// longer fit. Text fields longer than 8 KiB are shortened.
func (j *Journal) Record(e Entry) {
	e.UserText, e.ReplyText = clip(e.UserText), clip(e.ReplyText)
	j.mu.Lock()
	defer j.mu.Unlock()
	j.seq++
	e.Seq = j.seq
	j.entries = append(j.entries, e)
	j.bytes += e.size()
	j.trim()
}

// trim evicts the oldest entries until both bounds hold. The caller holds mu.
func (j *Journal) trim() {
	drop := 0
	for drop < len(j.entries) && (len(j.entries)-drop > j.capacity || j.bytes > j.maxBytes) {
		j.bytes -= j.entries[drop].size()
		drop++
	}
	if drop == 0 {
		return
	}
	j.evicted += uint64(drop)
	// Copy the survivors down so the backing array does not keep evicted
	// entries reachable.
	n := copy(j.entries, j.entries[drop:])
	clear(j.entries[n:])
	j.entries = j.entries[:n]
}

// Entries returns a copy of the kept entries, oldest first.
func (j *Journal) Entries() []Entry {
	j.mu.Lock()
	defer j.mu.Unlock()
	return append([]Entry(nil), j.entries...)
}

// Last returns the newest entry, and false when the journal is empty.
func (j *Journal) Last() (Entry, bool) {
	j.mu.Lock()
	defer j.mu.Unlock()
	if len(j.entries) == 0 {
		return Entry{}, false
	}
	return j.entries[len(j.entries)-1], true
}

// Len returns the number of kept entries.
func (j *Journal) Len() int {
	j.mu.Lock()
	defer j.mu.Unlock()
	return len(j.entries)
}

// Evicted returns how many entries were dropped to respect the bounds since
// the journal was created or last reset.
func (j *Journal) Evicted() uint64 {
	j.mu.Lock()
	defer j.mu.Unlock()
	return j.evicted
}

// Reset forgets every entry and restarts numbering.
func (j *Journal) Reset() {
	j.mu.Lock()
	defer j.mu.Unlock()
	j.entries, j.bytes, j.seq, j.evicted = nil, 0, 0, 0
}

// Resize changes the bounds, evicting what no longer fits.
func (j *Journal) Resize(capacity int, maxBytes int64) {
	j.mu.Lock()
	defer j.mu.Unlock()
	j.capacity, j.maxBytes = capacity, maxBytes
	j.trim()
}
