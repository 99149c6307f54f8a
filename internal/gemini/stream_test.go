package gemini

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/llmtestserver/llmtestserver/internal/apierr"
	"github.com/llmtestserver/llmtestserver/internal/provider"
	"github.com/llmtestserver/llmtestserver/scenario"
)

// splitWords is a stand-in tokenizer: each word with the spaces after
// it, so that the pieces join back into the text.
func splitWords(s string) []string {
	if s == "" {
		return nil
	}
	return strings.SplitAfter(s, " ")
}

// writeAll writes every event of s and returns the bytes.
func writeAll(t *testing.T, s *stream) string {
	t.Helper()
	var b bytes.Buffer
	for i := range s.Len() {
		require.NoError(t, s.WriteEvent(&b, i))
	}
	return b.String()
}

// parseEvents reads the stream as genai's decoder does: events split by
// a blank line, each one "data: " line holding a whole JSON response; no
// event names, comments or [DONE], which genai refuses.
func parseEvents(t *testing.T, text string) []map[string]any {
	t.Helper()
	require.True(t, strings.HasSuffix(text, "\n\n"), "the last event is terminated")
	var out []map[string]any
	for _, ev := range strings.Split(strings.TrimSuffix(text, "\n\n"), "\n\n") {
		require.NotContains(t, ev, "\n", "one line per event: %q", ev)
		data, ok := strings.CutPrefix(ev, "data: ")
		require.True(t, ok, "a data line, no event line: %q", ev)
		var v map[string]any
		require.NoError(t, json.Unmarshal([]byte(data), &v), data)
		out = append(out, v)
	}
	return out
}

// candidate0 is the first candidate of an event.
func candidate0(t *testing.T, ev map[string]any) map[string]any {
	t.Helper()
	cs, ok := ev["candidates"].([]any)
	require.True(t, ok, "event %v has candidates", ev)
	require.NotEmpty(t, cs)
	return cs[0].(map[string]any)
}

// partsOf are the parts of an event's first candidate.
func partsOf(t *testing.T, ev map[string]any) []map[string]any {
	t.Helper()
	content, ok := candidate0(t, ev)["content"].(map[string]any)
	require.True(t, ok)
	assert.Equal(t, "model", content["role"])
	var out []map[string]any
	for _, p := range content["parts"].([]any) {
		out = append(out, p.(map[string]any))
	}
	return out
}

func thinkingAnswer() *provider.Answer {
	return &provider.Answer{ID: "resp-1", Model: "gemini-2.5-flash", Text: "Hello there, dear world.",
		Thinking: "Let me think about it.", Finish: scenario.FinishStop,
		Usage: provider.Usage{Input: 12, Output: 9, Reasoning: 4}}
}

// The stream's framing and accounting: data-only events, usage on every
// one, the finish on the last only, the text deltas adding up to the
// text; the thoughts, when shown, first and marked, the signature on the
// first part after them.
func TestStreamShowsThoughtsFirst(t *testing.T) {
	a := thinkingAnswer()
	r := &render{thoughts: true, candidates: 1, signature: signature(a.Thinking)}
	events := parseEvents(t, writeAll(t, r.newStream(a, nil, splitWords, 1)))
	require.Len(t, events, len(splitWords(a.Thinking))+len(splitWords(a.Text)))

	var thoughts, text strings.Builder
	textStarted := false
	signed := 0
	for i, ev := range events {
		last := i == len(events)-1
		assert.Equal(t, "resp-1", ev["responseId"])
		assert.Equal(t, "gemini-2.5-flash", ev["modelVersion"])
		usage, ok := ev["usageMetadata"].(map[string]any)
		require.True(t, ok, "event %d has usageMetadata", i)
		assert.EqualValues(t, 12, usage["promptTokenCount"])
		c := candidate0(t, ev)
		if last {
			assert.Equal(t, "STOP", c["finishReason"])
			assert.EqualValues(t, 21, usage["totalTokenCount"])
			assert.EqualValues(t, 5, usage["candidatesTokenCount"])
			assert.EqualValues(t, 4, usage["thoughtsTokenCount"])
		} else {
			assert.NotContains(t, c, "finishReason", "event %d is not the last", i)
		}
		for _, p := range partsOf(t, ev) {
			if sig, ok := p["thoughtSignature"]; ok {
				signed++
				assert.Equal(t, r.signature, sig)
				assert.NotEqual(t, true, p["thought"], "the signature is on the first part after the thoughts")
			}
			if p["thought"] == true {
				assert.False(t, textStarted, "thoughts come before the text")
				thoughts.WriteString(p["text"].(string))
				continue
			}
			textStarted = true
			text.WriteString(p["text"].(string))
		}
	}
	assert.Equal(t, a.Thinking, thoughts.String())
	assert.Equal(t, a.Text, text.String())
	assert.Equal(t, 1, signed, "one part carries the signature")
}

