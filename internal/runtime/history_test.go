package runtime

import (
	"fmt"
	goruntime "runtime"
	"testing"
	"weak"

	"github.com/llmtestserver/llmtestserver/scenario"
)

func newHistoryRuntime(capacity int, maxBytes int64) *Runtime {
	return New(Settings{JournalCapacity: 10, JournalMaxBytes: 1 << 20, HistoryCapacity: capacity, HistoryMaxBytes: maxBytes})
}

// record is a stored record of n payload bytes that continues previous,
// as a codec keeps one.
type record struct {
	id, previous string
	payload      []byte
	messages     int // what a codec's summary would count
}

func (r *record) StoredID() string   { return r.id }
func (r *record) PreviousID() string { return r.previous }
func (r *record) Size() int64        { return 512 + int64(len(r.id)+len(r.previous)+len(r.payload)) }

func stored(id, previous string, n int) *record {
	return &record{id: id, previous: previous, payload: make([]byte, n)}
}

func keptIDs(rt *Runtime) []string {
	rt.mu.Lock()
	defer rt.mu.Unlock()
	var ids []string
	for _, s := range rt.history.order {
		if rt.history.current(s) {
			ids = append(ids, s.id)
		}
	}
	return ids
}

func TestHistoryEvictsTheOldestUntilBothBoundsHold(t *testing.T) {
	one := stored("r9", "", 10_000).Size() // as large as each stored below
	rt := newHistoryRuntime(100, 3*one+one/2)
	for i := range 5 {
		if !rt.Store(stored(fmt.Sprint("r", i), "", 10_000)) {
			t.Fatalf("response %d of %d bytes not stored", i, one)
		}
	}
	if got, want := fmt.Sprint(keptIDs(rt)), "[r2 r3 r4]"; got != want {
		t.Errorf("kept %s, want %s (max bytes fit three)", got, want)
	}
	if got := rt.historyBytes(); got != 3*one {
		t.Errorf("history bytes = %d, want %d", got, 3*one)
	}
	rt.Configure(Settings{JournalCapacity: 10, JournalMaxBytes: 1 << 20, HistoryCapacity: 2, HistoryMaxBytes: 1 << 30})
	if got, want := fmt.Sprint(keptIDs(rt)), "[r3 r4]"; got != want {
		t.Errorf("after lowering the capacity kept %s, want %s", got, want)
	}
	if !rt.Forget("r4") || rt.historyBytes() != one {
		t.Errorf("after a deletion history bytes = %d, want %d", rt.historyBytes(), one)
	}
}

func TestHistoryDoesNotKeepAResponseLargerThanItsBound(t *testing.T) {
	rt := newHistoryRuntime(10, 64<<10)
	rt.Store(stored("small", "", 10))
	if rt.Store(stored("big", "", 64<<10)) {
		t.Error("a response larger than max bytes was stored")
	}
	if _, ok := rt.Lookup("big"); ok {
		t.Error("the oversized response is retrievable")
	}
	if _, ok := rt.Lookup("small"); !ok {
		t.Error("the oversized response evicted the others")
	}
}

// Chain goes back through kept responses only, and an evicted response is
// garbage once evicted: nothing that is kept points to it.
func TestChainStopsAtEvictedLinksWhichBecomeUnreachable(t *testing.T) {
	rt := newHistoryRuntime(2, 1<<30)
	first := stored("r0", "", 1<<20)
	gone := weak.Make(first)
	rt.Store(first)
	first = nil
	for i := 1; i < 4; i++ {
		r := stored(fmt.Sprint("r", i), fmt.Sprint("r", i-1), 10)
		r.messages = 2 * i
		rt.Store(r)
	}
	chain, ok := rt.Chain("r3")
	if !ok || len(chain) != 2 || chain[0].StoredID() != "r2" || chain[1].StoredID() != "r3" {
		t.Fatalf("Chain(r3) = %v %v, want [r2 r3]", chain, ok)
	}
	if chain[0].(*record).messages != 4 {
		t.Errorf("the oldest kept link is %+v, want the record stored as r2", chain[0])
	}
	goruntime.GC()
	if gone.Value() != nil {
		t.Error("the evicted first response is still reachable")
	}
	if _, ok := rt.Chain("r0"); ok {
		t.Error("Chain of an evicted response succeeded")
	}
}

// A resume segment continues exactly where the segments it stands for had
// brought the prefix, and only after the same head.
func TestPrefixStatesResumeASummary(t *testing.T) {
	segs := []PromptSegment{{Text: "system"}, {Text: "m1"}, {Text: "m2"}, {Text: "m3"}}
	full := PrefixStates(segs)
	resume := PromptSegment{Resume: &PromptResume{After: full[0], State: full[2]}}
	resumed := PrefixStates([]PromptSegment{segs[0], resume, segs[3]})
	if resumed[1] != full[2] || resumed[2] != full[3] {
		t.Errorf("resumed states %v, want %v then %v", resumed, full[2], full[3])
	}
	other := PrefixStates([]PromptSegment{{Text: "other system"}, resume, segs[3]})
	if other[1] == full[2] || other[2] == full[3] {
		t.Error("a resume after another head shares the prefix")
	}
}

// Turns and messages a summary counts are the request's own for its turn
// and generation.
func TestReserveAfterCountsEarlierTurns(t *testing.T) {
	rt := newTestRuntime()
	rt.AddReplies("s", scenario.Match{}, scenario.Reply{Text: "a"}, scenario.Reply{Text: "b"})
	full := &scenario.Request{Endpoint: scenario.EndpointResponses, Conversation: "conv_x",
		Messages: []scenario.Message{{Role: "user"}, {Role: "assistant"}, {Role: "user"}}}
	if _, err := rt.reserveWhole(full, ""); err != nil || full.Turn != 2 || full.Generation != 1 {
		t.Fatalf("full request: %v turn %d generation %d", err, full.Turn, full.Generation)
	}
	rest := &scenario.Request{Endpoint: scenario.EndpointResponses, Conversation: "conv_x",
		Messages: []scenario.Message{{Role: "user"}, {Role: "assistant"}, {Role: "user"}}}
	if _, err := rt.ReserveAfter(rest, "", Earlier{Messages: 2, UserTurns: 1}); err != nil {
		t.Fatal(err)
	}
	if rest.Turn != 3 || rest.Generation != 1 {
		t.Errorf("continued request: turn %d generation %d, want turn 3 generation 1", rest.Turn, rest.Generation)
	}
}
