package openai

import (
	"bytes"
	"encoding/json"
	"io"
	"strconv"

	"github.com/llmtestserver/llmtestserver/internal/apierr"
	"github.com/llmtestserver/llmtestserver/internal/plainjson"
	"github.com/llmtestserver/llmtestserver/internal/provider"
	"github.com/llmtestserver/llmtestserver/scenario"
)

// ErrorEvent renders e as the event that fails a stream after its 200 was
// sent: `data: {"error":{...}}` with no space after the brace, which is the
// exact prefix go-openai looks for (openai-go fails on any top-level
// "error" key).
func ErrorEvent(e *Error) []byte {
	b, _ := plainjson.Marshal(Envelope(e)) // strings and nullable strings always encode
	out := make([]byte, 0, len(b)+8)
	out = append(out, "data: "...)
	out = append(out, b...)
	return append(out, "\n\n"...)
}

// ChatStreamOptions say how a chat answer is streamed.
type ChatStreamOptions struct {
	// TokensPerChunk is how many tokens go in each chunk of text, refusal
	// or arguments; values below 1 mean 1.
	TokensPerChunk int
	// IncludeUsage (stream_options.include_usage) ends the stream with a
	// usage chunk and gives every other chunk "usage": null.
	IncludeUsage bool
	// Obfuscation pads every chunk with an obfuscation field, as the API
	// does unless stream_options.include_obfuscation is false.
	Obfuscation bool
}

// Stream is StreamWith without obfuscation.
func (a *ChatAnswer) Stream(split func(string) []string, tokensPerChunk int, includeUsage bool) *ChatStream {
	return a.StreamWith(split, ChatStreamOptions{TokensPerChunk: tokensPerChunk, IncludeUsage: includeUsage})
}

// StreamWith plans a as a chat stream, in the order the real API uses:
//
//  1. an opening chunk with the role: content "" for text, content null and
//     refusal "" for a refusal, content null and the first call's first
//     fragment when the answer only calls tools;
//  2. the text, then the refusal, in pieces: split cuts a string into
//     tokens (nil sends it whole) and o.TokensPerChunk tokens go in each
//     chunk, never splitting a UTF-8 sequence;
//  3. for each tool call, a first fragment with index, id, type and name
//     (arguments ""), then its arguments in pieces cut the same way;
//  4. a chunk with an empty delta and the finish reason;
//  5. with o.IncludeUsage, a chunk with no choices and the usage;
//  6. data: [DONE].
//
// Each chunk of steps 1 to 4 carries one choice: with n choices every step
// is sent once per choice, index 0 to n-1, before the next step, so that
// each index opens with its own role chunk, the pieces of the choices
// interleave, and each index gets its own finish chunk, as the real API's
// streams with n > 1 do (its choices are generated side by side). Every
// chunk has the same id, created, model, service_tier and
// system_fingerprint; with o.IncludeUsage every chunk but the usage chunk
// has "usage": null. With Logprobs set, each choice carries the log
// probabilities of the tokens its delta adds. Every event, [DONE] included,
// ends with a blank line.
func (a *ChatAnswer) StreamWith(split func(string) []string, o ChatStreamOptions) *ChatStream {
	s := newChatStream(a, o)
	calls := a.ToolCalls
	switch {
	case a.Refusal != "":
		s.add(chatEvent{kind: openRefusal})
	case a.Text == "" && len(calls) > 0:
		s.add(chatEvent{kind: openToolCall})
	default:
		s.add(chatEvent{kind: openText})
	}
	keep := a.Logprobs != nil
	text := chunkTokens(a.Text, split, o.TokensPerChunk, keep)
	s.textTokens = text.tokens
	for i, p := range text.pieces {
		s.add(chatEvent{kind: contentPiece, piece: p, tokens: text.span(i)})
	}
	refusal := chunkTokens(a.Refusal, split, o.TokensPerChunk, keep)
	s.refusalTokens = refusal.tokens
	for i, p := range refusal.pieces {
		s.add(chatEvent{kind: refusalPiece, piece: p, tokens: refusal.span(i)})
	}
	for i, c := range calls {
		if i > 0 || a.Text != "" || a.Refusal != "" {
			s.add(chatEvent{kind: callOpening, call: i})
		}
		for _, p := range chunkPieces(arguments(c), split, o.TokensPerChunk) {
			s.add(chatEvent{kind: argumentsPiece, call: i, piece: p})
		}
	}
	s.add(chatEvent{kind: finishChunk})
	return s
}

