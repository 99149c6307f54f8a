package runtime

import (
	"slices"
	"testing"

	"github.com/llmtestserver/llmtestserver/scenario"
)

func replyTexts(rs []scenario.Reply) []string {
	out := make([]string, len(rs))
	for i, r := range rs {
		out[i] = r.Text
	}
	return out
}

func TestClearRepliesDropsWhatIsLeftAndKeepsWhatWasUsed(t *testing.T) {
	rt := newTestRuntime()
	rt.AddReplies("s", scenario.Match{UserContains: "s"},
		scenario.Reply{Text: "a"}, scenario.Reply{Text: "b"}, scenario.Reply{Text: "c"})
	rt.AddReplies("after", scenario.Match{}, scenario.Reply{Text: "fallback"})
	take(rt, "s")
	res, _ := rt.reserveWhole(chatTurn("s"), "")
	rt.reserveWhole(chatTurn("s"), "")
	res.Rollback() // b rolled back behind c: left, on the back list

	if !rt.ClearReplies("s") {
		t.Fatal("ClearReplies did not find the scenario")
	}
	if got := take(rt, "s"); got != "fallback" {
		t.Errorf("after Clear, a request for s got %q, want the next scenario's fallback", got)
	}
	st := rt.Scenarios()
	if st[0].Scenario.Name != "s" || st[0].Remaining != 0 || st[0].Scenario.Match.UserContains != "s" {
		t.Errorf("cleared scenario %+v, want s in its place, with its match and nothing left", st[0])
	}
	if got := replyTexts(st[0].Scenario.Replies); len(got) != 3 {
		t.Errorf("cleared scenario keeps %v, want the three it used (a, b, c)", got)
	}
	// New replies answer after Clear, in the scenario's place.
	rt.AddReplies("s", scenario.Match{}, scenario.Reply{Text: "d"})
	rt.AddReplies("after", scenario.Match{}, scenario.Reply{Text: "more"})
	if got := take(rt, "s"); got != "d" {
		t.Errorf("a reply added after Clear: got %q, want d", got)
	}
	// Reset restores what the settings hold: the used replies and the new
	// one, not what Clear dropped.
	rt.Reset()
	var got []string
	for range 4 {
		got = append(got, take(rt, "s"))
	}
	if want := []string{"a", "b", "c", "d"}; !slices.Equal(got, want) {
		t.Errorf("after Reset: %v, want %v", got, want)
	}
}

func TestClearRepliesOfUntouchedScenarioLeavesItEmpty(t *testing.T) {
	rt := newTestRuntime()
	rt.AddReplies("s", scenario.Match{}, scenario.Reply{Text: "a"})
	rt.UpdateScenario("s", scenario.Match{}, func(s *scenario.Scenario) { s.Repeat = true })
	rt.ClearReplies("s")
	if got := take(rt, "s"); got != "" {
		t.Errorf("a repeating scenario answered %q after Clear", got)
	}
	rt.Reset()
	if got := take(rt, "s"); got != "" {
		t.Errorf("Reset brought back %q, which Clear dropped", got)
	}
	if st := rt.Scenarios(); len(st) != 1 || len(st[0].Scenario.Replies) != 0 || !st[0].Scenario.Repeat {
		t.Errorf("scenarios %+v, want s kept, repeating, without replies", st)
	}
	if rt.Pending() != 0 {
		t.Errorf("Pending = %d, want 0", rt.Pending())
	}
}

func TestClearRepliesPerConversation(t *testing.T) {
	rt := newTestRuntime()
	rt.AddReplies("s", scenario.Match{}, scenario.Reply{Text: "a"}, scenario.Reply{Text: "b"})
	rt.UpdateScenario("s", scenario.Match{}, func(s *scenario.Scenario) { s.PerConversation = true })
	take(rt, "one")
	rt.ClearReplies("s")
	if got := take(rt, "one"); got != "" {
		t.Errorf("the started conversation got %q after Clear", got)
	}
	if got := take(rt, "two"); got != "" {
		t.Errorf("a new conversation got %q after Clear", got)
	}
	rt.AddReplies("s", scenario.Match{}, scenario.Reply{Text: "c"})
	if got := take(rt, "one"); got != "c" {
		t.Errorf("a started conversation after new replies got %q, want c", got)
	}
	rt.mu.Lock()
	positions := rt.positions
	rt.mu.Unlock()
	if positions != 1 {
		t.Errorf("positions = %d, want 1 (the one made after Clear)", positions)
	}
}

// A reply in flight when Clear runs comes back if its request fails.
func TestClearRepliesInFlightRollback(t *testing.T) {
	rt := newTestRuntime()
	rt.AddReplies("s", scenario.Match{}, scenario.Reply{Text: "a"}, scenario.Reply{Text: "b"})
	res, _ := rt.reserveWhole(chatTurn("x"), "")
	rt.ClearReplies("s")
	res.Rollback()
	if got := take(rt, "x"); got != "a" {
		t.Errorf("the rolled-back reply: got %q, want a", got)
	}
	if got := take(rt, "x"); got != "" {
		t.Errorf("after it: got %q, want nothing (b was cleared)", got)
	}
}

func TestClearRepliesUnknownOrRetired(t *testing.T) {
	rt := newTestRuntime()
	if rt.ClearReplies("none") {
		t.Error("ClearReplies found a scenario that does not exist")
	}
	rt.AddReplies("s", scenario.Match{}, scenario.Reply{Text: "a"})
	rt.Retire()
	if rt.ClearReplies("s") || rt.Pending() != 1 {
		t.Error("a retired runtime changed")
	}
}

// ClearAllReplies clears every scenario as ClearReplies clears one, in one
// copy of the settings: its allocations do not grow with the number of
// scenarios, where clearing them one by one copies them all each time.
func TestClearAllRepliesIsOneStep(t *testing.T) {
	rt := newTestRuntime()
	for i := range 1000 {
		name := "s" + string(rune('a'+i%26)) + string(rune('a'+i/26%26)) + string(rune('a'+i/676))
		rt.AddReplies(name, scenario.Match{UserContains: name}, scenario.Reply{Text: "x"}, scenario.Reply{Text: "y"})
	}
	if got := rt.ClearAllReplies(); got != 1000 {
		t.Fatalf("ClearAllReplies cleared %d scenarios, want 1000", got)
	}
	for _, st := range rt.Scenarios() {
		if st.Remaining != 0 {
			t.Fatalf("%s has %d replies left after ClearAllReplies", st.Scenario.Name, st.Remaining)
		}
	}
	// A few allocations (more under -race), never one or more per scenario.
	if allocs := testing.AllocsPerRun(5, func() { rt.ClearAllReplies() }); allocs > 100 {
		t.Errorf("ClearAllReplies of 1000 scenarios allocates %.0f times, want one copy of the settings", allocs)
	}
}
