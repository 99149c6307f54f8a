package runtime

import (
	"context"
	"reflect"
	"testing"
	"time"

	"github.com/llmtestserver/llmtestserver/clock"
	"github.com/llmtestserver/llmtestserver/journal"
	"github.com/llmtestserver/llmtestserver/scenario"
)

// cloneHandling says, for every field of Runtime, what Clone does with it.
// A field added to Runtime fails TestCloneHandlesEveryField until it is
// handled in Clone and named here.
var cloneHandling = map[string]string{
	"journal":       "fresh: starts empty, with the same bounds",
	"journalWriter": "fresh: the new journal's own",
	"clock":         "shared",
	"mu":            "fresh",
	"settings":      "deep copy (cloneSettings), with the clone's ID seed",
	"queues":        "deep copy (queue.clone), pointing at the copied scenarios",
	"retired":       "fresh: false (a retired runtime is not cloned)",
	"inflight":      "fresh: empty",
	"lastEnd":       "fresh: zero (a fork has served no request yet; its admission is its first use)",
	"serial":        "fresh: 0, with the new ID sequence",
	"ids":           "fresh: from the clone's ID seed",
	"conversations": "copy",
	"positions":     "copy",
	"history":       "copy (history.clone); records shared, immutable",
	"jobs":          "copy (jobs.clone); jobs shared, immutable",
	"earlier":       "fresh: zero outside a reservation",
	"prefixes":      "copy",
	"rates":         "deep copy (cloneRates)",
	"chaos":         "deep copy (chaosState.clone), generator state included",
	"idempotency":   "copy of the kept answers (idempotency.clone)",
	"faults":        "fresh: empty, like the journal",
}

func TestCloneHandlesEveryField(t *testing.T) {
	typ := reflect.TypeFor[Runtime]()
	fields := make(map[string]bool, typ.NumField())
	for f := range typ.Fields() {
		fields[f.Name] = true
		if _, ok := cloneHandling[f.Name]; !ok {
			t.Errorf("Runtime.%s is not handled by Clone: copy it there (or start it fresh) and name it in cloneHandling", f.Name)
		}
	}
	for name := range cloneHandling {
		if !fields[name] {
			t.Errorf("cloneHandling names Runtime.%s, which no longer exists", name)
		}
	}
}

// chatTurn is a conversational request with one user message.
func chatTurn(text string) *scenario.Request {
	return &scenario.Request{Endpoint: scenario.EndpointChatCompletions, Model: "m",
		Messages: []scenario.Message{{Role: "user", Content: text}}}
}

// take reserves and commits the reply for a request of text, and returns
// its text, or "" when nothing answers.
func take(rt *Runtime, text string) string {
	res, err := rt.reserveWhole(chatTurn(text), "")
	if err != nil {
		return ""
	}
	return res.Reply.Text
}

// stateful returns a runtime with something in every part of its state.
func stateful(t *testing.T, clk clock.Clock) *Runtime {
	t.Helper()
	seed := uint64(7)
	rt := New(Settings{JournalCapacity: 10, JournalMaxBytes: 1 << 20, HistoryCapacity: 10, HistoryMaxBytes: 1 << 20,
		IdempotencyCapacity: 10, IdempotencyMaxBytes: 1 << 20, IDSeed: &seed, Clock: clk,
		Models:     []string{"m"},
		RateLimits: RateLimits{Default: RateLimit{RequestsPerMinute: 10}, Models: map[string]RateLimit{"x": {RequestsPerMinute: 1}}},
		Chaos: Chaos{Seed: 3, Rules: []ChaosRule{{Name: "coin", Probability: 0.5, Models: []string{"coin"},
			Reply: scenario.Reply{Error: &scenario.Error{Status: 500, Headers: map[string]string{"a": "b"}}}}}}})
	rt.AddReplies("global", scenario.Match{UserContains: "global"},
		scenario.Reply{Text: "g1"}, scenario.Reply{Text: "g2"}, scenario.Reply{Text: "g3"})
	rt.AddReplies("perconv", scenario.Match{UserContains: "conv"}, scenario.Reply{Text: "c1"}, scenario.Reply{Text: "c2"})
	rt.UpdateScenario("perconv", scenario.Match{}, func(s *scenario.Scenario) { s.PerConversation = true })
	if got := take(rt, "global"); got != "g1" {
		t.Fatalf("first global reply %q", got)
	}
	res, _ := rt.reserveWhole(chatTurn("global"), "")
	res.Rollback() // g2 back at the head
	res, _ = rt.reserveWhole(chatTurn("global"), "")
	rt.reserveWhole(chatTurn("global"), "") // g3, kept
	res.Rollback()                          // g2 rolled back behind g3: on the back list
	if got := take(rt, "conv"); got != "c1" {
		t.Fatalf("first per-conversation reply %q", got)
	}
	rt.Store(stored("resp_1", "", 10))
	rt.CachedTokens("m", "k", []PromptSegment{{Text: "p", Tokens: 2000}}, grid)
	if _, ok := rt.TakeRate("m", rt.RateLimitFor("m"), 0); !ok {
		t.Fatal("no rate check")
	}
	for range 3 {
		rt.FireChaos(&scenario.Request{Endpoint: scenario.EndpointChatCompletions, Model: "coin"})
	}
	claim, _, _ := rt.ClaimIdempotencyKey("kept", [32]byte{1})
	claim.Keep(&IdempotentAnswer{Status: 200, Body: []byte("{}")})
	claim.Release()
	rt.ClaimIdempotencyKey("in-flight", [32]byte{2}) // never released
	rt.Record(journal.Entry{Fault: "drop"})
	return rt
}