// ChatStream is a chat answer's event stream, rendered as it is written.
// Its steps are planned up front, each a few words pointing into the
// answer's strings, and WriteEvent renders the chunk of one step and one
// choice straight to a writer: n choices of a long answer would otherwise
// sit in memory n times over.
type ChatStream struct {
	head   []byte // `{"id":…,"choices":[`
	n      int    // choices
	calls  []scenario.ToolCall
	finish string
	usage  Usage
	steps  []chatEvent // every choice's steps, sent once per choice each
	opts   ChatStreamOptions

	// The log probabilities: nil unless asked for, and the tokens of the
	// text and refusal that the pieces' spans index.
	logprobs                  *Logprobs
	textTokens, refusalTokens []string
	lpStep                    int    // the step lp was rendered for, plus 1
	lp                        []byte // the logprobs of one step, the same for every choice

	buf     bytes.Buffer // what enc writes
	enc     *json.Encoder
	scratch []byte // the part of an event not yet written
}

// chatEvent is one planned step of a ChatStream.
type chatEvent struct {
	kind   chatEventKind
	piece  string // a piece of text, refusal or arguments
	call   int    // the tool call's index
	tokens span   // the tokens of a piece of text or refusal
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

func newChatStream(a *ChatAnswer, o ChatStreamOptions) *ChatStream {
	s := &ChatStream{n: a.choices(), calls: a.ToolCalls, finish: a.finishReason(), usage: a.Usage, opts: o, logprobs: a.Logprobs}
	s.enc = json.NewEncoder(&s.buf)
	s.enc.SetEscapeHTML(false)
	s.head = append(s.head, `{"id":`...)
	s.head = append(s.head, s.marshal(a.ID)...)
	s.head = append(s.head, `,"object":"chat.completion.chunk","created":`...)
	s.head = strconv.AppendInt(s.head, a.Created, 10)
	s.head = append(s.head, `,"model":`...)
	s.head = append(s.head, s.marshal(a.Model)...)
	s.head = append(s.head, `,"service_tier":`...)
	s.head = append(s.head, s.marshal(a.serviceTier())...)
	s.head = append(s.head, `,"system_fingerprint":"`+SystemFingerprint(a.Model)+`","choices":[`...)
	return s
}

func (s *ChatStream) add(e chatEvent) { s.steps = append(s.steps, e) }

// Len is the number of events: every step once per choice, the usage
// chunk when asked for, and [DONE].
func (s *ChatStream) Len() int {
	n := len(s.steps)*s.n + 1
	if s.opts.IncludeUsage {
		n++
	}
	return n
}

// event is the step of event i and the choice it is sent for.
func (s *ChatStream) event(i int) (step int, e chatEvent, choice int) {
	if i < len(s.steps)*s.n {
		return i / s.n, s.steps[i/s.n], i % s.n
	}
	if s.opts.IncludeUsage && i == len(s.steps)*s.n {
		return -1, chatEvent{kind: usageChunk}, 0
	}
	return -1, chatEvent{kind: doneEvent}, 0
}

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
	step, e, choice := s.event(i)
	if e.kind == doneEvent {
		_, err := io.WriteString(w, "data: [DONE]\n\n")
		return err
	}
	c := append(s.scratch[:0], "data: "...)
	c = append(c, s.head...)
	if e.kind == usageChunk {
		c = append(c, `],"usage":`...)
		c = append(c, s.marshal(s.usage)...)
		c = s.appendObfuscation(c, i, "")
		c = append(c, "}\n\n"...)
		s.scratch = c
		_, err := w.Write(c)
		return err
	}
	lp := s.stepLogprobs(step, e)
	delta := s.delta(e)
	c = append(c, `{"index":`...)
	c = strconv.AppendInt(c, int64(choice), 10)
	c = append(c, `,"delta":`...)
	c, err := appendOrWrite(w, c, delta)
	if err != nil {
		return err
	}
	c = append(c, `,"logprobs":`...)
	if c, err = appendOrWrite(w, c, lp); err != nil {
		return err
	}
	c = append(c, `,"finish_reason":`...)
	if e.kind == finishChunk {
		c = strconv.AppendQuote(c, s.finish)
	} else {
		c = append(c, "null"...)
	}
	c = append(c, "}]"...)
	if s.opts.IncludeUsage {
		c = append(c, `,"usage":null`...)
	}
	c = s.appendObfuscation(c, i, e.piece)
	c = append(c, "}\n\n"...)
	s.scratch = c
	_, err = w.Write(c)
	return err
}

