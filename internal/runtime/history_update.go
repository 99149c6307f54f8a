package runtime

// Update replaces the kept record id with the record update returns for it,
// atomically: two requests that update the same record one after the other
// each see the other's change. update receives the kept record and the
// history's max bytes, and returns the new record under the same ID, or nil
// to leave the history as it is; it runs under the runtime's lock, so it
// must be quick and must not call the runtime. The new record is kept as
// Store keeps one: the newest, evicting the oldest others until the
// capacity and max bytes hold. A new record larger than max bytes by
// itself is not kept, and the old one stays. Update returns the record
// kept afterwards, and reports whether it is the new one; a record not
// kept (never stored, evicted, deleted) or a retired runtime reports
// false with a nil record.
func (rt *Runtime) Update(id string, update func(old Stored, maxBytes int64) Stored) (Stored, bool) {
	rt.mu.Lock()
	defer rt.mu.Unlock()
	old, ok := rt.history.byID[id]
	if rt.retired || !ok {
		return nil, false
	}
	r := update(old.r, rt.settings.HistoryMaxBytes)
	if r == nil || r.StoredID() != id {
		return old.r, false
	}
	// Size runs under the lock too: the records it measures are the
	// codec's, immutable once made, so it calls nothing of the runtime.
	k := kept{r: r, size: r.Size()}
	if k.size > rt.settings.HistoryMaxBytes {
		return old.r, false
	}
	rt.keep(k)
	return r, true
}

// Find returns the newest kept record that match reports true for. match
// runs under the runtime's lock for one record after another, newest
// first: it must be quick and must not call the runtime.
func (rt *Runtime) Find(match func(Stored) bool) (Stored, bool) {
	rt.mu.Lock()
	defer rt.mu.Unlock()
	h := &rt.history
	for i := len(h.order) - 1; i >= 0; i-- {
		if s := h.order[i]; h.current(s) && match(h.byID[s.id].r) {
			return h.byID[s.id].r, true
		}
	}
	return nil, false
}
