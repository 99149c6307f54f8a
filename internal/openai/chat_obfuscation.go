package openai

// Chat stream chunks carry an "obfuscation" field by default (since
// August 2025): random characters that even out the size of what an
// observer of the encrypted stream sees, so that the length of each
// chunk's text does not show. In real streams of 2026 the padding of a
// content chunk brings its text and padding together to a fixed length
// (16 characters in the captures seen; the target varies between captures
// and the padding of other chunks is of any length). This server pads
// deterministically: the padding of a chunk depends only on its position
// in the stream and its text, so that golden files stay stable.

// obfuscationAlphabet is what the padding is made of, as in real streams.
const obfuscationAlphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"

// obfuscationBlock is the length that text and padding add up to.
const obfuscationBlock = 16

// appendPadding appends the padding of the chunk at position i whose delta
// shows text: enough characters that text and padding fill a block of 16,
// a whole block when the text already ends one.
func appendPadding(dst []byte, i uint64, text string) []byte {
	n := obfuscationBlock - len(text)%obfuscationBlock
	x := i*0x9e3779b97f4a7c15 + uint64(len(text))
	for range n {
		x ^= x >> 31
		x *= 0xbf58476d1ce4e5b9
		x ^= x >> 27
		dst = append(dst, obfuscationAlphabet[x%uint64(len(obfuscationAlphabet))])
	}
	return dst
}