// stepLogprobs is the logprobs value of a step's choice: null without
// logprobs and on the finishing chunk; otherwise the tokens a piece of text
// or refusal adds, and empty lists on the other chunks (the role chunk
// and tool-call fragments carry `{"content":[],"refusal":null}` in the
// real API; the refusal's opening chunk is inferred by symmetry). Every
// choice of a step shares the result, rendered once.
func (s *ChatStream) stepLogprobs(step int, e chatEvent) []byte {
	if s.logprobs == nil || e.kind == finishChunk {
		return []byte("null")
	}
	if s.lpStep == step+1 {
		return s.lp
	}
	lp := s.lp[:0]
	switch e.kind {
	case contentPiece:
		lp = append(lp, `{"content":`...)
		lp = appendTokenLogprobs(lp, s.textTokens[e.tokens.from:e.tokens.to], e.tokens.from, s.logprobs.Top)
		lp = append(lp, `,"refusal":null}`...)
	case refusalPiece:
		lp = append(lp, `{"content":null,"refusal":`...)
		lp = appendTokenLogprobs(lp, s.refusalTokens[e.tokens.from:e.tokens.to], e.tokens.from, s.logprobs.Top)
		lp = append(lp, '}')
	case openRefusal:
		lp = append(lp, `{"content":null,"refusal":[]}`...)
	default:
		lp = append(lp, `{"content":[],"refusal":null}`...)
	}
	s.lp, s.lpStep = lp, step+1
	return lp
}

// appendObfuscation appends the obfuscation field of event i, whose delta
// shows piece, when the stream carries it.
func (s *ChatStream) appendObfuscation(c []byte, i int, piece string) []byte {
	if !s.opts.Obfuscation {
		return c
	}
	c = append(c, `,"obfuscation":"`...)
	c = appendPadding(c, uint64(i), piece)
	return append(c, '"')
}

// delta encodes the delta of a chunk. The result is valid until the next
// call of marshal.
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

// appendOrWrite appends part to c, or, when that would pass flushAt, writes
// c and then part to w as they are, rather than copying a long delta or
// its logprobs through c, and returns c emptied.
func appendOrWrite(w io.Writer, c, part []byte) ([]byte, error) {
	if len(c)+len(part) <= flushAt {
		return append(c, part...), nil
	}
	if _, err := w.Write(c); err != nil {
		return c, err
	}
	_, err := w.Write(part)
	return c[:0], err
}

// Opening implements provider.FailingStream: a Chat Completions stream
// can fail with its error chunk alone.
func (s *ChatStream) Opening() int { return 0 }

// WriteErrorEvent writes, in place of event i, the error chunk that fails
// a Chat Completions stream under way (see ErrorEvent).
func (s *ChatStream) WriteErrorEvent(w io.Writer, _ int, e *apierr.Error) error {
	_, err := w.Write(ErrorEvent(e))
	return err
}

// WriteMalformedEvent writes, in place of event i, a chunk whose JSON
// breaks off half-way. In place of [DONE] it is the chunk before it so
// cut, which SDKs decode and fail on.
func (s *ChatStream) WriteMalformedEvent(w io.Writer, i int) error {
	if _, e, _ := s.event(i); e.kind == doneEvent && i > 0 {
		i--
	}
	var b bytes.Buffer
	if err := s.WriteEvent(&b, i); err != nil {
		return err
	}
	_, err := w.Write(provider.Malformed(b.Bytes(), ""))
	return err
}
