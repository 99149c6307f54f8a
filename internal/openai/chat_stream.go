package openai

import (
	"bytes"
	"encoding/json"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/llmtestserver/llmtestserver/scenario"
)

// SSE is a rendered event stream: Body holds every event, each a "data: "
// line followed by a blank line, and Ends[i] is the offset in Body just past
// event i. A server can write Body at once, or write Event(i) one at a time
// with a flush (and any pacing) between them.
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

func (s *SSE) add(data []byte) {
	s.Body = append(s.Body, "data: "...)
	s.Body = append(s.Body, data...)
	s.Body = append(s.Body, "\n\n"...)
	s.Ends = append(s.Ends, len(s.Body))
}

// ErrorEvent renders e as the event that fails a stream after its 200 was
// sent: `data: {"error":{...}}` with no space after the brace, which is the
// exact prefix go-openai looks for (openai-go fails on any top-level
// "error" key).
func ErrorEvent(e *Error) []byte {
	b, _ := e.MarshalJSON() // strings and nullable strings always encode
	out := make([]byte, 0, len(b)+8)
	out = append(out, "data: "...)
	out = append(out, b...)
	return append(out, "\n\n"...)
}

// Stream renders a as the body of a chat stream, in the order the real API
// uses:
//
//  1. an opening chunk with the role: content "" for text, content null and
//     refusal "" for a refusal, content null and the first call's first
//     fragment when the answer only calls tools;
//  2. the text, then the refusal, in pieces: split cuts a string into
//     tokens (nil sends it whole) and tokensPerChunk (at least 1) tokens go
//     in each chunk, never splitting a UTF-8 sequence;
//  3. for each tool call, a first fragment with index, id, type and name
//     (arguments ""), then its arguments in pieces cut the same way;
//  4. a chunk with an empty delta and the finish reason;
//  5. when includeUsage is set, a chunk with no choices and the usage (the
//     only chunk with a usage key);
//  6. data: [DONE].
//
// Every chunk has the same id, created, model, service_tier and
// system_fingerprint, and carries one choice per index 0..N-1 with the same
// delta. Every event, [DONE] included, ends with a blank line.
func (a *ChatAnswer) Stream(split func(string) []string, tokensPerChunk int, includeUsage bool) *SSE {
	w := newChunkWriter(a)
	nullString := (*string)(nil)
	calls := a.ToolCalls
	switch {
	case a.Refusal != "":
		w.chunk(struct {
			Role    string  `json:"role"`
			Content *string `json:"content"`
			Refusal string  `json:"refusal"`
		}{Role: "assistant"}, "")
	case a.Text == "" && len(calls) > 0:
		w.chunk(struct {
			Role      string         `json:"role"`
			Content   *string        `json:"content"`
			ToolCalls []toolFragment `json:"tool_calls"`
			Refusal   *string        `json:"refusal"`
		}{Role: "assistant", ToolCalls: []toolFragment{openingFragment(0, calls[0])}, Refusal: nullString}, "")
	default:
		w.chunk(struct {
			Role    string  `json:"role"`
			Content string  `json:"content"`
			Refusal *string `json:"refusal"`
		}{Role: "assistant"}, "")
	}
	for _, p := range chunkPieces(a.Text, split, tokensPerChunk) {
		w.chunk(struct {
			Content string `json:"content"`
		}{p}, "")
	}
	for _, p := range chunkPieces(a.Refusal, split, tokensPerChunk) {
		w.chunk(struct {
			Refusal string `json:"refusal"`
		}{p}, "")
	}
	for i, c := range calls {
		if i > 0 || a.Text != "" || a.Refusal != "" {
			w.toolChunk(openingFragment(i, c))
		}
		for _, p := range chunkPieces(arguments(c), split, tokensPerChunk) {
			w.toolChunk(toolFragment{Index: i, Function: fragmentFunction{Arguments: p}})
		}
	}
	w.chunk(struct{}{}, a.finishReason())
	if includeUsage {
		w.usage(a.Usage)
	}
	w.sse.Body = append(w.sse.Body, "data: [DONE]\n\n"...)
	w.sse.Ends = append(w.sse.Ends, len(w.sse.Body))
	return &w.sse
}

// toolFragment is one element of a delta's tool_calls. Only a call's first
// fragment has id, type and name: openai-go appends names, so repeating one
// would double it.
type toolFragment struct {
	Index    int              `json:"index"`
	ID       string           `json:"id,omitempty"`
	Type     string           `json:"type,omitempty"`
	Function fragmentFunction `json:"function"`
}

type fragmentFunction struct {
	Name      string `json:"name,omitempty"`
	Arguments string `json:"arguments"`
}

