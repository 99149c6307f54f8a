package runtime

import (
	"fmt"
	"reflect"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/llmtestserver/llmtestserver/journal"
	"github.com/llmtestserver/llmtestserver/scenario"
)

// runtimeState is everything a request can change in a runtime.
type runtimeState struct {
	Pending       int
	Scenarios     []string // name, replies, remaining and remaining by conversation
	Conversations int
	Positions     int
	Serial        uint64
	Prefixes      int
	Stored        int
	Journal       int
	Evicted       uint64
}

// snapshot reads rt's state; stored counts which of ids the history keeps.
func snapshot(rt *Runtime, ids []string) runtimeState {
	st := runtimeState{Pending: rt.Pending(), Journal: rt.Journal().Len(), Evicted: rt.Journal().Evicted()}
	for _, s := range rt.Scenarios() {
		st.Scenarios = append(st.Scenarios, fmt.Sprint(s.Scenario.Name, len(s.Scenario.Replies), s.Remaining, s.RemainingByConversation))
	}
	for _, id := range ids {
		if _, ok := rt.Lookup(id); ok {
			st.Stored++
		}
	}
	rt.mu.Lock()
	defer rt.mu.Unlock()
	st.Conversations, st.Positions, st.Serial, st.Prefixes = len(rt.conversations), rt.positions, rt.serial, len(rt.prefixes)
	return st
}

// Nothing changes a retired runtime: with 8 goroutines reserving, rolling
// back, caching, storing, journaling and scripting while another retires it,
// the state read right after Retire returns is the state for good.
func TestRetiredRuntimeNeverChanges(t *testing.T) {
	const rounds, workers = 200, 8
	replies := make([]scenario.Reply, 64)
	for i := range replies {
		replies[i] = scenario.Text(fmt.Sprint("reply ", i))
	}
	storedIDs := make([]string, workers*64)
	for i := range storedIDs {
		storedIDs[i] = fmt.Sprint("resp_", i)
	}
	var messages [4][]scenario.Message
	var convs, segments, names = make([][4]string, workers), make([][4][]PromptSegment, workers), make([]string, workers)
	for i := range messages {
		messages[i] = []scenario.Message{{Role: "user", Content: fmt.Sprint("hi ", i)}}
	}
	for w := range workers {
		names[w] = fmt.Sprint("new-", w)
		for i := range 4 {
			convs[w][i] = fmt.Sprintf("conv-%d-%d", w, i)
			segments[w][i] = []PromptSegment{{Text: fmt.Sprint("prompt ", w, i), Tokens: 2000}}
		}
	}
	for round := range rounds {
		rt := New(Settings{JournalCapacity: 1000, JournalMaxBytes: 1 << 20, HistoryCapacity: 1000, Scenarios: []scenario.Scenario{
			{Name: "global", Replies: replies},
			{Name: "per-conversation", Replies: replies, PerConversation: true},
		}})
		var retired atomic.Bool
		var started, wg sync.WaitGroup
		started.Add(workers)
		for w := range workers {
			wg.Add(1)
			go func() {
				defer wg.Done()
				started.Done()
				// Keep going a while after the retirement is seen, so
				// that writes racing with it and after it both happen.
				for i, after := 0, 0; after < 2; i++ {
					if retired.Load() {
						after++
					}
					req := &scenario.Request{Endpoint: scenario.EndpointChatCompletions, Messages: messages[i%4]}
					res, _ := rt.reserveWhole(req, convs[w][i%4])
					if res != nil && i%2 == 0 {
						res.Rollback()
					}
					rt.CachedTokens("m", "", segments[w][i%4], grid)
					rt.Store(stored(storedIDs[(w*64+i)%len(storedIDs)], "", 0))
					rt.Record(journal.Entry{Path: "/v1/chat/completions", Status: 200})
					rt.NextSerial()
					rt.NewID("call_", 8)
					if i%8 == 0 {
						rt.AddReplies("global", scenario.Match{}, scenario.Text("more"))
						rt.AddReplies(names[w], scenario.Match{}, scenario.Text("new"))
					}
				}
			}()
		}
		started.Wait()
		rt.Retire()
		retired.Store(true)
		want := snapshot(rt, storedIDs)
		wg.Wait()
		if got := snapshot(rt, storedIDs); !reflect.DeepEqual(got, want) {
			t.Fatalf("round %d: a retired runtime changed:\nright after Retire %+v\nlater              %+v", round, want, got)
		}
	}
}
