package journal_test

import (
	"fmt"
	"runtime"
	"sync"
	"testing"
	"unsafe"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/llmtestserver/llmtestserver/journal"
)

// queryJournal records a small session: two conversations over two
// providers, a miss, an embedding and a fault.
func queryJournal() *journal.Journal {
	j := journal.New(100, 1<<20)
	for _, e := range []journal.Entry{
		{Provider: "openai", Endpoint: "chat.completions", Model: "gpt-4.1-mini", Scenario: "plan", Conversation: "alice", Generation: 1, Turn: 1, Status: 200},
		{Provider: "openai", Endpoint: "chat.completions", Model: "gpt-4.1-mini", Scenario: "plan", Conversation: "bob", Generation: 1, Turn: 1, Status: 200},
		{Provider: "openai", Endpoint: "chat.completions", Model: "gpt-4.1-mini", Conversation: "alice", Generation: 1, Turn: 2, Status: 400, ErrorCode: journal.NoScenarioCode},
		{Provider: "anthropic", Endpoint: "messages", Model: "claude-haiku-4-5", Scenario: "weather", Conversation: "bob", Generation: 1, Turn: 2, Status: 200, Fault: "cut"},
		{Provider: "openai", Endpoint: "embeddings", Model: "text-embedding-3-small", Status: 200},
		{Provider: "openai", Endpoint: "chat.completions", Model: "gpt-4.1-mini", Scenario: "plan", Conversation: "alice", Generation: 1, Turn: 2, Status: 200},
		{Provider: "openai", Endpoint: "chat.completions", Model: "gpt-4o", Scenario: "plan", Conversation: "alice", Generation: 2, Turn: 1, Status: 500},
	} {
		j.Record(e)
	}
	return j.Journal
}

func seqs(entries []journal.Entry) []uint64 {
	out := make([]uint64, len(entries))
	for i, e := range entries {
		out[i] = e.Seq
	}
	return out
}

// Each filter keeps the entries whose field matches, oldest first; fields
// left zero match everything, and filters combine.
func TestFindByEachFilter(t *testing.T) {
	j := queryJournal()
	for name, tt := range map[string]struct {
		q    journal.Query
		want []uint64
	}{
		"zero query keeps all":    {journal.Query{}, []uint64{1, 2, 3, 4, 5, 6, 7}},
		"provider":                {journal.Query{Provider: "anthropic"}, []uint64{4}},
		"endpoint":                {journal.Query{Endpoint: "embeddings"}, []uint64{5}},
		"model":                   {journal.Query{Model: "gpt-4o"}, []uint64{7}},
		"scenario":                {journal.Query{Scenario: "plan"}, []uint64{1, 2, 6, 7}},
		"conversation":            {journal.Query{Conversation: "bob"}, []uint64{2, 4}},
		"generation":              {journal.Query{Conversation: "alice", Generation: 2}, []uint64{7}},
		"status":                  {journal.Query{Status: 400}, []uint64{3}},
		"status class":            {journal.Query{StatusClass: 5}, []uint64{7}},
		"2xx":                     {journal.Query{StatusClass: 2, Endpoint: "chat.completions"}, []uint64{1, 2, 6}},
		"error code":              {journal.Query{ErrorCode: journal.NoScenarioCode}, []uint64{3}},
		"fault":                   {journal.Query{Fault: "cut"}, []uint64{4}},
		"combined":                {journal.Query{Scenario: "plan", Conversation: "alice", Status: 200}, []uint64{1, 6}},
		"nothing matches":         {journal.Query{Model: "gpt-5"}, nil},
		"a class out of range":    {journal.Query{StatusClass: 20}, nil},
		"conflicting status pair": {journal.Query{Status: 200, StatusClass: 4}, nil},
	} {
		t.Run(name, func(t *testing.T) {
			got := j.Find(tt.q)
			if tt.want == nil {
				assert.Nil(t, got)
			} else {
				assert.Equal(t, tt.want, seqs(got))
			}
			assert.Equal(t, len(tt.want), j.Count(tt.q))
			for _, e := range j.Entries() {
				assert.Equal(t, contains(tt.want, e.Seq), tt.q.Match(e), "Match(#%d)", e.Seq)
			}
		})
	}
}

func contains(list []uint64, v uint64) bool {
	for _, x := range list {
		if x == v {
			return true
		}
	}
	return false
}

