package session

import (
	"math"
	"strconv"
	"unicode/utf8"

	"github.com/llmtestserver/llmtestserver/internal/plainjson"
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
// escaping, as the admin API writes it back (see plainjson).
func encodedLen(v any) int64 {
	b, err := plainjson.Marshal(v)
	if err != nil {
		return unencodable
	}
	return int64(len(b))
}

// compactLen returns about the length of the JSON document b as the
// server writes it back (compact, without HTML escaping; see plainjson),
// without decoding it: whitespace outside strings is left out, and an
// escape \uXXXX counts the bytes of its character, so that a document
// whose encoder escaped <, > and & (as json.Marshal does), or every
// character beyond ASCII, measures what it measures once read. It is the
// cheap bound the admin API checks before it decodes a configuration.
func compactLen(b []byte) int64 {
	var n int64
	for i := 0; i < len(b); i++ {
		c := b[i]
		switch {
		case c == '"':
			end, length := stringLen(b, i)
			n += length
			i = end
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
		default:
			n++
		}
	}
	return n
}

// stringLen measures the JSON string that starts with the quote at b[i]:
// the index of its closing quote (len(b)-1 when it has none), and its
// length, quotes included, as the server writes it back.
func stringLen(b []byte, i int) (end int, length int64) {
	length = 2
	for j := i + 1; j < len(b); j++ {
		switch b[j] {
		case '"':
			return j, length
		case '\\':
			if j+5 < len(b) && b[j+1] == 'u' {
				if r, err := strconv.ParseUint(string(b[j+2:j+6]), 16, 32); err == nil {
					length += escapedLen(rune(r))
					j += 5
					continue
				}
			}
			length += 2 // \n, \", \\ and the like are written as they came
			j++
		default:
			length++
		}
	}
	return len(b) - 1, length
}

// escapedLen is the bytes r takes as the server writes it back: a quote,
// a backslash and \b, \f, \n, \r, \t take their two-byte escapes, other
// control characters and the line and paragraph separators stay \uXXXX
// (as encoding/json writes them), a surrogate counts half of the four
// bytes of its pair, and any other character its UTF-8 length.
func escapedLen(r rune) int64 {
	switch {
	case r == '"' || r == '\\' || r == '\b' || r == '\f' || r == '\n' || r == '\r' || r == '\t':
		return 2
	case r < 0x20 || r == 0x2028 || r == 0x2029:
		return 6
	case r >= 0xd800 && r <= 0xdfff:
		return 2
	}
	return int64(utf8.RuneLen(r))
}
