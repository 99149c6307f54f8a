package gemini

import (
	"bytes"
	"encoding/json"
	"io"

	"github.com/llmtestserver/llmtestserver/internal/apierr"
	"github.com/llmtestserver/llmtestserver/internal/provider"
	"github.com/llmtestserver/llmtestserver/scenario"
)

// stream is an answer as streamGenerateContent sends it: data-only
// server-sent events, each a whole GenerateContentResponse holding one
// delta (thoughts, then text, then the calls together), usageMetadata on
// every chunk, the finish and the final usage on the last; no event
// names, comments or [DONE], which genai's decoder refuses (wire.md Part 3
// §2.4). Chunks are rendered when written, from offsets into the answer.
type stream struct {
	r      *render
	a      *provider.Answer
	finish string
	chunks []chunk
	// signed is the chunk that carries the thinking's signature: the
	// first that is no thought.
	signed int
	// templates are the event of a middle chunk of text ([0]) or of
	// thoughts ([1]) cut around its piece, built on first use: those
	// events differ only by their piece, so each is written without
	// encoding/json.
	templates [2][][]byte
	buf       []byte
}

// chunk is one event: a piece of the thoughts or the text
// (text[from:to]), or the calls.
type chunk struct {
	thought  bool
	calls    bool
	from, to int
}

var _ provider.FailingStream = (*stream)(nil)

// newStream cuts a into chunks of tokensPerChunk tokens as split cuts it.
func (r *render) newStream(a *provider.Answer, reply *scenario.Reply, split func(string) []string, tokensPerChunk int) *stream {
	s := &stream{r: r, a: a, finish: finishReason(a, reply)}
	if a.Refusal != "" && s.finish == "SAFETY" {
		s.chunks = []chunk{{}}
		return s
	}
	cut := func(text string, thought bool) {
		off := 0
		toks := split(text)
		for i := 0; i < len(toks); i += tokensPerChunk {
			n := 0
			for _, t := range toks[i:min(i+tokensPerChunk, len(toks))] {
				n += len(t)
			}
			s.chunks = append(s.chunks, chunk{thought: thought, from: off, to: off + n})
			off += n
		}
	}
	if r.thoughts && a.Thinking != "" {
		cut(a.Thinking, true)
	}
	cut(a.Text, false)
	if len(a.ToolCalls) > 0 {
		s.chunks = append(s.chunks, chunk{calls: true})
	}
	if len(s.chunks) == 0 || s.chunks[len(s.chunks)-1].thought {
		s.chunks = append(s.chunks, chunk{})
	}
	s.signed = s.firstAfterThoughts()
	return s
}

// Len implements provider.EventStream.
func (s *stream) Len() int { return len(s.chunks) }

// firstAfterThoughts is the index of the first chunk that is no thought,
// which carries the thinking's signature.
func (s *stream) firstAfterThoughts() int {
	for i, c := range s.chunks {
		if !c.thought {
			return i
		}
	}
	return len(s.chunks)
}

// WriteEvent implements provider.EventStream.
func (s *stream) WriteEvent(w io.Writer, i int) error {
	c := s.chunks[i]
	last := i == len(s.chunks)-1
	if !last && !c.calls && i != s.signed && c.to > c.from && s.a.Refusal == "" {
		return s.writeFromTemplate(w, c)
	}
	var thought, text string
	switch {
	case c.calls:
	case c.thought:
		thought = s.a.Thinking[c.from:c.to]
	default:
		text = s.a.Text[c.from:c.to]
	}
	return writeData(w, s.response(c, last, i == s.signed, thought, text))
}

// response is the event of chunk c, holding thought or text.
func (s *stream) response(c chunk, last, signed bool, thought, text string) Response {
	res := Response{ModelVersion: s.a.Model, ResponseID: s.a.ID}
	if last {
		res.UsageMetadata = usageOf(s.a)
	} else {
		u := s.a.Usage
		res.UsageMetadata = Usage{PromptTokenCount: u.Input, TotalTokenCount: u.Input, CachedContentTokenCount: u.CacheRead,
			PromptTokensDetails: []ModalityTokens{{Modality: "TEXT", TokenCount: u.Input}}}
	}
	finish := ""
	if last {
		finish = s.finish
	}
	if s.a.Refusal != "" && s.finish == "SAFETY" {
		res.Candidates = s.r.candidatesOf(nil, finish, true)
		return res
	}
	var calls []scenario.ToolCall
	if c.calls {
		calls = s.a.ToolCalls
	}
	parts := s.r.parts(s.a, thought, text, calls, signed)
	if len(parts) == 0 {
		empty := ""
		parts = []OutPart{{Text: &empty}}
	}
	res.Candidates = s.r.candidatesOf(parts, finish, false)
	return res
}

// piecePlaceholder stands for a chunk's piece in a template; no answer's
// model or ID holds it.
const piecePlaceholder = "\x7fllmtest-piece\x7f"

// writeFromTemplate writes the event of middle chunk c: its template with
// the piece, JSON-quoted as encoding/json quotes it, in every place (one
// per candidate).
func (s *stream) writeFromTemplate(w io.Writer, c chunk) error {
	kind, piece := 0, s.a.Text[c.from:c.to]
	if c.thought {
		kind, piece = 1, s.a.Thinking[c.from:c.to]
	}
	t := s.templates[kind]
	if t == nil {
		thought, text := "", piecePlaceholder
		if c.thought {
			thought, text = piecePlaceholder, ""
		}
		var b bytes.Buffer
		if err := writeData(&b, s.response(c, false, false, thought, text)); err != nil {
			return err
		}
		quoted, _ := json.Marshal(piecePlaceholder)
		t = bytes.Split(b.Bytes(), quoted)
		s.templates[kind] = t
	}
	buf := append(s.buf[:0], t[0]...)
	for _, rest := range t[1:] {
		buf = appendQuoted(buf, piece)
		buf = append(buf, rest...)
	}
	s.buf = buf
	_, err := w.Write(buf)
	return err
}

// appendQuoted appends text as encoding/json quotes it: as it is when no
// byte needs escaping (ASCII, no quote, backslash, control or HTML
// character), else by encoding/json itself.
func appendQuoted(b []byte, text string) []byte {
	for i := 0; i < len(text); i++ {
		if c := text[i]; c < 0x20 || c >= 0x7f || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&' {
			q, _ := json.Marshal(text)
			return append(b, q...)
		}
	}
	b = append(b, '"')
	b = append(b, text...)
	return append(b, '"')
}

// writeData writes v as one event.
func writeData(w io.Writer, v any) error {
	var b bytes.Buffer
	b.WriteString("data: ")
	if err := json.NewEncoder(&b).Encode(v); err != nil {
		return err
	}
	b.Truncate(b.Len() - 1)
	b.WriteString("\n\n")
	_, err := w.Write(b.Bytes())
	return err
}

// Opening implements provider.FailingStream: a stream can fail before
// its first chunk.
func (s *stream) Opening() int { return 0 }

// WriteErrorEvent implements provider.FailingStream: the API ends a
// failing stream with the error's status as one more event, which genai
// returns as its APIError (wire.md Part 3 §2.4).
func (s *stream) WriteErrorEvent(w io.Writer, _ int, e *apierr.Error) error {
	_, body := Envelope(e)
	return writeData(w, body)
}

// WriteMalformedEvent implements provider.FailingStream.
func (s *stream) WriteMalformedEvent(w io.Writer, i int) error {
	var b bytes.Buffer
	if err := s.WriteEvent(&b, i); err != nil {
		return err
	}
	_, err := w.Write(provider.Malformed(b.Bytes(), ""))
	return err
}
