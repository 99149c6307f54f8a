package openai

import (
	"io"
	"strings"

	"github.com/llmtestserver/llmtestserver/internal/tokens"
)

// Server-sent events as the OpenAI APIs frame them, and the cutting of a
// text into chunks of tokens that their streams share.

// SSE is a rendered event stream: Body holds every event, each a "data: "
// line (after an "event: " line for named events) followed by a blank
// line, and Ends[i] is the offset in Body just past event i. A server writes
// its events one at a time (WriteEvent), with a flush and any pacing
// between them.
type SSE struct {
	Body []byte
	Ends []int
}

// Len is the number of events.
func (s *SSE) Len() int { return len(s.Ends) }

// Event returns event i, terminator included.
func (s *SSE) Event(i int) []byte {
	start := 0
	if i > 0 {
		start = s.Ends[i-1]
	}
	return s.Body[start:s.Ends[i]]
}

// WriteEvent writes event i to w.
func (s *SSE) WriteEvent(w io.Writer, i int) error {
	_, err := w.Write(s.Event(i))
	return err
}

// span is a range of tokens, [from, to).
type span struct{ from, to int }

// chunkPieces cuts s into the pieces of successive chunks: the tokens of
// split (the whole of s when split is nil or its tokens do not rebuild s),
// merged so that none ends inside a UTF-8 sequence, then grouped per chunks.
func chunkPieces(s string, split func(string) []string, per int) []string {
	return chunkTokens(s, split, per, false).pieces
}

// pieces are the pieces of chunkTokens and, when kept, the tokens they are
// made of: piece i joins tokens[ends[i-1]:ends[i]].
type pieces struct {
	pieces []string
	tokens []string
	ends   []int
}

// span is the range of tokens of piece i.
func (p *pieces) span(i int) span {
	if p.ends == nil {
		return span{}
	}
	from := 0
	if i > 0 {
		from = p.ends[i-1]
	}
	return span{from, p.ends[i]}
}

// chunkTokens is chunkPieces that also keeps the tokens of each piece when
// keep is set, for their log probabilities. No piece ends inside a
// character (see tokens.ChunkEnds).
func chunkTokens(s string, split func(string) []string, per int, keep bool) pieces {
	if s == "" {
		return pieces{}
	}
	toks := logprobTokens(s, split)
	out := pieces{pieces: make([]string, 0, tokens.MaxChunks(len(toks), per))}
	if keep {
		out.tokens, out.ends = toks, make([]int, 0, cap(out.pieces))
	}
	start := 0
	for end := range tokens.ChunkEnds(toks, per) {
		out.pieces = append(out.pieces, strings.Join(toks[start:end], ""))
		if keep {
			out.ends = append(out.ends, end)
		}
		start = end
	}
	return out
}
