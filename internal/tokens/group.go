package tokens

import (
	"iter"
	"unicode/utf8"
)

// ChunkEnds groups a text's tokens into the chunks of a stream, per tokens
// to a chunk, and yields for each chunk the index just past its last
// token: chunk k is tokens[ends[k-1]:ends[k]], and the last end is
// len(tokens). It yields rather than returns them, so that a caller that
// keeps offsets of its own (a long answer cut into one-token chunks has
// as many) holds no second list.
//
// The tokenizer cuts characters of several bytes (emoji, many CJK
// characters) into tokens that end inside them, and a chunk that ended
// there would reach the client as U+FFFD once written as JSON. So tokens
// that end inside a UTF-8 sequence count as one with those that complete
// it, and no chunk ends inside a character. Only the last bytes of the
// tokens since the last whole character decide that, so that a run of
// lone lead bytes costs linear time (and stays one chunk).
func ChunkEnds(tokens []string, per int) iter.Seq[int] {
	per = max(per, 1)
	return func(yield func(int) bool) {
		units, tail := 0, ""
		for i, t := range tokens {
			tail += t
			tail = tail[max(0, len(tail)-utf8.UTFMax):]
			if endsInsideRune(tail) && i+1 < len(tokens) {
				continue
			}
			tail = ""
			units++
			if units == per || i+1 == len(tokens) {
				if !yield(i + 1) {
					return
				}
				units = 0
			}
		}
	}
}

// MaxChunks is the most chunks ChunkEnds makes of n tokens, per to a
// chunk: room to allocate for them.
func MaxChunks(n, per int) int {
	per = max(per, 1)
	return (n + per - 1) / per
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
