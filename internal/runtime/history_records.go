package runtime

import "slices"

// Records returns the kept records in storing order, oldest first: what a
// codec lists, such as the stored chat completions of a session. The slice
// is the caller's; the records are shared and must not be changed.
func (rt *Runtime) Records() []Stored {
	rt.mu.Lock()
	defer rt.mu.Unlock()
	h := &rt.history
	out := make([]Stored, 0, len(h.byID))
	for _, s := range h.order {
		if h.current(s) {
			out = append(out, h.byID[s.id].r)
		}
	}
	return out
}

// Replace puts r in place of the kept record with r's ID, keeping its
// place in the storing order (where Update makes it the newest), and
// evicts the oldest records until the history's max bytes hold again. It
// never evicts r itself: a replacement that would not fit beside the
// records newer than it is refused, and the old record stays as it was.
// It reports whether r is kept: false if no record has its ID (never
// stored, evicted, deleted, or the runtime retired) or if r was refused.
// Records are immutable once stored, so a change such as new metadata is
// a new record put in place.
func (rt *Runtime) Replace(r Stored) bool {
	k := kept{r: r, size: r.Size()}
	rt.mu.Lock()
	defer rt.mu.Unlock()
	h := &rt.history
	id := r.StoredID()
	old, ok := h.byID[id]
	if rt.retired || !ok {
		return false
	}
	// Trimming takes the oldest first, so it reaches r only once every
	// record older than r is gone: r fits if it and the newer ones do.
	need := k.size
	at := slices.Index(h.order, slot{id, old.seq})
	for _, s := range h.order[at+1:] {
		if h.current(s) {
			need += h.byID[s.id].size
		}
	}
	if need > rt.settings.HistoryMaxBytes {
		return false
	}
	k.seq = old.seq // the same slot: the record keeps its place
	h.byID[id] = k
	h.bytes += k.size - old.size
	rt.trimHistory(rt.settings.HistoryCapacity)
	return true
}
