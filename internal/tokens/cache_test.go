package tokens

import (
	"fmt"
	"math/rand/v2"
	"runtime"
	"strings"
	"testing"
)

// heapInUse returns the bytes of live heap objects, after collecting.
func heapInUse() uint64 {
	runtime.GC()
	runtime.GC() // a second cycle also empties the library's sync.Pools
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return ms.HeapAlloc
}

// The caches keep what their bounds say, whatever they are fed: texts of a
// token per byte cost the pieces cache far more in string headers than in
// text, and many distinct prompts fill the counts cache again and again.
func TestCachesKeepTheirByteBounds(t *testing.T) {
	if testing.Short() {
		t.Skip("measures the heap")
	}
	codec(O200kBase) // the vocabulary is the library's, loaded once
	resetCaches()
	t.Cleanup(resetCaches)
	before := heapInUse()
	rng := rand.New(rand.NewPCG(3, 4))
	const punct = ".,;:!?-+*/=<>()[]{}"
	for i := range 2000 {
		var sb strings.Builder
		fmt.Fprintf(&sb, "%d", i)
		for range 300 {
			sb.WriteByte(punct[rng.IntN(len(punct))])
			sb.WriteByte('a' + byte(rng.IntN(26)))
		}
		Split("gpt-4o", sb.String())
	}
	for i := range 40_000 {
		Count("gpt-4o", fmt.Sprintf("prompt %d", i))
	}
	grown := int64(heapInUse()) - int64(before)
	t.Logf("pieces %d bytes in %d entries, counts %d", pieces.bytes, len(pieces.m), len(counts.m))
	const bound = maxPieceBytes + maxCountBytes
	t.Logf("the caches grew the heap by %.1f MiB (bound %d MiB)", float64(grown)/(1<<20), bound>>20)
	if grown > bound+bound/4 {
		t.Errorf("the caches grew the heap by %d bytes, want at most their bound of %d (+25%%)", grown, bound)
	}
}

// resetCaches empties both caches.
func resetCaches() {
	counts.Lock()
	counts.m = make(map[cacheKey]int32)
	counts.Unlock()
	pieces.Lock()
	pieces.m, pieces.bytes = make(map[cacheKey][]string), 0
	pieces.Unlock()
}