// A conversation's entries come in turn order, generation by generation,
// a turn's requests in the order they arrived, whatever the order they
// were recorded in.
func TestConversationInTurnOrder(t *testing.T) {
	j := journal.New(100, 1<<20)
	for _, e := range []journal.Entry{
		{Conversation: "c", Generation: 1, Turn: 2, UserText: "g1 t2 first"},
		{Conversation: "c", Generation: 1, Turn: 1, UserText: "g1 t1"},
		{Conversation: "other", Generation: 1, Turn: 1},
		{Conversation: "c", Generation: 2, Turn: 1, UserText: "g2 t1"},
		{Conversation: "c", Generation: 1, Turn: 2, UserText: "g1 t2 retry"},
		{UserText: "no conversation"},
	} {
		j.Record(e)
	}
	var got []string
	for _, e := range j.Conversation("c") {
		got = append(got, e.UserText)
	}
	assert.Equal(t, []string{"g1 t1", "g1 t2 first", "g1 t2 retry", "g2 t1"}, got)
	assert.Empty(t, j.Conversation(""), "entries of no conversation")
	assert.Empty(t, j.Conversation("nobody"))
}

// Counts tally the selected entries by field, entries without a value
// under "".
func TestCounts(t *testing.T) {
	j := queryJournal()
	c := j.Counts(journal.Query{})
	assert.Equal(t, 7, c.Total)
	assert.Equal(t, map[string]int{"openai": 6, "anthropic": 1}, c.ByProvider)
	assert.Equal(t, map[string]int{"chat.completions": 5, "messages": 1, "embeddings": 1}, c.ByEndpoint)
	assert.Equal(t, map[string]int{"gpt-4.1-mini": 4, "gpt-4o": 1, "claude-haiku-4-5": 1, "text-embedding-3-small": 1}, c.ByModel)
	assert.Equal(t, map[string]int{"plan": 4, "weather": 1, "": 2}, c.ByScenario)
	assert.Equal(t, map[string]int{"alice": 4, "bob": 2, "": 1}, c.ByConversation)
	assert.Equal(t, map[int]int{200: 5, 400: 1, 500: 1}, c.ByStatus)

	alice := j.Counts(journal.Query{Conversation: "alice"})
	assert.Equal(t, map[string]int{"plan": 3, "": 1}, alice.ByScenario)
	assert.Equal(t, journal.Counts{}, j.Counts(journal.Query{Model: "gpt-5"}))
}

// Queries run while requests are recorded (go test -race): each sees a
// consistent journal, and a query's entries are its own copies.
func TestQueriesWhileRecording(t *testing.T) {
	j := journal.New(64, 1<<20)
	var wg sync.WaitGroup
	for w := range 4 {
		wg.Go(func() {
			for i := range 200 {
				j.Record(journal.Entry{Scenario: fmt.Sprint("s", w), Conversation: fmt.Sprint("c", i%3), Turn: i, Status: 200})
			}
		})
	}
	for range 4 {
		wg.Go(func() {
			for range 200 {
				found := j.Find(journal.Query{Scenario: "s1"})
				for _, e := range found {
					if e.Scenario != "s1" {
						t.Errorf("Find(s1) returned #%d of %q", e.Seq, e.Scenario)
						return
					}
				}
				if c := j.Counts(journal.Query{Conversation: "c0"}); c.Total != c.ByConversation["c0"] {
					t.Errorf("counts %+v disagree with their total", c)
					return
				}
				conv := j.Conversation("c1")
				for i := 1; i < len(conv); i++ {
					if conv[i-1].Turn > conv[i].Turn {
						t.Errorf("conversation out of turn order: %d then %d", conv[i-1].Turn, conv[i].Turn)
						return
					}
				}
				if len(found) > 0 {
					found[0].Scenario = "changed by the caller"
				}
				_ = j.Count(journal.Query{StatusClass: 2})
			}
		})
	}
	wg.Wait()
	require.Equal(t, 64, j.Count(journal.Query{StatusClass: 2}))
	assert.Zero(t, j.Count(journal.Query{Scenario: "changed by the caller"}))
}

// A narrow query on a full journal allocates for its matches only, not a
// copy of every kept entry: keeping 10 of 1000 entries costs less than 64
// entries' worth of bytes (appending 10 grows the slice to 16 slots, about
// 32 in all as the allocator rounds them), where a copy of the ring would
// cost 1000.
func TestFindCopiesMatchesOnly(t *testing.T) {
	j := journal.New(1000, 1<<30)
	for i := range 1000 {
		j.Record(journal.Entry{Scenario: fmt.Sprint("s", i%100)})
	}
	slot := uint64(unsafe.Sizeof(journal.Entry{}))
	const runs = 50
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	for range runs {
		require.Len(t, j.Find(journal.Query{Scenario: "s7"}), 10)
	}
	runtime.ReadMemStats(&after)
	perRun := (after.TotalAlloc - before.TotalAlloc) / runs
	assert.Less(t, perRun, 64*slot, "bytes a query keeping 10 of 1000 entries of %d bytes allocates", slot)
}
