package runtime

import (
	"github.com/llmtestserver/llmtestserver/internal/openai"
)

// storedOverhead is what one stored response costs beyond its items, answer
// and summary: the StoredResponse, its map entry and its place in the
// storing order.
const storedOverhead = 512

// StoredResponse is one response of the Responses API kept for
// previous_response_id chains and the retrieval routes. It holds what
// retrieval and continuation need and nothing of the request it answered:
// no pointer to the response it continued either, so that an evicted
// response is unreachable.
type StoredResponse struct {
	// ID is the response's ID, "resp_...".
	ID string
	// Previous is the previous_response_id it continued, if any.
	Previous string
	// Conversation is the conversation identity it belongs to; responses
	// that continue it inherit it.
	Conversation string
	// Model is the model its request named, whose tokenizer cuts the
	// replayed stream.
	Model string
	// Input are the input items of its request, copied.
	Input []openai.Item
	// Answer is the answer, detached from its request (see
	// openai.ResponseAnswer.Detach): it renders the object GET returns and
	// the event stream GET with stream=true replays.
	Answer *openai.ResponseAnswer
	// TokensPerChunk is the stream setting the answer was streamed with.
	TokensPerChunk int
	// Before summarizes the turns before Input, for continuing the chain
	// once the responses that held them are gone.
	Before Summary

	size int64 // Size, computed once when stored
}

// Output returns the output items of the response.
func (r *StoredResponse) Output() []openai.Item { return r.Answer.OutputItems() }

// Size is an upper bound of the bytes r keeps: its input items, its answer
// with the settings it echoes, its summary and a fixed overhead. The
// history's max bytes bound the sum of these.
func (r *StoredResponse) Size() int64 {
	return storedOverhead + int64(len(r.ID)+len(r.Previous)+len(r.Model)+len(r.Conversation)) +
		openai.ItemsSize(r.Input) + r.Answer.Size() + r.Before.size()
}

// history keeps the last stored responses of a runtime within the
// capacity and max bytes of the settings, oldest first. The runtime's mu
// guards it.
type history struct {
	byID  map[string]*StoredResponse
	order []string // IDs in storing order; deleted ones are skipped
	bytes int64    // sum of the sizes of byID's responses
}

// StoreResponse keeps r and evicts the oldest responses until the history's
// capacity and max bytes hold again. A response larger than max bytes by
// itself is not kept, and evicts nothing: the request it answered has
// succeeded, but it cannot be retrieved or continued, as with store:false.
// A retired runtime keeps nothing. It reports whether r is kept.
func (rt *Runtime) StoreResponse(r *StoredResponse) bool {
	r.size = r.Size()
	rt.mu.Lock()
	defer rt.mu.Unlock()
	s := rt.settings
	if rt.retired || s.HistoryCapacity <= 0 || r.size > s.HistoryMaxBytes {
		return false
	}
	if rt.history.byID == nil {
		rt.history.byID = make(map[string]*StoredResponse)
	}
	rt.history.byID[r.ID] = r
	rt.history.bytes += r.size
	rt.history.order = append(rt.history.order, r.ID)
	rt.trimHistory(s.HistoryCapacity)
	return true
}

// trimHistory evicts the oldest responses until at most capacity are kept
// and they keep at most the settings' max bytes. The caller holds mu.
func (rt *Runtime) trimHistory(capacity int) {
	h := &rt.history
	maxBytes := rt.settings.HistoryMaxBytes
	drop := 0
	for (len(h.byID) > capacity || h.bytes > maxBytes) && drop < len(h.order) {
		if r := h.byID[h.order[drop]]; r != nil {
			delete(h.byID, r.ID)
			h.bytes -= r.size
		}
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
	r, ok := rt.history.byID[id]
	if ok {
		delete(rt.history.byID, id)
		rt.history.bytes -= r.size
	}
	return ok
}

// HistoryBytes returns the bytes the kept responses keep, as Size counts
// them.
func (rt *Runtime) HistoryBytes() int64 {
	rt.mu.Lock()
	defer rt.mu.Unlock()
	return rt.history.bytes
}

// Chain returns the kept responses that lead to the kept response id, oldest
// first and id's last, and false if id is not kept. The chain goes back
// until its root or a response no longer kept (evicted or deleted); in the
// latter case the first response's Before summary stands for the turns
// before it.
func (rt *Runtime) Chain(id string) ([]*StoredResponse, bool) {
	rt.mu.Lock()
	defer rt.mu.Unlock()
	r, ok := rt.history.byID[id]
	if !ok {
		return nil, false
	}
	chain := []*StoredResponse{r}
	for len(chain) <= len(rt.history.byID) {
		prev, ok := rt.history.byID[r.Previous]
		if r.Previous == "" || !ok {
			break
		}
		chain = append(chain, prev)
		r = prev
	}
	for i, j := 0, len(chain)-1; i < j; i, j = i+1, j-1 {
		chain[i], chain[j] = chain[j], chain[i]
	}
	return chain, true
}
