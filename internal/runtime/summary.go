package runtime

import (
	"strings"
	"unicode/utf8"

	"github.com/llmtestserver/llmtestserver/internal/openai"
	"github.com/llmtestserver/llmtestserver/scenario"
)

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
	Cache PromptResume
	// System joins the system and developer texts of those turns with
	// newlines, clipped to 64 KiB.
	System string
	// Pending are the function_call items of the response before, which
	// this response's input answered.
	Pending []openai.Item
}

// Earlier counts what a request's conversation held before the items it
// carries: the turns of a chain that only a summary still counts.
type Earlier struct {
	// Messages and UserTurns are added to the request's own counts.
	Messages, UserTurns int
}

// StandIn returns the items that stand for the summarized turns in a
// rebuilt conversation, before the oldest kept response's input: a
// developer message with their system text, and the pending function
// calls, which that input answers. Scenarios see the system text and the
// calls; the rest of those turns is gone.
func (s *Summary) StandIn() []openai.Item {
	var out []openai.Item
	if s.System != "" {
		out = append(out, openai.Item{Type: "message", Role: "developer",
			Content: []openai.ItemPart{{Type: "input_text", Text: s.System}}})
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
	return int64(len(s.System)) + openai.ItemsSize(s.Pending)
}

// ReserveAfter is Reserve for a request that continues turns it no longer
// carries (Reserve is ReserveAfter with nothing earlier): earlier's messages and user turns count as the request's own, for
// its turn and its generation.
func (rt *Runtime) ReserveAfter(req *scenario.Request, declared string, earlier Earlier) (*Reservation, *openai.Error) {
	rt.mu.Lock()
	defer rt.mu.Unlock()
	if rt.retired {
		return nil, openai.RequestSuperseded()
	}
	rt.earlier = earlier
	defer func() { rt.earlier = Earlier{} }()
	res, key := rt.reserve(req, declared)
	if res == nil {
		return nil, openai.NoScenario(rt.describeMiss(req, key))
	}
	return res, nil
}
