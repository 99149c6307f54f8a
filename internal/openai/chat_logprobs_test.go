package openai

import (
	"encoding/json"
	"strings"
	"testing"

	oai "github.com/openai/openai-go/v3"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/llmtestserver/llmtestserver/scenario"
)

// A splitter that cuts characters apart: every chunk still shows whole
// characters, and its logprobs list the partial tokens it joins, each
// named by its bytes, their bytes adding up to the chunk's text.
func TestStreamLogprobsOfPartialCharacters(t *testing.T) {
	text := "é🎉!"
	a := &ChatAnswer{ID: "c", Text: text, Logprobs: &Logprobs{Top: 2}}
	for _, per := range []int{1, 2} {
		var content strings.Builder
		var tokens int
		for _, data := range events(t, render(a.Stream(bytewise, per, false))) {
			if data == "[DONE]" {
				continue
			}
			var c oai.ChatCompletionChunk
			require.NoError(t, json.Unmarshal([]byte(data), &c))
			ch := c.Choices[0]
			if ch.Delta.Content == "" {
				continue
			}
			var b []byte
			for _, lp := range ch.Logprobs.Content {
				for _, x := range lp.Bytes {
					b = append(b, byte(x))
				}
				if len(lp.Bytes) == 1 && lp.Bytes[0] >= 0x80 {
					assert.True(t, strings.HasPrefix(lp.Token, `bytes:\x`), "token %q", lp.Token)
				}
				require.Len(t, lp.TopLogprobs, 2)
				tokens++
			}
			assert.Equal(t, ch.Delta.Content, string(b))
			content.WriteString(ch.Delta.Content)
		}
		assert.Equal(t, text, content.String(), "per %d", per)
		assert.Equal(t, len(text), tokens, "per %d: one entry per token", per)
	}
}

// stop's shapes: null, a string, an array of at most four strings; empty
// sequences stop nothing.
func TestDecodeStop(t *testing.T) {
	for raw, want := range map[string][]string{
		``: nil, `null`: nil, `""`: nil, `"x"`: {"x"}, `[]`: nil, `["a","","b"]`: {"a", "b"},
	} {
		got, err := decodeStop(json.RawMessage(raw))
		require.Nil(t, err, raw)
		assert.Equal(t, want, got, raw)
	}
	for raw, code := range map[string]string{
		`["a","b","c","d","e"]`: "array_above_max_length", `7`: "invalid_type", `[true]`: "invalid_type", `{}`: "invalid_type",
	} {
		_, err := decodeStop(json.RawMessage(raw))
		require.NotNil(t, err, raw)
		assert.Equal(t, code, err.Code, raw)
	}
}

// A reply cut at a stop sequence stopped there: a scripted finish reason
// gives way to stop, but for content_filter; the tool calls after are gone.
func TestCutAtStopFinishes(t *testing.T) {
	calls := []scenario.ToolCall{{Name: "f"}}
	r := scenario.Reply{Text: "one END two", ToolCalls: calls, FinishReason: scenario.FinishToolCalls}
	if !cutAtStop(&r, []string{"END"}) || r.Text != "one " || r.ToolCalls != nil || r.FinishReason != "" {
		t.Errorf("cut reply = %+v", r)
	}
	r = scenario.Reply{Text: "one END two", FinishReason: scenario.FinishContentFilter}
	if !cutAtStop(&r, []string{"END"}) || r.FinishReason != scenario.FinishContentFilter {
		t.Errorf("cut content_filter reply = %+v", r)
	}
	r = scenario.Reply{Text: "no stop here", FinishReason: scenario.FinishLength}
	if cutAtStop(&r, []string{"END"}) || r.FinishReason != scenario.FinishLength {
		t.Errorf("uncut reply = %+v", r)
	}
}
