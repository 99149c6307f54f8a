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
	} else {
		var thought, text string
		var calls []scenario.ToolCall
		switch {
		case c.calls:
			calls = s.a.ToolCalls
		case c.thought:
			thought = s.a.Thinking[c.from:c.to]
		default:
			text = s.a.Text[c.from:c.to]
		}
		parts := s.r.parts(s.a, thought, text, calls, i == s.firstAfterThoughts())
		if len(parts) == 0 {
			empty := ""
			parts = []OutPart{{Text: &empty}}
		}
		res.Candidates = s.r.candidatesOf(parts, finish, false)
	}
	return writeData(w, res)
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
