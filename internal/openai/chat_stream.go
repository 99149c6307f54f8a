package openai

import (
	"bytes"
	"encoding/json"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/llmtestserver/llmtestserver/scenario"
)

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

// ErrorEvent renders e as the event that fails a stream after its 200 was
// sent: `data: {"error":{...}}` with no space after the brace, which is the
// exact prefix go-openai looks for (openai-go fails on any top-level
// "error" key).
func ErrorEvent(e *Error) []byte {
	b, _ := json.Marshal(Envelope(e)) // strings and nullable strings always encode
	out := make([]byte, 0, len(b)+8)
	out = append(out, "data: "...)
	out = append(out, b...)
	return append(out, "\n\n"...)
}

// Stream plans a as a chat stream, in the order the real API uses:
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
func (a *ChatAnswer) Stream(split func(string) []string, tokensPerChunk int, includeUsage bool) *ChatStream {
	s := newChatStream(a)
	calls := a.ToolCalls
	switch {
	case a.Refusal != "":
		s.add(chatEvent{kind: openRefusal})
	case a.Text == "" && len(calls) > 0:
		s.add(chatEvent{kind: openToolCall})
	default:
		s.add(chatEvent{kind: openText})
	}
	for _, p := range chunkPieces(a.Text, split, tokensPerChunk) {
		s.add(chatEvent{kind: contentPiece, piece: p})
	}
	for _, p := range chunkPieces(a.Refusal, split, tokensPerChunk) {
		s.add(chatEvent{kind: refusalPiece, piece: p})
	}
	for i, c := range calls {
		if i > 0 || a.Text != "" || a.Refusal != "" {
			s.add(chatEvent{kind: callOpening, call: i})
		}
		for _, p := range chunkPieces(arguments(c), split, tokensPerChunk) {
			s.add(chatEvent{kind: argumentsPiece, call: i, piece: p})
		}
	}
	s.add(chatEvent{kind: finishChunk})
	if includeUsage {
		s.add(chatEvent{kind: usageChunk})
	}
	s.add(chatEvent{kind: doneEvent})
	return s
}

// ChatStream is a chat answer's event stream, rendered as it is written.
// Its events are planned up front, each a few words pointing into the
// answer's strings, and WriteEvent renders one of them straight to a
// writer, choice by choice: a chunk carries every choice, so n choices of a
// long answer would otherwise sit in memory n times over.
type ChatStream struct {
	head   []byte // `{"id":…,"choices":[`
	n      int    // choices per chunk
	calls  []scenario.ToolCall
	finish string
	usage  Usage
	events []chatEvent

	buf     bytes.Buffer // what enc writes
	enc     *json.Encoder
	scratch []byte // the part of an event not yet written
}

// chatEvent is one planned event of a ChatStream.
type chatEvent struct {
	kind  chatEventKind
	piece string // a piece of text, refusal or arguments
	call  int    // the tool call's index
}

type chatEventKind uint8

const (
	openText       chatEventKind = iota // role, content ""
	openRefusal                         // role, content null, refusal ""
	openToolCall                        // role, content null, the first call's first fragment
	contentPiece                        // a piece of the text
	refusalPiece                        // a piece of the refusal
	callOpening                         // a call's first fragment
	argumentsPiece                      // a piece of a call's arguments
	finishChunk                         // empty delta and the finish reason
	usageChunk                          // no choices, the usage
	doneEvent                           // data: [DONE]
)

// flushAt is how much of an event WriteEvent gathers before writing it on.
const flushAt = 16 << 10

func newChatStream(a *ChatAnswer) *ChatStream {
	s := &ChatStream{n: a.choices(), calls: a.ToolCalls, finish: a.finishReason(), usage: a.Usage}
	s.enc = json.NewEncoder(&s.buf)
	s.enc.SetEscapeHTML(false)
	s.head = append(s.head, `{"id":`...)
	s.head = append(s.head, s.marshal(a.ID)...)
	s.head = append(s.head, `,"object":"chat.completion.chunk","created":`...)
	s.head = strconv.AppendInt(s.head, a.Created, 10)
	s.head = append(s.head, `,"model":`...)
	s.head = append(s.head, s.marshal(a.Model)...)
	s.head = append(s.head, `,"service_tier":"`+serviceTier+`","system_fingerprint":"`+SystemFingerprint(a.Model)+`","choices":[`...)
	return s
}

