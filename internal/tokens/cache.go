package tokens

import (
	"hash/maphash"
	"sync"
)

// counts caches token counts process-wide, keyed by encoding and a hash of
// the text, so that a growing conversation only pays for its new messages.
// It holds at most maxCached counts and starts over when full: a cheap bound
// that keeps the working set of the running tests.
var counts = struct {
	sync.Mutex
	m map[countKey]int
}{m: make(map[countKey]int)}

const maxCached = 1 << 16

// seed is fixed for the process, so equal texts hash equally.
var seed = maphash.MakeSeed()

type countKey struct {
	encoding Encoding
	hash     uint64
	length   int // guards against hash collisions between texts of other lengths
}

// pieces caches the token pieces of texts process-wide, as counts does the
// counts: a reply streamed again (a repeating scenario, a benchmark) is cut
// once. It holds at most maxPieceBytes of text and starts over when full.
var pieces = struct {
	sync.Mutex
	m     map[countKey][]string
	bytes int
}{m: make(map[countKey][]string)}

const maxPieceBytes = 8 << 20

// cachedSplit returns the tokens of text in enc, cutting it once. The
// returned slice is shared: callers must not modify it.
func cachedSplit(enc Encoding, text string) []string {
	key := keyOf(enc, text)
	pieces.Lock()
	p, ok := pieces.m[key]
	pieces.Unlock()
	if ok {
		return p
	}
	_, p, _ = codec(enc).Encode(text)
	pieces.Lock()
	if pieces.bytes+len(text) > maxPieceBytes {
		clear(pieces.m)
		pieces.bytes = 0
	}
	if len(text) <= maxPieceBytes {
		pieces.m[key] = p
		pieces.bytes += len(text)
	}
	pieces.Unlock()
	return p
}

func keyOf(enc Encoding, text string) countKey {
	return countKey{encoding: enc, hash: maphash.String(seed, text), length: len(text)}
}

// cachedCount returns the token count of text in enc, computing it once.
func cachedCount(enc Encoding, text string) int {
	key := keyOf(enc, text)
	counts.Lock()
	n, ok := counts.m[key]
	counts.Unlock()
	if ok {
		return n
	}
	ids, _, _ := codec(enc).Encode(text)
	n = len(ids)
	counts.Lock()
	if len(counts.m) >= maxCached {
		clear(counts.m)
	}
	counts.m[key] = n
	counts.Unlock()
	return n
}
