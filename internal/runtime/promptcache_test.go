package runtime

import (
	goruntime "runtime"
	"strconv"
	"strings"
	"testing"
)

// grid is the prefix rule the tests report cached prefixes by: OpenAI's,
// which its codec passes (the shortest prefix 1024 tokens, steps of 128).
var grid = PrefixRule{MinTokens: 1024, StepTokens: 128}

// A prefix rule reports nothing below its minimum, and rounds a longer
// prefix down to its grid; without a step it reports the prefix whole.
func TestPrefixRuleReportsOnItsGrid(t *testing.T) {
	for _, tt := range []struct {
		rule   PrefixRule
		shared int
		want   int
	}{
		{grid, 0, 0}, {grid, 1023, 0}, {grid, 1024, 1024}, {grid, 1151, 1024}, {grid, 1152, 1152}, {grid, 5000, 4992},
		{PrefixRule{}, 0, 0}, {PrefixRule{}, 17, 17}, {PrefixRule{MinTokens: 10}, 9, 0}, {PrefixRule{MinTokens: 10}, 11, 11},
	} {
		if got := tt.rule.report(tt.shared); got != tt.want {
			t.Errorf("%+v.report(%d) = %d, want %d", tt.rule, tt.shared, got, tt.want)
		}
	}
}

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
		rt.CachedTokens("gpt-4o", key, segments, grid)
	}
	grown := int64(heapInUse()) - int64(before)
	t.Logf("200 cache keys of 256 KiB: heap +%.2f MiB", float64(grown)/(1<<20))
	if grown > 1<<20 {
		t.Errorf("the prompt cache grew the heap by %d bytes, want at most 1 MiB", grown)
	}
	goruntime.KeepAlive(long)

	// Keys still separate the caches, and equal keys share them.
	rt.CachedTokens("gpt-4o", "a", segments, grid)
	if got := rt.CachedTokens("gpt-4o", "a", segments, grid); got != 1152 {
		t.Errorf("the same key cached %d tokens, want 1152", got)
	}
	if got := rt.CachedTokens("gpt-4o", "b", segments, grid); got != 0 {
		t.Errorf("another key cached %d tokens, want 0", got)
	}
	if got := rt.CachedTokens("gpt-4.1", "a", segments, grid); got != 0 {
		t.Errorf("another model cached %d tokens, want 0", got)
	}
}