func (s *ChatStream) add(e chatEvent) { s.events = append(s.events, e) }

// Len is the number of events.
func (s *ChatStream) Len() int { return len(s.events) }

// marshal encodes v without HTML escaping. The values it sees (strings and
// plain structs of strings and ints) always encode. The result is valid
// until the next call.
func (s *ChatStream) marshal(v any) []byte {
	s.buf.Reset()
	_ = s.enc.Encode(v)
	return bytes.TrimSuffix(s.buf.Bytes(), []byte("\n"))
}

// WriteEvent writes event i to w, in pieces of about flushAt bytes.
func (s *ChatStream) WriteEvent(w io.Writer, i int) error {
	e := s.events[i]
	if e.kind == doneEvent {
		_, err := io.WriteString(w, "data: [DONE]\n\n")
		return err
	}
	c := append(s.scratch[:0], "data: "...)
	c = append(c, s.head...)
	if e.kind == usageChunk {
		c = append(c, `],"usage":`...)
		c = append(c, s.marshal(s.usage)...)
		c = append(c, "}\n\n"...)
		s.scratch = c
		_, err := w.Write(c)
		return err
	}
	delta := s.delta(e)
	finish := "null"
	if e.kind == finishChunk {
		finish = strconv.Quote(s.finish)
	}
	for i := range s.n {
		if i > 0 {
			c = append(c, ',')
		}
		c = append(c, `{"index":`...)
		c = strconv.AppendInt(c, int64(i), 10)
		c = append(c, `,"delta":`...)
		if len(c)+len(delta) > flushAt {
			// A long delta goes on as it is rather than through c.
			if _, err := w.Write(c); err != nil {
				return err
			}
			if _, err := w.Write(delta); err != nil {
				return err
			}
			c = c[:0]
		} else {
			c = append(c, delta...)
		}
		c = append(c, `,"logprobs":null,"finish_reason":`...)
		c = append(c, finish...)
		c = append(c, '}')
		if len(c) > flushAt {
			if _, err := w.Write(c); err != nil {
				return err
			}
			c = c[:0]
		}
	}
	c = append(c, "]}\n\n"...)
	s.scratch = c
	_, err := w.Write(c)
	return err
}

// delta encodes the delta of a chunk of choices. The result is valid until
// the next call of marshal.
func (s *ChatStream) delta(e chatEvent) []byte {
	switch e.kind {
	case openText:
		return s.marshal(struct {
			Role    string  `json:"role"`
			Content string  `json:"content"`
			Refusal *string `json:"refusal"`
		}{Role: "assistant"})
	case openRefusal:
		return s.marshal(struct {
			Role    string  `json:"role"`
			Content *string `json:"content"`
			Refusal string  `json:"refusal"`
		}{Role: "assistant"})
	case openToolCall:
		return s.marshal(struct {
			Role      string         `json:"role"`
			Content   *string        `json:"content"`
			ToolCalls []toolFragment `json:"tool_calls"`
			Refusal   *string        `json:"refusal"`
		}{Role: "assistant", ToolCalls: []toolFragment{openingFragment(0, s.calls[0])}})
	case contentPiece:
		return s.marshal(struct {
			Content string `json:"content"`
		}{e.piece})
	case refusalPiece:
		return s.marshal(struct {
			Refusal string `json:"refusal"`
		}{e.piece})
	case callOpening:
		return s.marshalToolFragment(openingFragment(e.call, s.calls[e.call]))
	case argumentsPiece:
		return s.marshalToolFragment(toolFragment{Index: e.call, Function: fragmentFunction{Arguments: e.piece}})
	default: // finishChunk
		return []byte("{}")
	}
}

func (s *ChatStream) marshalToolFragment(f toolFragment) []byte {
	return s.marshal(struct {
		ToolCalls []toolFragment `json:"tool_calls"`
	}{[]toolFragment{f}})
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
