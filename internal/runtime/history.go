package runtime

// Stored is a record a codec keeps in its runtime's history, such as a
// Responses API response kept for previous_response_id chains. The runtime
// bounds and evicts records without knowing what they hold.
type Stored interface {
	// StoredID is the record's ID.
	StoredID() string
	// PreviousID is the ID of the record it continues, or "".
	PreviousID() string
	// Size is an upper bound of the bytes the record keeps; the history's
	// max bytes bound the sum of these.
	Size() int64
}

// Claimed is implemented by a record that may hold a claim of a request
// in flight, such as a message thread's turn that a request is
// continuing. A clone leaves the requests in flight to its original, so
// it keeps Unclaimed's copy: the record without the claim (the record
// itself when it holds none), of the same size.
type Claimed interface {
	Unclaimed() Stored
}

// kept is one record of the history, with its size computed once, and
// the storing that kept it (see slot).
type kept struct {
	r    Stored
	size int64
	seq  uint64
}

// slot is one storing of the history's order: a record stored again under
// the same ID (replaced or updated) takes a new slot, and the old slot,
// whose seq no longer matches, is skipped.
type slot struct {
	id  string
	seq uint64
}

// history keeps the last stored records of a runtime within the capacity
// and max bytes of the settings, oldest first. The runtime's mu guards it.
type history struct {
	byID  map[string]kept
	order []slot // storings in order; deleted and replaced ones are skipped
	bytes int64  // sum of the sizes of byID's records
	seq   uint64 // storings so far
}

// current reports whether s is the storing that keeps its record. The
// caller holds mu.
func (h *history) current(s slot) bool {
	k, ok := h.byID[s.id]
	return ok && k.seq == s.seq
}

// Store keeps r and evicts the oldest records until the history's capacity
// and max bytes hold again. A record larger than max bytes by itself is not
// kept, and evicts nothing: the request it answered has succeeded, but it
// cannot be retrieved or continued, as with store:false. A retired runtime
// keeps nothing. It reports whether r is kept.
func (rt *Runtime) Store(r Stored) bool {
	k := kept{r: r, size: r.Size()}
	rt.mu.Lock()
	defer rt.mu.Unlock()
	s := rt.settings
	if rt.retired || s.HistoryCapacity <= 0 || k.size > s.HistoryMaxBytes {
		return false
	}
	rt.keep(k)
	return true
}

// keep keeps k as the newest record, replacing one of its ID, and evicts
// the oldest until the bounds hold again. The caller holds mu.
func (rt *Runtime) keep(k kept) {
	h := &rt.history
	if h.byID == nil {
		h.byID = make(map[string]kept)
	}
	id := k.r.StoredID()
	if old, ok := h.byID[id]; ok {
		h.bytes -= old.size
	}
	h.seq++
	k.seq = h.seq
	h.byID[id] = k
	h.bytes += k.size
	h.order = append(h.order, slot{id, k.seq})
	rt.trimHistory(rt.settings.HistoryCapacity)
}

// trimHistory evicts the oldest records until at most capacity are kept
// and they keep at most the settings' max bytes. The caller holds mu.
func (rt *Runtime) trimHistory(capacity int) {
	h := &rt.history
	maxBytes := rt.settings.HistoryMaxBytes
	drop := 0
	for (len(h.byID) > capacity || h.bytes > maxBytes) && drop < len(h.order) {
		if s := h.order[drop]; h.current(s) {
			h.bytes -= h.byID[s.id].size
			delete(h.byID, s.id)
		}
		drop++
	}
	// Skip the slots of deleted and replaced records at the front as well.
	for drop < len(h.order) && !h.current(h.order[drop]) {
		drop++
	}
	n := copy(h.order, h.order[drop:])
	if n > 2*len(h.byID)+16 {
		// Stale slots behind the front (a conversation updated turn after
		// turn leaves one per turn): compact, so that order stays within
		// twice what byID holds, at a cost amortized over the storings.
		kept := h.order[:0]
		for _, s := range h.order[:n] {
			if h.current(s) {
				kept = append(kept, s)
			}
		}
		n = len(kept)
	}
	clear(h.order[n:])
	h.order = h.order[:n]
}

// Lookup returns the stored record id, if it is kept.
func (rt *Runtime) Lookup(id string) (Stored, bool) {
	rt.mu.Lock()
	defer rt.mu.Unlock()
	k, ok := rt.history.byID[id]
	return k.r, ok
}

// Forget drops the stored record id and reports whether it was kept.
func (rt *Runtime) Forget(id string) bool {
	rt.mu.Lock()
	defer rt.mu.Unlock()
	if rt.retired {
		return false
	}
	k, ok := rt.history.byID[id]
	if ok {
		delete(rt.history.byID, id)
		rt.history.bytes -= k.size
	}
	return ok
}

// Chain returns the kept records that lead to the kept record id, oldest
// first and id's last, and false if id is not kept. The chain goes back
// until its root or a record no longer kept (evicted or deleted).
func (rt *Runtime) Chain(id string) ([]Stored, bool) {
	rt.mu.Lock()
	defer rt.mu.Unlock()
	k, ok := rt.history.byID[id]
	if !ok {
		return nil, false
	}
	chain := []Stored{k.r}
	for r := k.r; len(chain) <= len(rt.history.byID); {
		prev, ok := rt.history.byID[r.PreviousID()]
		if r.PreviousID() == "" || !ok {
			break
		}
		chain = append(chain, prev.r)
		r = prev.r
	}
	for i, j := 0, len(chain)-1; i < j; i, j = i+1, j-1 {
		chain[i], chain[j] = chain[j], chain[i]
	}
	return chain, true
}
