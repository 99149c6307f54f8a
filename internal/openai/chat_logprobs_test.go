package openai

import (
	"encoding/json"
	"strings"
	"testing"

	oai "github.com/openai/openai-go/v3"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
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
