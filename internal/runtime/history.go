package runtime

import (
	"github.com/llmtestserver/llmtestserver/internal/openai"
)

// StoredResponse is one response of the Responses API kept for
// previous_response_id chains and the retrieval routes.
type StoredResponse struct {
	// ID is the response's ID, "resp_...".
	ID string
	// Previous is the previous_response_id it continued, if any.
	Previous string
	// Conversation is the conversation identity it belongs to; responses
	// that continue it inherit it.
	Conversation string
	// Input are the input items of its request; Output the items it
	// answered with.
	Input, Output []openai.Item
	// Object is the response object as served, for GET.
	Object any
	// Stream renders the response as the event stream it was (or would
	// have been) streamed as, for GET with stream=true.
	Stream func() *openai.SSE

	// prev links the response it continued. It keeps that response's items
	// reachable after eviction or deletion, so a kept response can always
	// be continued, however long its chain.
	prev *StoredResponse
}

// history keeps the last capacity stored responses of a runtime, oldest
// first. The runtime's mu guards it.
type history struct {
	byID  map[string]*StoredResponse
	order []string // IDs in storing order; deleted ones are skipped
}

// StoreResponse keeps r, continuing chain (the responses that lead to it,
// as Chain returned them), and evicts the oldest responses beyond the
// history capacity. A retired runtime keeps nothing.
func (rt *Runtime) StoreResponse(r *StoredResponse, chain []*StoredResponse) {
	if len(chain) > 0 {
		r.prev = chain[len(chain)-1]
	}
	rt.mu.Lock()
	defer rt.mu.Unlock()
	capacity := rt.settings.HistoryCapacity
	if rt.retired || capacity <= 0 {
		return
	}
	if rt.history.byID == nil {
		rt.history.byID = make(map[string]*StoredResponse)
	}
	rt.history.byID[r.ID] = r
	rt.history.order = append(rt.history.order, r.ID)
	rt.trimHistory(capacity)
}

// trimHistory evicts the oldest responses until at most capacity are kept.
// The caller holds mu.
func (rt *Runtime) trimHistory(capacity int) {
	h := &rt.history
	drop := 0
	for len(h.byID) > capacity && drop < len(h.order) {
		delete(h.byID, h.order[drop])
		drop++
	}
	// Skip the IDs of deleted responses at the front as well, so order
	// never grows past what byID holds by more than the deletions since.
	for drop < len(h.order) && h.byID[h.order[drop]] == nil {
		drop++
	}
	if drop > 0 {
		n := copy(h.order, h.order[drop:])
		clear(h.order[n:])
		h.order = h.order[:n]
	}
}

// Response returns the stored response id, if it is kept.
func (rt *Runtime) Response(id string) (*StoredResponse, bool) {
	rt.mu.Lock()
	defer rt.mu.Unlock()
	r, ok := rt.history.byID[id]
	return r, ok
}

// DeleteResponse forgets the stored response id and reports whether it was
// kept.
func (rt *Runtime) DeleteResponse(id string) bool {
	rt.mu.Lock()
	defer rt.mu.Unlock()
	if rt.retired {
		return false
	}
	_, ok := rt.history.byID[id]
	delete(rt.history.byID, id)
	return ok
}

// Chain returns the responses that lead to the kept response id, oldest
// first and id's last, and false if id is not kept. Responses before id may
// have been evicted or deleted meanwhile: id still continues them.
func (rt *Runtime) Chain(id string) ([]*StoredResponse, bool) {
	rt.mu.Lock()
	r, ok := rt.history.byID[id]
	rt.mu.Unlock()
	if !ok {
		return nil, false
	}
	var chain []*StoredResponse
	for ; r != nil; r = r.prev {
		chain = append(chain, r)
	}
	for i, j := 0, len(chain)-1; i < j; i, j = i+1, j-1 {
		chain[i], chain[j] = chain[j], chain[i]
	}
	return chain, true
}
