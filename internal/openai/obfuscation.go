package openai

import (
	"hash/fnv"
	"unicode/utf8"
)

// Stream events carry an "obfuscation" field by default (since August
// 2025), in chat chunks and in the Responses API's deltas alike: random
// characters that even out the size of what an observer of the encrypted
// stream sees, so that the length of each delta does not show. In real
// streams of 2026 a delta shorter than 16 characters and its padding add up
// to 16 (the target varies between captures, and the padding of chunks
// without text is of any length); for longer deltas this pads to the next
// multiple of 16 (inferred: no real capture of one was found). This server
// pads deterministically: the padding depends only on the event's place in
// its stream and on its text, so that golden files stay stable.

// obfuscationAlphabet is what the padding is made of, as in real streams.
const obfuscationAlphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"

// obfuscationBlock is the length that text and padding add up to.
const obfuscationBlock = 16

// appendPadding appends the padding of the event at place i whose delta
// shows text: enough characters that text and padding fill a block of 16,
// a whole block when the text already ends one.
func appendPadding(dst []byte, i uint64, text string) []byte {
	n := obfuscationBlock - utf8.RuneCountInString(text)%obfuscationBlock
	x := i*0x9e3779b97f4a7c15 + uint64(len(text))
	for range n {
		x ^= x >> 31
		x *= 0xbf58476d1ce4e5b9
		x ^= x >> 27
		dst = append(dst, obfuscationAlphabet[x%uint64(len(obfuscationAlphabet))])
	}
	return dst
}

// obfuscation is the padding of a Responses delta: its place is the item
// it belongs to and the event's sequence number.
func obfuscation(itemID string, seq int, delta string) string {
	h := fnv.New64a()
	h.Write([]byte(itemID))
	return string(appendPadding(nil, h.Sum64()+uint64(seq)<<32, delta))
}
