package runtime

import (
	"fmt"
	goruntime "runtime"
	"strings"
	"testing"
	"weak"

	"github.com/llmtestserver/llmtestserver/internal/openai"
	"github.com/llmtestserver/llmtestserver/scenario"
)

func newHistoryRuntime(capacity int, maxBytes int64) *Runtime {
	return New(Settings{JournalCapacity: 10, JournalMaxBytes: 1 << 20, HistoryCapacity: capacity, HistoryMaxBytes: maxBytes})
}

// stored is a response to an input of n bytes that continues previous.
func stored(id, previous string, n int) *StoredResponse {
	input := []openai.Item{{Type: "message", ID: "msg_" + id, Role: "user",
		Content: []openai.ItemPart{{Type: "input_text", Text: strings.Repeat("x", n)}}}}
	answer := (&openai.ResponseAnswer{ID: id, Model: "m", MessageID: "msg_out_" + id, Text: "ok"}).Detach()
	return &StoredResponse{ID: id, Previous: previous, Input: input, Answer: answer}
}

func keptIDs(rt *Runtime) []string {
	rt.mu.Lock()
	defer rt.mu.Unlock()
	var ids []string
	for _, id := range rt.history.order {
		if rt.history.byID[id] != nil {
			ids = append(ids, id)
		}
	}
	return ids
}

func TestHistoryEvictsTheOldestUntilBothBoundsHold(t *testing.T) {
	one := stored("r9", "", 10_000).Size() // as large as each stored below
	rt := newHistoryRuntime(100, 3*one+one/2)
	for i := range 5 {
		if !rt.StoreResponse(stored(fmt.Sprint("r", i), "", 10_000)) {
			t.Fatalf("response %d of %d bytes not stored", i, one)
		}
	}
	if got, want := fmt.Sprint(keptIDs(rt)), "[r2 r3 r4]"; got != want {
		t.Errorf("kept %s, want %s (max bytes fit three)", got, want)
	}
	if got := rt.HistoryBytes(); got != 3*one {
		t.Errorf("history bytes = %d, want %d", got, 3*one)
	}
	rt.Configure(Settings{JournalCapacity: 10, JournalMaxBytes: 1 << 20, HistoryCapacity: 2, HistoryMaxBytes: 1 << 30})
	if got, want := fmt.Sprint(keptIDs(rt)), "[r3 r4]"; got != want {
		t.Errorf("after lowering the capacity kept %s, want %s", got, want)
	}
	if !rt.DeleteResponse("r4") || rt.HistoryBytes() != one {
		t.Errorf("after a deletion history bytes = %d, want %d", rt.HistoryBytes(), one)
	}
}

func TestHistoryDoesNotKeepAResponseLargerThanItsBound(t *testing.T) {
	rt := newHistoryRuntime(10, 64<<10)
	rt.StoreResponse(stored("small", "", 10))
	if rt.StoreResponse(stored("big", "", 64<<10)) {
		t.Error("a response larger than max bytes was stored")
	}
	if _, ok := rt.Response("big"); ok {
		t.Error("the oversized response is retrievable")
	}
	if _, ok := rt.Response("small"); !ok {
		t.Error("the oversized response evicted the others")
	}
}

func TestStoredResponseSizeCountsItsTexts(t *testing.T) {
	small, big := stored("a", "", 0), stored("a", "", 1<<20)
	if d := big.Size() - small.Size(); d != 1<<20 {
		t.Errorf("a 1 MiB input adds %d bytes to the size", d)
	}
	r := stored("a", "", 0)
	r.Answer = (&openai.ResponseAnswer{ID: "a", Text: strings.Repeat("y", 1<<20),
		Request: &openai.ResponsesRequest{Instructions: strings.Repeat("z", 1<<20)}, Instructions: strings.Repeat("z", 1<<20)}).Detach()
	if r.Size() < 3<<20 {
		t.Errorf("an answer of 1 MiB text and 1 MiB instructions (echoed) is sized %d", r.Size())
	}
	r.Before.SetSystem(strings.Repeat("s", 1<<20))
	if len(r.Before.System) != maxSummarySystem {
		t.Errorf("summary system text is %d bytes, want it clipped to %d", len(r.Before.System), maxSummarySystem)
	}
}

// Chain goes back through kept responses only, and an evicted response is
// garbage once evicted: nothing that is kept points to it.
func TestChainStopsAtEvictedLinksWhichBecomeUnreachable(t *testing.T) {
	rt := newHistoryRuntime(2, 1<<30)
	first := stored("r0", "", 1<<20)
	gone := weak.Make(first)
	rt.StoreResponse(first)
	first = nil
	for i := 1; i < 4; i++ {
		r := stored(fmt.Sprint("r", i), fmt.Sprint("r", i-1), 10)
		r.Before = Summary{Messages: 2 * i, UserTurns: i}
		rt.StoreResponse(r)
	}
	chain, ok := rt.Chain("r3")
	if !ok || len(chain) != 2 || chain[0].ID != "r2" || chain[1].ID != "r3" {
		t.Fatalf("Chain(r3) = %v %v, want [r2 r3]", chain, ok)
	}
	if chain[0].Before.Messages != 4 || chain[0].Before.UserTurns != 2 {
		t.Errorf("the oldest kept link summarizes %+v, want 4 messages and 2 turns before it", chain[0].Before)
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
	if _, err := rt.Reserve(full, ""); err != nil || full.Turn != 2 || full.Generation != 1 {
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
