package runtime

import (
	"fmt"
	"testing"
	"time"

	"github.com/llmtestserver/llmtestserver/clock"
)

func segmentsOf(n, tokens int) []PromptSegment {
	segs := make([]PromptSegment, n)
	for i := range segs {
		segs[i] = PromptSegment{Text: fmt.Sprint("block ", i), Tokens: tokens}
	}
	return segs
}

func TestCacheAtBreakpoints(t *testing.T) {
	rt := newTestRuntime()
	fake := clock.NewFake(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))
	rt.clock = fake
	rule := BreakpointRule{MinTokens: 1024, Lookback: 20}
	five := 5 * time.Minute
	ask := func(segs []PromptSegment, bps ...Breakpoint) [3]int {
		r, w, w1h := rt.CacheAtBreakpoints("claude-x", segs, bps, rule)
		return [3]int{r, w, w1h}
	}
	turn1 := segmentsOf(4, 400) // 1,600 tokens; the breakpoint on the last block
	if got := ask(turn1, Breakpoint{3, five}); got != [3]int{0, 1600, 0} {
		t.Errorf("first request: read, write, 1h = %v, want a write of the whole prefix", got)
	}
	if got := ask(turn1, Breakpoint{3, five}); got != [3]int{1600, 0, 0} {
		t.Errorf("same prefix again: %v, want it read whole", got)
	}
	turn2 := append(segmentsOf(4, 400), PromptSegment{Text: "answer", Tokens: 100}, PromptSegment{Text: "next", Tokens: 100})
	if got := ask(turn2, Breakpoint{5, five}); got != [3]int{1600, 200, 0} {
		t.Errorf("extended prefix, breakpoint moved on: %v, want the old part read and the new part written", got)
	}
	if got := ask(segmentsOf(2, 400), Breakpoint{1, five}); got != [3]int{0, 0, 0} {
		t.Errorf("800 tokens, below the 1,024 minimum: %v, want nothing cached", got)
	}
	other := segmentsOf(4, 400)
	other[0].Text = "changed"
	if got := ask(other, Breakpoint{3, five}); got[0] != 0 {
		t.Errorf("a change early in the prefix: read %d, want a miss", got[0])
	}
	if r, _, _ := rt.CacheAtBreakpoints("claude-y", turn1, []Breakpoint{{3, five}}, rule); r != 0 {
		t.Errorf("another model read %d tokens of this one's cache", r)
	}

	// A hit refreshes the five-minute TTL; past it, the prefix is gone.
	fake.Advance(4 * time.Minute)
	if got := ask(turn1, Breakpoint{3, five}); got[0] != 1600 {
		t.Errorf("after 4 minutes: %v, want a hit", got)
	}
	fake.Advance(4 * time.Minute)
	if got := ask(turn1, Breakpoint{3, five}); got[0] != 1600 {
		t.Errorf("4 minutes after a refreshing hit: %v, want a hit", got)
	}
	fake.Advance(6 * time.Minute)
	if got := ask(turn1, Breakpoint{3, five}); got != [3]int{0, 1600, 0} {
		t.Errorf("6 minutes after the last hit: %v, want a miss and a new write", got)
	}

	// One-hour breakpoints outlive five-minute ones and are counted apart.
	long := segmentsOf(8, 300)
	for i := range long {
		long[i].Text = fmt.Sprint("long ", i)
	}
	if got := ask(long, Breakpoint{3, time.Hour}, Breakpoint{7, five}); got != [3]int{0, 2400, 1200} {
		t.Errorf("1h then 5m breakpoints: %v, want 2,400 written, 1,200 of them for an hour", got)
	}
	fake.Advance(30 * time.Minute)
	if got := ask(long, Breakpoint{3, time.Hour}, Breakpoint{7, five}); got != [3]int{1200, 1200, 0} {
		t.Errorf("30 minutes on: %v, want the 1h prefix read and the rest written again", got)
	}

	// Reset forgets the cache; a retired runtime has none.
	rt.Reset()
	if got := ask(turn1, Breakpoint{3, five}); got[0] != 0 {
		t.Errorf("after Reset: %v, want a miss", got)
	}
	rt.Retire()
	if got := ask(turn1, Breakpoint{3, five}); got != [3]int{} {
		t.Errorf("retired: %v, want nothing", got)
	}
}

// A lookup reaches back Lookback segments from a breakpoint, no further.
func TestCacheAtBreakpointsLookback(t *testing.T) {
	rt := newTestRuntime()
	rule := BreakpointRule{MinTokens: 100, Lookback: 20}
	segs := segmentsOf(40, 10)
	rt.CacheAtBreakpoints("m", segs, []Breakpoint{{14, time.Hour}}, rule)
	if r, _, _ := rt.CacheAtBreakpoints("m", segs, []Breakpoint{{33, time.Hour}}, rule); r != 150 {
		t.Errorf("breakpoint 19 blocks after the cached one: read %d, want 150", r)
	}
	rt.Reset()
	rt.CacheAtBreakpoints("m", segs, []Breakpoint{{14, time.Hour}}, rule)
	if r, _, _ := rt.CacheAtBreakpoints("m", segs, []Breakpoint{{34, time.Hour}}, rule); r != 0 {
		t.Errorf("breakpoint 20 blocks after the cached one: read %d, want a miss", r)
	}
}