func TestCloneCopiesTheStateThatDecidesAnswers(t *testing.T) {
	clk := clock.NewFake(time.Unix(1000, 0))
	rt := stateful(t, clk)
	seed := uint64(99)
	c, ok := rt.Clone(&seed)
	if !ok {
		t.Fatal("Clone refused a live runtime")
	}
	// The queues: g2 (rolled back) before nothing else, since g3 is still
	// taken by the parent's reservation; the conversation's second reply.
	if got := c.Pending(); got != rt.Pending() {
		t.Errorf("clone has %d pending replies, parent %d", got, rt.Pending())
	}
	if got := take(c, "global"); got != "g2" {
		t.Errorf("clone's next global reply %q, want the rolled-back g2", got)
	}
	if got := take(c, "conv"); got != "c2" {
		t.Errorf("clone's next reply in the started conversation %q, want c2", got)
	}
	if got := take(c, "conv"); got != "" {
		t.Errorf("clone's conversation has %q left, want nothing", got)
	}
	if _, ok := c.Lookup("resp_1"); !ok {
		t.Error("clone lacks the stored record")
	}
	if got := c.historyBytes(); got != rt.historyBytes() {
		t.Errorf("clone's history bytes %d, parent's %d", got, rt.historyBytes())
	}
	if got := c.CachedTokens("m", "k", []PromptSegment{{Text: "p", Tokens: 2000}}, grid); got == 0 {
		t.Error("clone's prompt cache lost the parent's prefix")
	}
	check, _ := c.TakeRate("m", c.RateLimitFor("m"), 0)
	if check.Requests.Remaining != 8 {
		t.Errorf("clone's request bucket holds %d after its first request, want 8 (the parent took one)", check.Requests.Remaining)
	}
	// The chaos generator goes on from the same point in both.
	coin := &scenario.Request{Endpoint: scenario.EndpointChatCompletions, Model: "coin"}
	for i := range 16 {
		if (rt.FireChaos(coin) == nil) != (c.FireChaos(coin) == nil) {
			t.Fatalf("chaos draw %d differs between parent and clone", i)
		}
	}
	if _, a, outcome := c.ClaimIdempotencyKey("kept", [32]byte{1}); outcome != IdempotencyReplay || string(a.Body) != "{}" {
		t.Errorf("clone's kept key: outcome %v, want a replay", outcome)
	}
	if claim, _, outcome := c.ClaimIdempotencyKey("in-flight", [32]byte{2}); outcome != IdempotencyFresh {
		t.Errorf("clone's copy of a key in flight at the parent: outcome %v, want fresh", outcome)
	} else {
		claim.Release()
	}
	// What the clone has been asked starts empty.
	if n := c.Journal().Len(); n != 0 {
		t.Errorf("clone's journal has %d entries, want none", n)
	}
	if f := c.Faults(); f != nil {
		t.Errorf("clone's fault counts %v, want none", f)
	}
	if got := *c.Settings().IDSeed; got != seed {
		t.Errorf("clone's ID seed %d, want %d", got, seed)
	}
	if want := New(Settings{IDSeed: &seed}).NewID("x_", 12); c.NewID("x_", 12) != want {
		t.Error("clone's IDs do not start from its own seed")
	}
	if c.Clock() != rt.Clock() {
		t.Error("clone runs on another clock")
	}
}

