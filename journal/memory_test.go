package journal_test

import (
	"runtime"
	"strings"
	"testing"

	"github.com/llmtestserver/llmtestserver/journal"
)

// heapAlloc returns the bytes of live heap objects, after collecting.
func heapAlloc() int64 {
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return int64(ms.HeapAlloc)
}

// huge returns a fresh string of n bytes, as decoding a request would.
func huge(n int, c byte) string { return strings.Repeat(string(c), n) }

// A journal keeps its own short copies of whatever its entries held: 200
// entries recorded from 1 MiB strings keep about max_bytes, not the 200 MiB
// or more they were recorded from.
func TestJournalKeepsItsByteBoundWhateverTheEntriesHold(t *testing.T) {
	if testing.Short() {
		t.Skip("measures the heap")
	}
	const maxBytes = 1 << 20
	for name, entry := range map[string]func(big string) journal.Entry{
		"prompt and reply": func(big string) journal.Entry {
			return journal.Entry{Method: "POST", Path: "/v1/chat/completions", Model: "gpt-4o", UserText: big, ReplyText: big}
		},
		"every field": func(big string) journal.Entry {
			return journal.Entry{Method: big, Path: big, Model: big, UserText: big, ReplyText: big,
				Scenario: big, ErrorCode: big, Conversation: big, PromptCacheKey: big,
				ToolResults:  []journal.ToolResult{{CallID: big, Name: big, Content: big}},
				ToolCalls:    []journal.ToolCall{{ID: big, Name: big, Arguments: big}},
				SchemaErrors: []string{big}, Contradictions: []string{big}}
		},
	} {
		t.Run(name, func(t *testing.T) {
			before := heapAlloc()
			j := journal.New(1000, maxBytes)
			for i := range 200 {
				j.Record(entry(huge(1<<20, 'a'+byte(i%26))))
			}
			grown := heapAlloc() - before
			t.Logf("200 entries from 1 MiB strings grew the heap by %.2f MiB (max_bytes %d MiB), %d kept",
				float64(grown)/(1<<20), maxBytes>>20, j.Len())
			if grown > 2*maxBytes {
				t.Errorf("the journal grew the heap by %d bytes, want at most twice its max_bytes of %d", grown, maxBytes)
			}
			if j.Len() < 10 {
				t.Errorf("the journal kept %d entries, want the newest that fit", j.Len())
			}
			runtime.KeepAlive(j)
		})
	}
}

func TestEveryFieldIsClipped(t *testing.T) {
	j := journal.New(10, 1<<30)
	big := huge(100_000, 'x')
	results := make([]journal.ToolResult, 1000)
	for i := range results {
		results[i] = journal.ToolResult{CallID: big, Content: big}
	}
	j.Record(journal.Entry{Path: big, Model: big, PromptCacheKey: big, ToolResults: results,
		ToolCalls: []journal.ToolCall{{ID: big, Arguments: big}}, SchemaErrors: []string{big}, Contradictions: []string{big}})
	e, _ := j.Last()
	for name, s := range map[string]string{"Path": e.Path, "Model": e.Model, "PromptCacheKey": e.PromptCacheKey,
		"ToolResults[0].CallID": e.ToolResults[0].CallID, "ToolCalls[0].ID": e.ToolCalls[0].ID} {
		if len(s) > 512 {
			t.Errorf("%s keeps %d bytes, want at most 512", name, len(s))
		}
	}
	for name, s := range map[string]string{"ToolResults[0].Content": e.ToolResults[0].Content,
		"ToolCalls[0].Arguments": e.ToolCalls[0].Arguments, "SchemaErrors[0]": e.SchemaErrors[0],
		"Contradictions[0]": e.Contradictions[0]} {
		if len(s) > 8<<10 {
			t.Errorf("%s keeps %d bytes, want at most 8 KiB", name, len(s))
		}
	}
	if len(e.ToolResults) != 128 {
		t.Errorf("kept %d tool results, want the first 128", len(e.ToolResults))
	}
	results[0].Content = "changed"
	if e, _ := j.Last(); e.ToolResults[0].Content == "changed" {
		t.Error("the journal shares the recorded entry's slice")
	}
}
