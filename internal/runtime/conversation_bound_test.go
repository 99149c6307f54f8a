package runtime

import (
	"fmt"
	goruntime "runtime"
	"strings"
	"testing"

	"github.com/llmtestserver/llmtestserver/scenario"
)

// heapInUse returns the live heap after a collection.
func heapInUse() uint64 {
	goruntime.GC()
	var ms goruntime.MemStats
	goruntime.ReadMemStats(&ms)
	return ms.HeapAlloc
}

// Per-conversation queue positions are capped with the conversation
// identities: about 50,000 declared conversations with long names (three
// times the cap, less one, so that the runtime is at its fullest) keep at
// most MaxConversations positions, and their heap stays within what the
// reservation charges for positions (session.perConversationBytes, 3 MiB)
// and the fixed retention that holds the identities (2.5 MiB).
func TestPerConversationQueuesAreCappedWithTheIdentities(t *testing.T) {
	if testing.Short() {
		t.Skip("measures the heap")
	}
	const conversations = 3*MaxConversations - 1
	replies := []scenario.Reply{scenario.Text("first"), scenario.Text("second"), scenario.Text("third")}
	rt := New(Settings{JournalCapacity: 10, JournalMaxBytes: 1 << 20, Scenarios: []scenario.Scenario{
		{Name: "per-conversation", Replies: replies, PerConversation: true},
	}})
	req := &scenario.Request{Endpoint: scenario.EndpointChatCompletions,
		Messages: []scenario.Message{{Role: "user", Content: "hi"}}}
	names := make([]string, conversations)
	for i := range names {
		names[i] = fmt.Sprintf("%s-%d", strings.Repeat("c", 200), i)
	}
	before := heapInUse()
	for _, name := range names {
		r := *req
		if _, err := rt.reserveWhole(&r, name); err != nil {
			t.Fatal(err)
		}
	}
	after := heapInUse()
	goruntime.KeepAlive(names)
	rt.mu.Lock()
	positions, identities := len(rt.queues[0].byConv), len(rt.conversations)
	rt.mu.Unlock()
	grown := int64(after) - int64(before)
	t.Logf("%d conversations: %d positions, %d identities, heap +%.1f MiB", conversations, positions, identities, float64(grown)/(1<<20))
	if positions > MaxConversations || identities > MaxConversations {
		t.Errorf("%d positions and %d identities kept, want at most %d each", positions, identities, MaxConversations)
	}
	if limit := int64(3<<20 + 5<<19); grown > limit {
		t.Errorf("conversations grew the heap by %d bytes, want at most %d", grown, limit)
	}
	goruntime.KeepAlive(rt)
}

// When identities start over, so do per-conversation queues: a
// conversation forgotten with the others gets its queue from the start.
func TestPerConversationQueuesStartOverWithTheIdentities(t *testing.T) {
	rt := New(Settings{JournalCapacity: 10, JournalMaxBytes: 1 << 20, Scenarios: []scenario.Scenario{
		{Name: "per-conversation", Replies: []scenario.Reply{scenario.Text("first"), scenario.Text("second")}, PerConversation: true},
	}})
	reserve := func(conv string) string {
		t.Helper()
		req := &scenario.Request{Endpoint: scenario.EndpointChatCompletions, Messages: []scenario.Message{{Role: "user", Content: "hi"}}}
		res, err := rt.reserveWhole(req, conv)
		if err != nil {
			t.Fatal(err)
		}
		return res.Reply.Text
	}
	if got := reserve("kept"); got != "first" {
		t.Fatalf("first reply = %q", got)
	}
	for i := range MaxConversations {
		reserve(fmt.Sprint("other-", i))
	}
	rt.mu.Lock()
	_, remembered := rt.conversations[identityKeyOf("kept")]
	rt.mu.Unlock()
	if got := reserve("kept"); remembered || got != "first" {
		t.Errorf("after the identities started over (remembered %v), the conversation got %q, want its queue from the start", remembered, got)
	}
}
