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

// cachedCount returns the token count of text in enc, computing it once.
func cachedCount(enc Encoding, text string) int {
	key := countKey{encoding: enc, hash: maphash.String(seed, text), length: len(text)}
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
