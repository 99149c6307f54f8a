package runtime

import (
	goruntime "runtime"
	"strconv"
	"strings"
	"testing"
)

// The prompt cache keeps hashes, not the client's strings: requests that
// each send a long prompt_cache_key of their own once kept every key alive
// in every prefix they cached (200 keys of 256 KiB: 50 MiB).
func TestPromptCacheKeepsNoCacheKeys(t *testing.T) {
	if testing.Short() {
		t.Skip("measures the heap")
	}
	rt := New(Settings{JournalCapacity: 10, JournalMaxBytes: 1 << 20})
	segments := []PromptSegment{{Text: "system\x00be brief", Tokens: 600}, {Text: "user\x00hello", Tokens: 600}}
	long := strings.Repeat("k", 256<<10)
	before := heapInUse()
	for i := range 200 {
		key := long + strconv.Itoa(i) // a string of its own, as a decoded request has
		rt.CachedTokens("gpt-4o", key, segments)
	}
	grown := int64(heapInUse()) - int64(before)
	t.Logf("200 cache keys of 256 KiB: heap +%.2f MiB", float64(grown)/(1<<20))
	if grown > 1<<20 {
		t.Errorf("the prompt cache grew the heap by %d bytes, want at most 1 MiB", grown)
	}
	goruntime.KeepAlive(long)

	// Keys still separate the caches, and equal keys share them.
	rt.CachedTokens("gpt-4o", "a", segments)
	if got := rt.CachedTokens("gpt-4o", "a", segments); got != 1152 {
		t.Errorf("the same key cached %d tokens, want 1152", got)
	}
	if got := rt.CachedTokens("gpt-4o", "b", segments); got != 0 {
		t.Errorf("another key cached %d tokens, want 0", got)
	}
	if got := rt.CachedTokens("gpt-4.1", "a", segments); got != 0 {
		t.Errorf("another model cached %d tokens, want 0", got)
	}
}
