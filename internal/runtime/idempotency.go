package runtime

// IdempotentAnswer is an answer as it was delivered to a request that
// carried an Idempotency-Key: what a retry with the same key and the same
// request gets back, byte for byte, without another reply being used.
type IdempotentAnswer struct {
	// Status and Header are the status and the headers sent; Body is the
	// body, a JSON document or an event stream as the headers say.
	Status int
	Header map[string][]string
	Body   []byte
	// Model and Stream are what the journal recorded of the first request,
	// for the entries of its replays.
	Model  string
	Stream bool
}

// idempotentAnswerBytes is what a kept answer costs beyond the bytes Size
// counts of its strings and body: the answer, its slot, its map entry and
// the header map itself. The session's reservation prices every key at
// least this much.
const idempotentAnswerBytes = 256

// Size is the number of bytes a kept answer counts against the session's
// bound: its key, its body, every header name and value, and a fixed
// overhead.
func (a *IdempotentAnswer) Size(key string) int64 {
	n := int64(idempotentAnswerBytes + len(key) + len(a.Body) + len(a.Model))
	for k, vs := range a.Header {
		n += int64(len(k)) + 16
		for _, v := range vs {
			n += int64(len(v)) + 16
		}
	}
	return n
}

// IdempotencyOutcome is what the runtime makes of a request's key.
type IdempotencyOutcome int

// The outcomes of ClaimIdempotencyKey.
const (
	// IdempotencyFresh: the key is new; the request is answered as usual
	// and its claim keeps the answer.
	IdempotencyFresh IdempotencyOutcome = iota
	// IdempotencyReplay: the key answered the same request before; the
	// kept answer is sent again.
	IdempotencyReplay
	// IdempotencyInFlight: a request with the key is still being answered.
	IdempotencyInFlight
	// IdempotencyReused: the key answered another request.
	IdempotencyReused
	// IdempotencyUntracked: the key cannot be tracked (the session keeps
	// no keys, or every key it can keep is in flight); the request is
	// answered as if it carried none.
	IdempotencyUntracked
)

// idempotency is a runtime's store of Idempotency-Key answers, bounded in
// keys and bytes; the oldest kept answers go first. Keys in flight count
// against the number of keys but not the bytes. Its zero value is empty.
type idempotency struct {
	slots map[string]*idemSlot
	bytes int64 // of the kept answers
	seq   uint64
}

// idemSlot is one key: in flight while answer is nil.
type idemSlot struct {
	hash   [32]byte
	answer *IdempotentAnswer
	size   int64
	seq    uint64 // when the answer was kept, for eviction
}

// IdempotencyClaim is a key held by the request being answered under it.
// Keep stores its answer; Release, which must be called when the request is
// over, lets the key go if nothing was kept.
type IdempotencyClaim struct {
	rt   *Runtime
	key  string
	slot *idemSlot
}

// ClaimIdempotencyKey looks up key for a request whose method, path and
// body hash to hash. A new key is claimed for the request (IdempotencyFresh,
// with a claim); a key that answered the same request returns its answer
// (IdempotencyReplay); otherwise the outcome says why the request is
// refused, or that the key is not tracked. A retired runtime tracks nothing.
func (rt *Runtime) ClaimIdempotencyKey(key string, hash [32]byte) (*IdempotencyClaim, *IdempotentAnswer, IdempotencyOutcome) {
	rt.mu.Lock()
	defer rt.mu.Unlock()
	capacity := rt.settings.IdempotencyCapacity
	if rt.retired || capacity <= 0 {
		return nil, nil, IdempotencyUntracked
	}
	s := &rt.idempotency
	if slot, ok := s.slots[key]; ok {
		switch {
		case slot.hash != hash:
			return nil, nil, IdempotencyReused
		case slot.answer == nil:
			return nil, nil, IdempotencyInFlight
		}
		return nil, slot.answer, IdempotencyReplay
	}
	for len(s.slots) >= capacity {
		if !s.evictOldest() {
			return nil, nil, IdempotencyUntracked // every key is in flight
		}
	}
	if s.slots == nil {
		s.slots = make(map[string]*idemSlot)
	}
	slot := &idemSlot{hash: hash}
	s.slots[key] = slot
	return &IdempotencyClaim{rt: rt, key: key, slot: slot}, nil, IdempotencyFresh
}

// Keep stores a as the answer of the claim's key, evicting the oldest kept
// answers to make room. An answer larger than the session's byte bound is
// not kept (the key is let go), nor is anything kept once the key was
// forgotten (Reset, Configure) or the runtime retired.
func (c *IdempotencyClaim) Keep(a *IdempotentAnswer) {
	rt := c.rt
	rt.mu.Lock()
	defer rt.mu.Unlock()
	s := &rt.idempotency
	if rt.retired || s.slots[c.key] != c.slot {
		return
	}
	size := a.Size(c.key)
	limit := rt.settings.IdempotencyMaxBytes
	if size > limit {
		delete(s.slots, c.key)
		return
	}
	for s.bytes+size > limit && s.evictOldest() {
	}
	s.seq++
	c.slot.answer, c.slot.size, c.slot.seq = a, size, s.seq
	s.bytes += size
}

// Release ends the claim: a key whose answer was not kept is let go, so
// that a retry with it is answered afresh, by the next reply.
func (c *IdempotencyClaim) Release() {
	rt := c.rt
	rt.mu.Lock()
	defer rt.mu.Unlock()
	s := &rt.idempotency
	if rt.retired || c.slot.answer != nil || s.slots[c.key] != c.slot {
		return
	}
	delete(s.slots, c.key)
}

// evictOldest drops the oldest kept answer, and reports false when there
// is none (every key is in flight). The caller holds mu.
func (s *idempotency) evictOldest() bool {
	var oldest string
	var slot *idemSlot
	for k, v := range s.slots {
		if v.answer != nil && (slot == nil || v.seq < slot.seq) {
			oldest, slot = k, v
		}
	}
	if slot == nil {
		return false
	}
	delete(s.slots, oldest)
	s.bytes -= slot.size
	return true
}

// trim evicts the oldest kept answers until the store fits capacity keys
// and maxBytes bytes. The caller holds mu.
func (s *idempotency) trim(capacity int, maxBytes int64) {
	for (len(s.slots) > capacity || s.bytes > maxBytes) && s.evictOldest() {
	}
}

// reset forgets every key; the claims in flight keep nothing. The caller
// holds mu.
func (s *idempotency) reset() { *s = idempotency{} }
