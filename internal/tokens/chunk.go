package tokens

import (
	"unicode"
	"unicode/utf8"
)

// maxChunkBytes bounds the text handed to the tokenizer library at once.
//
// The library's split regexp rescans a whole whitespace run for every match
// it finds inside it, so a run of n bytes such as " \n \n \n…" costs O(n²):
// 128 KiB of it took 18 s. Cutting text into chunks of at most this many
// bytes, and tokenizing each on its own, bounds that cost per chunk and so
// makes counting linear in the text; it also gives cancellation a place to
// be checked.
const maxChunkBytes = 256

// chunks calls yield with consecutive pieces of text, each at most
// maxChunkBytes long, that joined give text back. It stops early when yield
// returns false.
//
// Pieces end, where possible, at a safe cut: a position where the library's
// split regexp (of o200k_base and of cl100k_base alike) always ends a match,
// and where no match before it looks past it. Tokenizing the pieces on their
// own then gives exactly the tokens of the whole text. Ordinary text has a
// safe cut every few bytes; only a run of maxChunkBytes without one (a long
// run of spaces, of newlines, of letters or of punctuation) is cut where it
// must, and counts of such runs may differ by a token or so per cut from
// what the library would count on the whole run.
func chunks(text string, yield func(string) bool) {
	start, lastSafe, prev := 0, 0, 0
	stopped := false
	boundaries(text, func(i int, safe bool) bool {
		for i-start > maxChunkBytes {
			// Cut at the last safe cut, else at the last rune boundary:
			// a rune is at most 4 bytes, so that one is past start.
			cut := prev
			if lastSafe > start {
				cut = lastSafe
			}
			if !yield(text[start:cut]) {
				stopped = true
				return false
			}
			start = cut
		}
		if safe {
			lastSafe = i
		}
		prev = i
		return true
	})
	if !stopped && start < len(text) {
		yield(text[start:])
	}
}

// boundaries calls f with every rune boundary of text after its first rune,
// in order and its end included, saying whether it is a safe cut (the end
// always is), until f returns false.
func boundaries(text string, f func(i int, safe bool) bool) {
	prev := rune(-1)
	digits := 0 // runes in the run of digits that ends with prev
	for i := 0; i < len(text); {
		r, size := utf8.DecodeRuneInString(text[i:])
		if prev >= 0 && !f(i, safeCut(prev, r, digits)) {
			return
		}
		if unicode.IsNumber(r) {
			digits++
		} else {
			digits = 0
		}
		prev = r
		i += size
	}
	if len(text) > 0 {
		f(len(text), true)
	}
}

// safeCut reports whether the split regexps always end a match between prev
// and next, given digits, the length in runes of the run of digits that ends
// with prev. The regexps' alternatives are letter runs with an optional
// leading non-letter and trailing contraction ('s, 't…), groups of at most
// three digits, punctuation runs with an optional leading space and trailing
// newlines (and slashes in o200k_base), and whitespace runs. So a match ends
//   - after a non-space before a horizontal space: no alternative takes a
//     space after anything but a space, except newlines after punctuation;
//   - after a letter before anything but a letter, a mark (o200k_base counts
//     marks as letters) or an apostrophe (a contraction);
//   - after a digit before a non-digit, and inside a run of digits every
//     three digits from its start;
//   - after a newline before anything but a newline or a slash: the library
//     ends a whitespace match at the end of the first group of newlines it
//     finds, and a punctuation match takes newlines and slashes after it.
//
// None of these matches looks at what follows the cut beyond finding that it
// does not continue the match, which the end of the text tells just as well.
func safeCut(prev, next rune, digits int) bool {
	switch {
	case !unicode.IsSpace(prev) && unicode.IsSpace(next) && next != '\n' && next != '\r':
		return true
	case unicode.IsLetter(prev):
		return !unicode.IsLetter(next) && !unicode.IsMark(next) && next != '\''
	case unicode.IsNumber(prev):
		return !unicode.IsNumber(next) || digits%3 == 0
	case prev == '\n' || prev == '\r':
		return next != '\n' && next != '\r' && next != '/'
	}
	return false
}
