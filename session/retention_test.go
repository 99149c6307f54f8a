package session

import (
	"fmt"
	"runtime"
	"strings"
	"testing"
	"time"

	rt "github.com/llmtestserver/llmtestserver/internal/runtime"
	"github.com/llmtestserver/llmtestserver/scenario"
)

// The fixed retention of the reservation is an honest upper bound of the
// state every session may keep whatever its configuration: the conversation
// identities (up to runtime.MaxConversations, with names as long as they
// are kept whole) and the prompt caches (OpenAI's prefixes and Anthropic's
// breakpoints, up to 16,384 each), all at their caps.
func TestFixedRetentionBoundsTheStateAtItsCaps(t *testing.T) {
	if testing.Short() {
		t.Skip("measures the heap")
	}
	m, err := NewManager(ManagerConfig{})
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	s, err := m.Create()
	if err != nil {
		t.Fatal(err)
	}
	names := make([]string, rt.MaxConversations)
	for i := range names {
		names[i] = fmt.Sprintf("%s-%05d", strings.Repeat("c", 58), i) // 64 bytes: kept whole
	}
	req := scenario.Request{Endpoint: scenario.EndpointChatCompletions,
		Messages: []scenario.Message{{Role: "user", Content: "hi"}}}
	segments := make([][]rt.PromptSegment, 1<<13)
	for i := range segments {
		segments[i] = []rt.PromptSegment{{Text: fmt.Sprint("system ", i), Tokens: 1}, {Text: "user", Tokens: 1}}
	}
	before := liveHeap()
	for _, name := range names {
		r := req
		s.rt.ReserveAfter(&r, name, rt.Earlier{}) // no scenario answers; the identity is kept all the same
	}
	for _, seg := range segments {
		s.rt.CachedTokens("gpt-4o", "key", seg, rt.PrefixRule{MinTokens: 1024, StepTokens: 128})
		s.rt.CacheAtBreakpoints("claude-sonnet-5-5", seg, []rt.Breakpoint{{Segment: 0, TTL: time.Hour}, {Segment: 1, TTL: time.Hour}},
			rt.BreakpointRule{MinTokens: 1, Lookback: 20})
	}
	grown := liveHeap() - before
	runtime.KeepAlive(names) // what the requests brought is theirs, not the session's
	runtime.KeepAlive(segments)
	runtime.KeepAlive(s)
	t.Logf("identities and prompt caches at their caps: heap +%.2f MiB, fixed retention %.2f MiB",
		float64(grown)/(1<<20), float64(fixedRetentionBytes)/(1<<20))
	if grown > fixedRetentionBytes {
		t.Errorf("state at its caps grew the heap by %d bytes, over the fixed retention of %d", grown, fixedRetentionBytes)
	}
}

func liveHeap() int64 {
	runtime.GC()
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return int64(ms.HeapAlloc)
}
