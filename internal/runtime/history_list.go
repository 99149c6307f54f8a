package runtime

import "time"

// Described is what a Stored record may tell of itself for the listing of
// a session's history (RecordInfos): the codec's name of its kind and
// when it was made. The runtime stays ignorant of what records hold.
type Described interface {
	// StoredKind names the record's kind, such as "response".
	StoredKind() string
	// StoredCreated is when the record was made, on the runtime's clock.
	StoredCreated() time.Time
}

// RecordInfo describes one kept record of the history.
type RecordInfo struct {
	// ID is the record's ID, and PreviousID the ID of the record it
	// continues, or "".
	ID, PreviousID string
	// Kind and Created are what the record tells of itself (see
	// Described); "" and the zero time when it tells nothing.
	Kind    string
	Created time.Time
	// Size is the bytes the record counts against the history's max
	// bytes.
	Size int64
}

// RecordInfos describes the kept records in storing order, oldest first,
// and returns the bytes they keep together. The slice is the caller's.
func (rt *Runtime) RecordInfos() ([]RecordInfo, int64) {
	rt.mu.Lock()
	h := &rt.history
	kept := make([]kept, 0, len(h.byID))
	for _, s := range h.order {
		if h.current(s) {
			kept = append(kept, h.byID[s.id])
		}
	}
	bytes := h.bytes
	rt.mu.Unlock()
	// Records are immutable once stored: they are described outside the
	// lock.
	out := make([]RecordInfo, len(kept))
	for i, k := range kept {
		out[i] = RecordInfo{ID: k.r.StoredID(), PreviousID: k.r.PreviousID(), Size: k.size}
		if d, ok := k.r.(Described); ok {
			out[i].Kind, out[i].Created = d.StoredKind(), d.StoredCreated()
		}
	}
	return out, bytes
}