func openingFragment(i int, c scenario.ToolCall) toolFragment {
	return toolFragment{Index: i, ID: c.ID, Type: "function", Function: fragmentFunction{Name: c.Name}}
}

// chunkWriter renders chunks that share everything but their choices.
type chunkWriter struct {
	sse    SSE
	head   []byte // `{"id":…,"choices":[`
	n      int
	buf    bytes.Buffer
	enc    *json.Encoder
	choice []byte
}

func newChunkWriter(a *ChatAnswer) *chunkWriter {
	w := &chunkWriter{n: a.choices()}
	w.enc = json.NewEncoder(&w.buf)
	w.enc.SetEscapeHTML(false)
	w.head = append(w.head, `{"id":`...)
	w.head = append(w.head, w.marshal(a.ID)...)
	w.head = append(w.head, `,"object":"chat.completion.chunk","created":`...)
	w.head = strconv.AppendInt(w.head, a.Created, 10)
	w.head = append(w.head, `,"model":`...)
	w.head = append(w.head, w.marshal(a.Model)...)
	w.head = append(w.head, `,"service_tier":"`+serviceTier+`","system_fingerprint":"`+SystemFingerprint+`","choices":[`...)
	return w
}

// marshal encodes v without HTML escaping. The values it sees (strings and
// plain structs of strings and ints) always encode.
func (w *chunkWriter) marshal(v any) []byte {
	w.buf.Reset()
	_ = w.enc.Encode(v)
	return bytes.TrimSuffix(w.buf.Bytes(), []byte("\n"))
}

// chunk adds a chunk whose every choice has this delta, and finish as its
// finish_reason ("" for null).
func (w *chunkWriter) chunk(delta any, finish string) {
	d := w.marshal(delta)
	c := append(w.choice[:0], w.head...)
	for i := range w.n {
		if i > 0 {
			c = append(c, ',')
		}
		c = append(c, `{"index":`...)
		c = strconv.AppendInt(c, int64(i), 10)
		c = append(c, `,"delta":`...)
		c = append(c, d...)
		c = append(c, `,"logprobs":null,"finish_reason":`...)
		if finish == "" {
			c = append(c, "null"...)
		} else {
			c = strconv.AppendQuote(c, finish)
		}
		c = append(c, '}')
	}
	c = append(c, "]}"...)
	w.choice = c
	w.sse.add(c)
}

func (w *chunkWriter) toolChunk(f toolFragment) {
	w.chunk(struct {
		ToolCalls []toolFragment `json:"tool_calls"`
	}{[]toolFragment{f}}, "")
}

func (w *chunkWriter) usage(u Usage) {
	c := append(w.choice[:0], w.head...)
	c = append(c, `],"usage":`...)
	c = append(c, w.marshal(u)...)
	c = append(c, '}')
	w.choice = c
	w.sse.add(c)
}

// chunkPieces cuts s into the pieces of successive chunks: the tokens of
// split (the whole of s when split is nil or its tokens do not rebuild s),
// merged so that none ends inside a UTF-8 sequence, then grouped per chunks.
func chunkPieces(s string, split func(string) []string, per int) []string {
	if s == "" {
		return nil
	}
	var tokens []string
	if split != nil {
		tokens = split(s)
	}
	if strings.Join(tokens, "") != s {
		tokens = []string{s}
	}
	tokens = JoinValidUTF8(tokens)
	per = max(per, 1)
	if per == 1 {
		return tokens
	}
	out := make([]string, 0, (len(tokens)+per-1)/per)
	for i := 0; i < len(tokens); i += per {
		out = append(out, strings.Join(tokens[i:min(i+per, len(tokens))], ""))
	}
	return out
}

// JoinValidUTF8 merges token pieces so that no piece ends inside a UTF-8
// sequence: a tokenizer may split a character across tokens, and JSON would
// turn each half into U+FFFD. Empty pieces are dropped. Bytes that can never
// complete a character end a piece like any other.
func JoinValidUTF8(pieces []string) []string {
	out := make([]string, 0, len(pieces))
	pending := ""
	for _, p := range pieces {
		pending += p
		if pending != "" && !endsInsideRune(pending) {
			out = append(out, pending)
			pending = ""
		}
	}
	if pending != "" {
		out = append(out, pending)
	}
	return out
}

// endsInsideRune reports whether s ends with the start of a multi-byte
// sequence that more bytes could complete.
func endsInsideRune(s string) bool {
	for i := 1; i < utf8.UTFMax && i <= len(s); i++ {
		b := s[len(s)-i]
		switch {
		case b < utf8.RuneSelf:
			return false
		case utf8.RuneStart(b):
			return !utf8.FullRuneInString(s[len(s)-i:])
		}
	}
	return false
}
