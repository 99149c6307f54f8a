package openai

import (
	"strings"
	"time"
	"unicode/utf8"

	"github.com/llmtestserver/llmtestserver/internal/runtime"
)

// storedOverhead is what one stored response costs beyond its items, answer
// and summary: the StoredResponse, its map entry and its place in the
// storing order.
const storedOverhead = 512

// StoredResponse is one response of the Responses API kept in the runtime's
// history for previous_response_id chains and the retrieval routes. It
// holds what retrieval and continuation need and nothing of the request it
// answered: no pointer to the response it continued either, so that an
// evicted response is unreachable.
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
	Input []Item
	// Answer is the answer, detached from its request (see
	// ResponseAnswer.Detach): it renders the object GET returns and the
	// event stream GET with stream=true replays.
	Answer *ResponseAnswer
	// TokensPerChunk is the stream setting the answer was streamed with.
	TokensPerChunk int
	// Before summarizes the turns before Input, for continuing the chain
	// once the responses that held them are gone.
	Before Summary
}

// StoredID implements runtime.Stored.
func (r *StoredResponse) StoredID() string { return r.ID }

// PreviousID implements runtime.Stored.
func (r *StoredResponse) PreviousID() string { return r.Previous }

// Output returns the output items of the response.
func (r *StoredResponse) Output() []Item { return r.Answer.OutputItems() }

// Size is an upper bound of the bytes r keeps: its input items, its answer
// with the settings it echoes, its summary and a fixed overhead. The
// history's max bytes bound the sum of these.
func (r *StoredResponse) Size() int64 {
	return storedOverhead + int64(len(r.ID)+len(r.Previous)+len(r.Model)+len(r.Conversation)) +
		ItemsSize(r.Input) + r.Answer.Size() + r.Before.size()
}

// maxSummarySystem bounds the system and developer text a summary keeps.
const maxSummarySystem = 64 << 10

// Summary is what the turns before a stored response's input amount to: what
// a request that continues the response needs of them once the responses
// that held them are evicted. Its size does not grow with the chain: counts,
// two hashes, the system text (clipped) and the calls the response's input
// answers.
type Summary struct {
	// Messages counts the messages before the input, as normalization
	// makes them (system and developer messages aside), and UserTurns the
	// user messages among them.
	Messages, UserTurns int
	// PromptTokens counts the prompt tokens of those messages, as usage
	// counts them.
	PromptTokens int
	// Cache is where prompt caching's prefix states stood before those
	// messages (after the tools and system text) and after them.
	Cache runtime.PromptResume
	// System joins the system and developer texts of those turns with
	// newlines, clipped to 64 KiB.
	System string
	// Pending are the function_call items of the response before, which
	// this response's input answered.
	Pending []Item
}

// StandIn returns the items that stand for the summarized turns in a
// rebuilt conversation, before the oldest kept response's input: a
// developer message with their system text, and the pending function
// calls, which that input answers. Scenarios see the system text and the
// calls; the rest of those turns is gone.
func (s *Summary) StandIn() []Item {
	var out []Item
	if s.System != "" {
		out = append(out, Item{Type: "message", Role: "developer",
			Content: []ItemPart{{Type: "input_text", Text: s.System}}})
	}
	return append(out, s.Pending...)
}

// SetSystem keeps system as the summary's system text, clipped to its
// bound at a character boundary and copied.
func (s *Summary) SetSystem(system string) {
	if len(system) > maxSummarySystem {
		cut := maxSummarySystem
		for cut > 0 && !utf8.RuneStart(system[cut]) {
			cut--
		}
		system = system[:cut]
	}
	s.System = strings.Clone(system)
}

// size is an upper bound of the bytes s keeps.
func (s *Summary) size() int64 {
	return int64(len(s.System)) + ItemsSize(s.Pending)
}

// StoredKind implements runtime.Described.
func (r *StoredResponse) StoredKind() string { return "response" }

// StoredCreated implements runtime.Described.
func (r *StoredResponse) StoredCreated() time.Time { return time.Unix(r.Answer.CreatedAt, 0).UTC() }