func TestCloneAndParentNeverSeeEachOthersChanges(t *testing.T) {
	rt := stateful(t, nil)
	c, _ := rt.Clone(nil)
	before := c.Scenarios()

	// The parent moves on: scripted more, took replies, stored, reset.
	rt.AddReplies("global", scenario.Match{}, scenario.Reply{Text: "g4"})
	rt.AddReplies("new", scenario.Match{}, scenario.Reply{Text: "n"})
	rt.UpdateScenario("global", scenario.Match{}, func(s *scenario.Scenario) { s.Repeat = true })
	take(rt, "global")
	rt.Store(stored("resp_parent", "", 10))
	rt.Forget("resp_1")
	rt.Settings().Scenarios[0].Replies[0].Text = "scribbled" // what no caller may do; the clone holds its own
	if !reflect.DeepEqual(c.Scenarios(), before) {
		t.Errorf("the parent's changes reached the clone:\n%+v\nwant\n%+v", c.Scenarios(), before)
	}
	if _, ok := c.Lookup("resp_parent"); ok {
		t.Error("a record the parent stored after the clone is in the clone")
	}
	if _, ok := c.Lookup("resp_1"); !ok {
		t.Error("a record the parent forgot after the clone is gone from the clone")
	}
	rt.Reset()
	if got := take(c, "global"); got != "g2" {
		t.Errorf("after the parent's reset, the clone's next reply %q, want g2", got)
	}

	// And the clone's changes stay in the clone.
	parent := rt.Scenarios()
	c.AddReplies("global", scenario.Match{}, scenario.Reply{Text: "clone only"})
	c.AddReplies("mine", scenario.Match{}, scenario.Reply{Text: "m"})
	c.Store(stored("resp_clone", "", 10))
	if !reflect.DeepEqual(rt.Scenarios(), parent) {
		t.Errorf("the clone's changes reached the parent:\n%+v\nwant\n%+v", rt.Scenarios(), parent)
	}
	if _, ok := rt.Lookup("resp_clone"); ok {
		t.Error("a record the clone stored is in the parent")
	}
}

// A reply slice with spare capacity, shared by parent and clone, would let
// an append of one overwrite what the other appended.
func TestCloneAppendsDoNotShareReplyArrays(t *testing.T) {
	rt := New(Settings{JournalCapacity: 1, JournalMaxBytes: 1 << 10})
	for i := range 5 {
		rt.AddReplies("s", scenario.Match{}, scenario.Reply{Text: string(rune('a' + i))})
	}
	c, _ := rt.Clone(nil)
	rt.AddReplies("s", scenario.Match{}, scenario.Reply{Text: "parent"})
	c.AddReplies("s", scenario.Match{}, scenario.Reply{Text: "clone"})
	if got := rt.Scenarios()[0].Scenario.Replies[5].Text; got != "parent" {
		t.Errorf("parent's appended reply %q", got)
	}
	if got := c.Scenarios()[0].Scenario.Replies[5].Text; got != "clone" {
		t.Errorf("clone's appended reply %q", got)
	}
}

func TestCloneOfRetiredRuntime(t *testing.T) {
	rt := newTestRuntime()
	rt.Retire()
	if c, ok := rt.Clone(nil); ok || c != nil {
		t.Errorf("Clone of a retired runtime = %v, %v; want nil, false", c, ok)
	}
}

// The parent's requests in flight stay the parent's: retiring the parent
// cancels them and leaves the clone alive.
func TestCloneLeavesInFlightRequestsToTheParent(t *testing.T) {
	rt := newTestRuntime()
	ctx, end, _ := rt.Begin(context.Background(), nil)
	defer end()
	c, _ := rt.Clone(nil)
	rt.Retire()
	if ctx.Err() == nil {
		t.Error("the parent's request survived its retirement")
	}
	if _, end2, ok := c.Begin(context.Background(), nil); !ok {
		t.Error("the clone was retired with its parent")
	} else {
		end2()
	}
}
