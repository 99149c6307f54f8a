package session

import (
	"encoding/json"
	"math"

	"github.com/llmtestserver/llmtestserver/scenario"
)

// funcBytes is what each Go function of a configuration (a scenario.Func
// matcher or a scenario.Respond responder) counts towards the size limit:
// it cannot be encoded, and so is counted at a fixed cost.
const funcBytes = 64

// unencodable is the size of a part that cannot be encoded at all, which
// validation rules out: it is over any limit.
const unencodable = math.MaxInt32

// Size returns the size of c that the per-session configuration limit
// bounds: the length of its compact JSON encoding without HTML escaping
// (so "<" counts one byte, as it does in a request body), with each Go
// function counted as 64 bytes. Every path that sets or adds scenarios
// measures this way.
func (c *Config) Size() int64 {
	base := *c
	base.Scenarios = nil
	n := encodedLen(&base)
	if len(c.Scenarios) > 0 {
		n += int64(len(`,"scenarios":[]`)) + int64(len(c.Scenarios)-1)
	}
	for i := range c.Scenarios {
		n += scenarioSize(&c.Scenarios[i])
	}
	return n
}

// scenarioSize returns the encoded length of s.
func scenarioSize(s *scenario.Scenario) int64 {
	head := *s
	head.Replies = nil
	var funcs int
	head.Match, funcs = withoutFuncs(s.Match)
	n := encodedLen(&head) + int64(funcs)*funcBytes
	if len(s.Replies) > 0 {
		n += repliesSize(s.Replies, false)
	}
	return n
}

// repliesSize returns what replies add to a scenario's encoding: the
// replies and their separators, plus the difference between "null" and
// "[...]" when the scenario had none.
func repliesSize(replies []scenario.Reply, hadReplies bool) int64 {
	if len(replies) == 0 {
		return 0
	}
	n := int64(len(replies)) // a separator before each
	if !hadReplies {
		n -= int64(len(`null`) - len(`[]`) + 1) // the first has none
	}
	for i := range replies {
		n += replySize(&replies[i])
	}
	return n
}

// replySize returns the encoded length of r.
func replySize(r *scenario.Reply) int64 {
	if r.Func == nil {
		return encodedLen(r)
	}
	bare := *r
	bare.Func = nil
	return encodedLen(&bare) + funcBytes
}

// withoutFuncs returns a copy of m without its Go functions, nested ones
// included, and how many it held.
func withoutFuncs(m scenario.Match) (scenario.Match, int) {
	n := 0
	if m.Func != nil {
		m.Func, n = nil, 1
	}
	var k int
	m.All, k = withoutFuncsAll(m.All)
	n += k
	m.Any, k = withoutFuncsAll(m.Any)
	n += k
	if m.Not != nil {
		not, k := withoutFuncs(*m.Not)
		m.Not, n = &not, n+k
	}
	return m, n
}

// withoutFuncsAll is withoutFuncs for each of ms, in a new slice (nil
// stays nil, so the encoding keeps omitting it).
func withoutFuncsAll(ms []scenario.Match) ([]scenario.Match, int) {
	if ms == nil {
		return nil, 0
	}
	out, n := make([]scenario.Match, len(ms)), 0
	for i := range ms {
		var k int
		out[i], k = withoutFuncs(ms[i])
		n += k
	}
	return out, n
}

// encodedLen returns the length of v's compact JSON encoding without HTML
// escaping.
func encodedLen(v any) int64 {
	b, err := json.Marshal(v)
	if err != nil {
		return unencodable
	}
	return int64(len(b) - 5*htmlEscapes(b))
}

// htmlEscapes counts the \u003c, \u003e and \u0026 escapes json.Marshal
// writes for "<", ">" and "&", each five bytes longer than the character.
// Other escapes are skipped whole, so an escaped backslash followed by
// "u003c" is not miscounted.
func htmlEscapes(b []byte) int {
	n := 0
	for i := 0; i < len(b); i++ {
		if b[i] != '\\' || i+1 >= len(b) {
			continue
		}
		if b[i+1] == 'u' && i+6 <= len(b) {
			switch string(b[i+2 : i+6]) {
			case "003c", "003e", "0026":
				n++
			}
			i += 5
			continue
		}
		i++
	}
	return n
}

// compactLen returns the length of the JSON document b without the
// whitespace between its tokens: what a document can measure at most,
// before it is read, up to escapes inside strings.
func compactLen(b []byte) int64 {
	var n int64
	inString, escaped := false, false
	for _, c := range b {
		switch {
		case inString:
			switch {
			case escaped:
				escaped = false
			case c == '\\':
				escaped = true
			case c == '"':
				inString = false
			}
		case c == '"':
			inString = true
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			continue
		}
		n++
	}
	return n
}
