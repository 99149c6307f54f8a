package runtime

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
// place in the storing order (where Update makes it the newest), and evicts the oldest records until the
// history's max bytes hold again (r itself, if it is the oldest). It
// reports whether r is kept: false if no record has its ID, if r alone is
// larger than the max bytes (the old record is then dropped, as Store
// would not keep r), or if it was evicted. Records are immutable once
// stored, so a change such as new metadata is a new record put in place.
func (rt *Runtime) Replace(r Stored) bool {
	k := kept{r: r, size: r.Size()}
	rt.mu.Lock()
	defer rt.mu.Unlock()
	id := r.StoredID()
	old, ok := rt.history.byID[id]
	if rt.retired || !ok {
		return false
	}
	rt.history.bytes -= old.size
	if k.size > rt.settings.HistoryMaxBytes {
		delete(rt.history.byID, id)
		return false
	}
	k.seq = old.seq // the same slot: the record keeps its place
	rt.history.byID[id] = k
	rt.history.bytes += k.size
	rt.trimHistory(rt.settings.HistoryCapacity)
	_, ok = rt.history.byID[id]
	return ok
}
