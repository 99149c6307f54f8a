package tokens

import (
	"context"
	"hash/maphash"
	"strings"
	"sync"
)

// The caches below are process-wide and bounded by the bytes they keep on
// the heap, as counted by the constants here; when one is full it starts
// over with a fresh map, so the old map and everything it held become
// garbage at once. Together they keep at most maxCountBytes+maxPieceBytes
// (10 MiB).

// counts caches token counts, keyed by encoding and a hash of the text, so
// that a growing conversation only pays for its new messages. It keeps no
// text, only keys and counts.
var counts = struct {
	sync.Mutex
	m map[cacheKey]int32
}{m: make(map[cacheKey]int32)}

const (
	// maxCountBytes bounds the heap the counts cache keeps.
	maxCountBytes = 2 << 20
	// countEntryBytes is what one count costs on the heap at most: a
	// 24-byte slot of a Go map (key and value), at a load as low as half
	// just after the map grew, plus its control byte.
	countEntryBytes = 64
	// maxCounts is the number of counts maxCountBytes affords.
	maxCounts = maxCountBytes / countEntryBytes
)

// seed is fixed for the process, so equal texts hash equally.
var seed = maphash.MakeSeed()

// cacheKey identifies a text in an encoding. The length guards against hash
// collisions between texts of other lengths.
type cacheKey struct {
	hash   uint64
	length int
}

// keyOf hashes enc and text together, so that the caches never confuse the
// counts of one text in two encodings.
func keyOf(enc Encoding, text string) cacheKey {
	var h maphash.Hash
	h.SetSeed(seed)
	h.WriteString(string(enc))
	h.WriteByte(0)
	h.WriteString(text)
	return cacheKey{hash: h.Sum64(), length: len(text)}
}

// cachedCount returns the token count of text in enc, computing it once.
func cachedCount(ctx context.Context, enc Encoding, text string) (int, error) {
	key := keyOf(enc, text)
	counts.Lock()
	n, ok := counts.m[key]
	counts.Unlock()
	if ok {
		return int(n), nil
	}
	total, err := count(ctx, enc, text)
	if err != nil {
		return total, err
	}
	counts.Lock()
	if len(counts.m) >= maxCounts {
		counts.m = make(map[cacheKey]int32)
	}
	counts.m[key] = int32(total) // a count never passes 2³¹: request bodies are far smaller
	counts.Unlock()
	return total, nil
}

// pieces caches the token pieces of texts, as counts does the counts: a
// reply streamed again (a repeating scenario, a benchmark) is cut once.
// Each entry keeps one copy of its text, which its pieces slice, and the
// pieces' string headers; nothing it keeps refers to the caller's text.
var pieces = struct {
	sync.Mutex
	m     map[cacheKey][]string
	bytes int // heap kept, as pieceCost counts it
}{m: make(map[cacheKey][]string)}

const (
	// maxPieceBytes bounds the heap the pieces cache keeps.
	maxPieceBytes = 8 << 20
	// pieceEntryBytes is what an entry costs beyond its text and its
	// string headers: its map slot (a 16-byte key and a 24-byte slice
	// header) at a load as low as half, and the allocation headroom of its
	// two allocations.
	pieceEntryBytes = 128
)

// pieceCost is what an entry of n pieces of a text of length bytes keeps.
func pieceCost(length, n int) int {
	return pieceEntryBytes + length + 16*n
}

// cachedSplit returns the tokens of text in enc, cutting it once. The
// returned slice is shared: callers must not modify it.
func cachedSplit(ctx context.Context, enc Encoding, text string) ([]string, error) {
	key := keyOf(enc, text)
	pieces.Lock()
	p, ok := pieces.m[key]
	pieces.Unlock()
	if ok {
		return p, nil
	}
	p, err := split(ctx, enc, text)
	if err != nil {
		return nil, err
	}
	joined := 0
	for _, s := range p {
		joined += len(s) // not len(text): invalid UTF-8 comes back as U+FFFD
	}
	cost := pieceCost(joined, len(p))
	if cost > maxPieceBytes/4 {
		return p, nil // too big to share the cache with anything else
	}
	p = compact(p)
	pieces.Lock()
	if pieces.bytes+cost > maxPieceBytes {
		pieces.m, pieces.bytes = make(map[cacheKey][]string), 0
	}
	pieces.m[key] = p
	pieces.bytes += cost
	pieces.Unlock()
	return p, nil
}

// compact returns p re-sliced from one copy of its joined text, in a slice
// of exactly its length: the tokenizer allocates every piece on its own,
// which costs a small allocation per token.
func compact(p []string) []string {
	joined := strings.Join(p, "")
	out := make([]string, len(p))
	at := 0
	for i, s := range p {
		out[i] = joined[at : at+len(s)]
		at += len(s)
	}
	return out
}
