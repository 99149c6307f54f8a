package tokens

import (
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
)

// The chunks ChunkEnds makes of the tokenizer's own tokens join back to the
// text, hold per tokens each (or the tokens completing a character), and
// each is valid UTF-8 on its own, however the tokens cut the characters.
func TestChunkEndsNeverCutACharacter(t *testing.T) {
	text := strings.Repeat("🦜 日本語 🦜🦜 ü 𝄞 plain words ", 4)
	toks := Split("gpt-4o", text)
	cut := false
	for _, tok := range toks {
		cut = cut || !utf8.ValidString(tok)
	}
	assert.True(t, cut, "the text has no character the tokenizer cuts: the test proves nothing")
	for _, per := range []int{0, 1, 2, 3, 7, len(toks) + 1} {
		ends := slices.Collect(ChunkEnds(toks, per))
		assert.LessOrEqual(t, len(ends), MaxChunks(len(toks), per))
		assert.Equal(t, len(toks), ends[len(ends)-1], "per %d: the last chunk ends with the tokens", per)
		var b strings.Builder
		start := 0
		for _, end := range ends {
			chunk := strings.Join(toks[start:end], "")
			assert.True(t, utf8.ValidString(chunk), "per %d: chunk %q ends inside a character", per, chunk)
			b.WriteString(chunk)
			start = end
		}
		assert.Equal(t, text, b.String(), "per %d", per)
	}
	assert.Empty(t, slices.Collect(ChunkEnds(nil, 1)))
}