// Thoughts not asked for are not sent; the text still streams whole.
func TestStreamHidesThoughts(t *testing.T) {
	a := thinkingAnswer()
	r := &render{candidates: 1, signature: signature(a.Thinking)}
	events := parseEvents(t, writeAll(t, r.newStream(a, nil, splitWords, 2)))
	require.Len(t, events, 2, "four words, two a chunk")
	var text strings.Builder
	for _, ev := range events {
		for _, p := range partsOf(t, ev) {
			assert.NotContains(t, p, "thought")
			text.WriteString(p["text"].(string))
		}
	}
	assert.Equal(t, a.Text, text.String())
}

// The calls come together in one event after the text, with arguments
// that are always an object; the finish is on that event.
func TestStreamToolCalls(t *testing.T) {
	a := &provider.Answer{ID: "r", Model: "m", Text: "Checking.", Finish: scenario.FinishToolCalls,
		ToolCalls: []scenario.ToolCall{{ID: "c1", Name: "f", Arguments: `{"x":1}`}, {ID: "c2", Name: "g", Arguments: `not json`}}}
	r := &render{candidates: 1}
	events := parseEvents(t, writeAll(t, r.newStream(a, nil, splitWords, 1)))
	require.Len(t, events, 2)
	assert.NotContains(t, candidate0(t, events[0]), "finishReason")
	assert.Equal(t, "STOP", candidate0(t, events[1])["finishReason"], "the API has no finish reason of its own for calls")
	parts := partsOf(t, events[1])
	require.Len(t, parts, 2)
	assert.Equal(t, map[string]any{"id": "c1", "name": "f", "args": map[string]any{"x": float64(1)}}, parts[0]["functionCall"])
	assert.Equal(t, map[string]any{"id": "c2", "name": "g", "args": map[string]any{}}, parts[1]["functionCall"])
}

// An empty answer is still one event, with an empty text part, which
// genai reads as an empty response rather than none.
func TestStreamEmpty(t *testing.T) {
	a := &provider.Answer{ID: "r", Model: "m", Finish: scenario.FinishStop}
	events := parseEvents(t, writeAll(t, (&render{candidates: 1}).newStream(a, nil, splitWords, 1)))
	require.Len(t, events, 1)
	assert.Equal(t, "STOP", candidate0(t, events[0])["finishReason"])
	assert.Equal(t, []map[string]any{{"text": ""}}, partsOf(t, events[0]))
}

// A refusal is one event: no content, SAFETY and the ratings.
func TestStreamRefusal(t *testing.T) {
	a := &provider.Answer{ID: "r", Model: "m", Refusal: "no", Finish: scenario.FinishRefusal}
	events := parseEvents(t, writeAll(t, (&render{candidates: 1}).newStream(a, nil, splitWords, 1)))
	require.Len(t, events, 1)
	c := candidate0(t, events[0])
	assert.Equal(t, "SAFETY", c["finishReason"])
	assert.NotContains(t, c, "content")
	assert.NotEmpty(t, c["safetyRatings"])
}

