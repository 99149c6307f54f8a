package session

import (
	"unsafe"

	"github.com/llmtestserver/llmtestserver/internal/runtime"
	"github.com/llmtestserver/llmtestserver/scenario"
)

// What the scenarios of a configuration cost to keep, for the reservation.
// A runtime holds each reply once, in its scenario; these are upper bounds
// of the bytes that holding takes, counted from the structures' sizes and
// their strings and slices, not heap measurements.
const (
	// slotFactor covers the spare capacity of slices grown by appending
	// (the JSON decoder's and the builders'), which can be as large again.
	slotFactor = 2
	// allocOverhead is what one allocation costs beyond its bytes: size
	// class rounding of small objects.
	allocOverhead = 16
	// mapEntryBytes is one entry of a small map, beyond its key and value.
	mapEntryBytes = 48
	// regexpBytesPerByte and regexpBytes bound a compiled regular
	// expression, per byte of pattern and in all.
	regexpBytesPerByte = 256
	regexpBytes        = 4 << 10
	// positionBytes is one per-conversation queue position: its map entry,
	// its key (at most 64 bytes of identity and a generation) and its state.
	positionBytes = 192
	// perConversationBytes is what the per-conversation queue positions of
	// a runtime cost at most, however many per-conversation scenarios it
	// has: positions are capped at runtime.MaxConversations in all.
	perConversationBytes = runtime.MaxConversations * positionBytes
)

var (
	scenarioBytes = int64(unsafe.Sizeof(scenario.Scenario{})) + 64 // the scenario and its queue
	matchBytes    = int64(unsafe.Sizeof(scenario.Match{}))
	replyBytes    = int64(unsafe.Sizeof(scenario.Reply{}))
	toolCallBytes = int64(unsafe.Sizeof(scenario.ToolCall{}))
	errorBytes    = int64(unsafe.Sizeof(scenario.Error{}))
	usageBytes    = int64(unsafe.Sizeof(scenario.Usage{}))
	sliceBytes    = int64(unsafe.Sizeof([]float32(nil)))
)

// configurationCost returns what keeping c's scenarios costs a runtime at
// most: the term of the reservation that the configuration itself adds. It
// is a sum over scenarios and replies, so adding scenarios or replies adds
// their cost, and a session's builders can price each step.
func (c *Config) configurationCost() int64 {
	var n int64
	perConversation := false
	for i := range c.Scenarios {
		s := &c.Scenarios[i]
		n += scenarioHeadCost(s)
		for j := range s.Replies {
			n += replyCost(&s.Replies[j])
		}
		perConversation = perConversation || s.PerConversation
	}
	return n + perConversationCost(perConversation)
}

// perConversationCost is the cost of per-conversation queue positions, which
// a runtime keeps only if one of its scenarios is per conversation.
func perConversationCost(has bool) int64 {
	if has {
		return perConversationBytes
	}
	return 0
}

// scenarioHeadCost is what s costs without its replies.
func scenarioHeadCost(s *scenario.Scenario) int64 {
	return slotFactor*scenarioBytes + stringCost(s.Name) + matchCost(&s.Match) - matchBytes // the match is inline
}

// matchCost is what m costs, nested matches and compiled expression
// included.
func matchCost(m *scenario.Match) int64 {
	n := matchBytes + stringCost(string(m.Endpoint)) + stringCost(m.Model) + stringCost(m.UserEquals) +
		stringCost(m.UserContains) + stringCost(m.UserRegex) + stringCost(m.SystemContains) +
		stringCost(m.ToolResult) + stringCost(m.ToolOffered)
	if m.UserRegex != "" {
		n += regexpBytes + regexpBytesPerByte*int64(len(m.UserRegex))
	}
	if m.Func != nil {
		n += funcBytes
	}
	for i := range m.All {
		n += matchCost(&m.All[i]) + allocOverhead
	}
	for i := range m.Any {
		n += matchCost(&m.Any[i]) + allocOverhead
	}
	if m.Not != nil {
		n += matchCost(m.Not) + allocOverhead
	}
	return n
}

// replyCost is what r costs: its slot in its scenario's replies and
// everything it points to.
func replyCost(r *scenario.Reply) int64 {
	n := slotFactor*replyBytes + stringCost(r.Text) + stringCost(r.Refusal) + stringCost(r.Thinking) + stringCost(string(r.JSON)) +
		stringCost(r.FinishReason) + stringCost(r.Model)
	if len(r.ToolCalls) > 0 {
		n += allocOverhead
	}
	for _, c := range r.ToolCalls {
		n += slotFactor*toolCallBytes + stringCost(c.ID) + stringCost(c.Name) + stringCost(c.Arguments)
	}
	if e := r.Error; e != nil {
		n += errorBytes + allocOverhead + stringCost(string(e.Kind)) + stringCost(e.Code) + stringCost(e.Type) + stringCost(e.Param) + stringCost(e.Message)
		if e.Headers != nil {
			n += mapEntryBytes * 4 // the map itself
		}
		for k, v := range e.Headers {
			n += mapEntryBytes + stringCost(k) + stringCost(v)
		}
	}
	if len(r.Vectors) > 0 {
		n += allocOverhead
	}
	for _, v := range r.Vectors {
		n += slotFactor*sliceBytes + slotFactor*4*int64(len(v)) + allocOverhead
	}
	if r.Usage != nil {
		n += usageBytes + allocOverhead
	}
	if r.Func != nil {
		n += funcBytes
	}
	return n
}

// stringCost is what a string's bytes cost on the heap.
func stringCost(s string) int64 {
	if s == "" {
		return 0
	}
	return int64(len(s)) + int64(len(s))/8 + allocOverhead
}

// idempotentKeyBytes is what one kept Idempotency-Key answer costs beyond
// the bytes its max_bytes counts: the answer, its slot and map entry, and
// the header map (runtime.IdempotentAnswer.Size counts 256 of them too).
const idempotentKeyBytes = 256

// idempotencyCost is what the Idempotency-Key answers of c cost at most:
// their bytes and a fixed overhead per key.
func (c *Config) idempotencyCost() int64 {
	return c.Idempotency.MaxBytes + int64(c.Idempotency.Capacity)*idempotentKeyBytes
}
