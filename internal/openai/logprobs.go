package openai

import (
	"hash/fnv"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/llmtestserver/llmtestserver/internal/plainjson"
)

// Log probabilities of answers' tokens, made up deterministically, as the
// Chat Completions and Responses APIs render them.

// Logprobs asks an answer for the log probabilities of its tokens
// (logprobs: true).
type Logprobs struct {
	// Top is top_logprobs: how many entries each token's top_logprobs
	// lists, the token itself first (0 to 20).
	Top int
}

// The log probabilities are made up, deterministically: the same token at
// the same position of an answer always gets the same numbers, so golden
// files stay stable. They are well formed as the real ones are: every
// logprob is below 0, a token's top_logprobs start with the token itself
// and go down, and their probabilities sum to less than 1.

// tokenLogprob is the logprob of the token tok at position pos of an
// answer: between about -0.99 and -0.00001, as float32 values like the
// API's. Above ln(1/3), so that the token is always the most likely.
func tokenLogprob(tok string, pos int) float64 {
	h := fnv.New64a()
	h.Write([]byte(tok))
	x := h.Sum64() ^ (uint64(pos+1) * 0x9e3779b97f4a7c15)
	x ^= x >> 29
	frac := float64(x>>11) / (1 << 53)
	return float64(float32(-(0.00001 + 0.99*frac)))
}

// alternativeLogprob is the logprob of the k-th alternative (from 1) of a
// token of logprob lp: the rest of the probability mass halved k times,
// so that alternatives go down and never reach the token's own.
func alternativeLogprob(lp float64, k int) float64 {
	return float64(float32(math.Log(-math.Expm1(lp)) - float64(k)*math.Ln2))
}

// alternatives are the tokens offered as the other likely ones; common
// tokens of o200k_base. There are more than the 19 a token can need, so
// that the token itself can be left out.
var alternatives = func() []encodedToken {
	words := []string{" the", " a", ",", ".", " and", " to", " of", " in", " is", " I",
		"The", " it", " that", " for", " you", " with", " on", "\n", " this", " be",
		" are", " as", " not", " we"}
	out := make([]encodedToken, len(words))
	for i, w := range words {
		out[i] = encodeToken(w)
	}
	return out
}()

// encodedToken is a token's text and bytes, already in JSON.
type encodedToken struct {
	text  string
	token []byte // the token field
	bytes []byte // the bytes field
}

// encodeToken encodes a token. A token that is not whole UTF-8 (a piece of
// a character) is named by its bytes, "bytes:\xe2\x80", as OpenAI's
// tokenizer tools name such tokens; the real API's word for them in chat
// logprobs is not confirmed. Its bytes field has the real bytes.
func encodeToken(tok string) encodedToken {
	name := tok
	if !utf8.ValidString(tok) {
		var b strings.Builder
		b.WriteString("bytes:")
		for i := range len(tok) {
			b.WriteString(`\x`)
			b.WriteString(strconv.FormatUint(uint64(tok[i])|0x100, 16)[1:])
		}
		name = b.String()
	}
	e := encodedToken{text: tok}
	e.token, _ = plainjson.Marshal(name) // a valid string always encodes
	e.bytes = append(e.bytes, '[')
	for i := range len(tok) {
		if i > 0 {
			e.bytes = append(e.bytes, ',')
		}
		e.bytes = strconv.AppendUint(e.bytes, uint64(tok[i]), 10)
	}
	e.bytes = append(e.bytes, ']')
	return e
}

// appendTokenLogprobs appends to dst the JSON array of the log
// probabilities of tokens, the first of which is at position pos of the
// answer, each with top entries in its top_logprobs.
func appendTokenLogprobs(dst []byte, tokens []string, pos, top int) []byte {
	dst = append(dst, '[')
	for i, tok := range tokens {
		if i > 0 {
			dst = append(dst, ',')
		}
		e := encodeToken(tok)
		lp := tokenLogprob(tok, pos+i)
		dst = append(dst, '{')
		dst = appendTokenFields(dst, e, lp)
		dst = append(dst, `,"top_logprobs":[`...)
		if top > 0 {
			dst = appendTopEntry(dst, e, lp)
			start := int(lp*-1e5) % len(alternatives)
			for k, n := 0, 1; n < top && k < len(alternatives); k++ {
				alt := alternatives[(start+k)%len(alternatives)]
				if alt.text == tok {
					continue
				}
				dst = append(dst, ',')
				dst = appendTopEntry(dst, alt, alternativeLogprob(lp, n))
				n++
			}
		}
		dst = append(dst, "]}"...)
	}
	return append(dst, ']')
}

func appendTopEntry(dst []byte, e encodedToken, lp float64) []byte {
	dst = append(dst, '{')
	dst = appendTokenFields(dst, e, lp)
	return append(dst, '}')
}

// appendTokenFields appends the fields every logprob entry has: token,
// logprob and bytes.
func appendTokenFields(dst []byte, e encodedToken, lp float64) []byte {
	dst = append(dst, `"token":`...)
	dst = append(dst, e.token...)
	dst = append(dst, `,"logprob":`...)
	dst = appendLogprob(dst, lp)
	dst = append(dst, `,"bytes":`...)
	return append(dst, e.bytes...)
}

func appendLogprob(dst []byte, lp float64) []byte {
	return strconv.AppendFloat(dst, lp, 'g', -1, 32)
}

// logprobTokens cuts s into the tokens that get log probabilities: split's
// when they rebuild s, else s whole.
func logprobTokens(s string, split func(string) []string) []string {
	if s == "" {
		return nil
	}
	var tokens []string
	if split != nil {
		tokens = split(s)
	}
	if strings.Join(tokens, "") != s {
		return []string{s}
	}
	return tokens
}