// Every candidate asked for streams the same deltas, each with its index.
func TestStreamCandidates(t *testing.T) {
	a := &provider.Answer{ID: "r", Model: "m", Text: "a b", Finish: scenario.FinishStop}
	events := parseEvents(t, writeAll(t, (&render{candidates: 2}).newStream(a, nil, splitWords, 1)))
	for _, ev := range events {
		cs := ev["candidates"].([]any)
		require.Len(t, cs, 2)
		for i, c := range cs {
			assert.EqualValues(t, i, c.(map[string]any)["index"])
		}
	}
}

// A stream that fails ends with the error's status as one more data
// event, which genai raises as its APIError.
func TestStreamWriteErrorEvent(t *testing.T) {
	s := (&render{candidates: 1}).newStream(thinkingAnswer(), nil, splitWords, 1)
	var b bytes.Buffer
	require.NoError(t, s.WriteErrorEvent(&b, 1, &apierr.Error{Status: 503, Message: "The model is overloaded."}))
	out := b.String()
	assert.True(t, strings.HasPrefix(out, `data: {"error":{`), out)
	assert.True(t, strings.HasSuffix(out, "}}\n\n"), out)
	assert.NotContains(t, out, "event:")
	events := parseEvents(t, out)
	require.Len(t, events, 1)
	assert.Equal(t, map[string]any{"code": float64(503), "message": "The model is overloaded.", "status": "UNAVAILABLE"}, events[0]["error"])
}

// A middle chunk written from its template is byte for byte the event
// encoding/json renders for it, whatever its piece holds (quotes, HTML,
// control characters, non-ASCII, invalid UTF-8) and however many
// candidates repeat it.
func TestStreamTemplatesMatchEncodingJSON(t *testing.T) {
	a := &provider.Answer{ID: "resp-2", Model: "gemini-2.5-flash", Finish: scenario.FinishStop,
		Text:     `plain words "quoted" <b>&amp;</b> tab` + "\t newline\n é ü 😀 \u2028 bad\xff end ",
		Thinking: "thinking <carefully> about \"it\" ", Usage: provider.Usage{Input: 7, Output: 20, CacheRead: 3}}
	for _, candidates := range []int{1, 3} {
		r := &render{thoughts: true, candidates: candidates, signature: signature(a.Thinking)}
		s := r.newStream(a, nil, splitWords, 1)
		templated := 0
		for i, c := range s.chunks {
			var got bytes.Buffer
			require.NoError(t, s.WriteEvent(&got, i))
			thought, text := "", ""
			if c.thought {
				thought = a.Thinking[c.from:c.to]
			} else if !c.calls {
				text = a.Text[c.from:c.to]
			}
			var want bytes.Buffer
			require.NoError(t, writeData(&want, s.response(c, i == len(s.chunks)-1, i == s.signed, thought, text)))
			require.Equal(t, want.String(), got.String(), "chunk %d of %d candidates", i, candidates)
			if s.templates[0] != nil || s.templates[1] != nil {
				templated++
			}
		}
		require.Positive(t, templated, "the templates were used")
	}
}

// BenchmarkStreamEvents writes the events of a 500-word stream.
func BenchmarkStreamEvents(b *testing.B) {
	a := &provider.Answer{ID: "resp-3", Model: "gemini-2.5-flash", Finish: scenario.FinishStop,
		Text: strings.Repeat("word ", 500), Usage: provider.Usage{Input: 7, Output: 500}}
	r := &render{candidates: 1}
	var out bytes.Buffer
	b.ReportAllocs()
	for b.Loop() {
		s := r.newStream(a, nil, splitWords, 1)
		out.Reset()
		for i := range s.Len() {
			if err := s.WriteEvent(&out, i); err != nil {
				b.Fatal(err)
			}
		}
	}
}
