package journal

import (
	"fmt"
	"runtime"
	"strings"
	"testing"
)

// liveHeap returns the bytes of live heap objects, after collecting.
func liveHeap() int64 {
	runtime.GC()
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return int64(ms.HeapAlloc)
}

// fresh returns a new string of n bytes, different for each i, as decoding
// a request makes one.
func fresh(i, n int) string {
	prefix := fmt.Sprint(i, ":")
	return prefix + strings.Repeat("x", max(n-len(prefix), 0))
}

// manyMap returns a map of n entries with keys and values of about k and v
// bytes.
func manyMap(i, n, k, v int) map[string]string {
	m := make(map[string]string, n)
	for j := range n {
		m[fresh(i*1000+j, k)] = fresh(j, v)
	}
	return m
}

// entryCases are entries that each load other fields, the request's side
// and the answer's, up to and past their bounds; i makes each entry's
// strings its own.
var entryCases = map[string]func(i int) Entry{
	"answer texts": func(i int) Entry {
		return Entry{ReplyText: fresh(i, 10_000), Refusal: fresh(i, 10_000), ErrorMessage: fresh(i, 10_000),
			ResponseID: fresh(i, 40), ScriptedAt: fresh(i, 60), Endpoint: "chat.completions", Provider: "openai",
			ErrorCode: "llm_test_server_no_scenario", Chunks: 40, JSON: true}
	},
	"raw body": func(i int) Entry {
		return Entry{Body: fresh(i, 200_000), BodyBytes: 200_000}
	},
	"many headers": func(i int) Entry {
		return Entry{Headers: manyMap(i, 200, 24, 60),
			Client: Client{UserAgent: fresh(i, 40), Stainless: manyMap(i, 8, 12, 16), RetryCount: 1}}
	},
	"long system prompt": func(i int) Entry {
		return Entry{Request: Request{System: fresh(i, 20_000), ResponseFormat: "json_schema:weather", ToolChoice: "auto"}}
	},
	"many messages and tool calls": func(i int) Entry {
		msgs := make([]Message, 200)
		for j := range msgs {
			msgs[j] = Message{Role: "assistant", Text: fresh(i+j, 300),
				ToolCalls: []ToolCall{{ID: fresh(j, 30), Name: "get_weather", Arguments: fresh(j, 120)}}}
		}
		tools := make([]string, 40)
		for j := range tools {
			tools[j] = fresh(j, 20)
		}
		return Entry{Request: Request{Messages: msgs, Tools: tools, Metadata: manyMap(i, 16, 10, 30)}}
	},
	"tried scenarios": func(i int) Entry {
		tried := make([]Tried, 50)
		for j := range tried {
			tried[j] = Tried{Scenario: fresh(j, 20), Why: fresh(i+j, 200)}
		}
		return Entry{Tried: tried}
	},
}

// The journal's count of an entry's bytes (size) follows what the entry
// really keeps on the heap, field by field, so that its byte bound holds
// whatever the requests carry: recorded without eviction, entries grow the
// live heap by their count, within a tenth (and a little fixed slack).
func TestEntrySizeCountsWhatTheEntryKeeps(t *testing.T) {
	if testing.Short() {
		t.Skip("measures the heap")
	}
	const n = 200
	for name, entry := range entryCases {
		t.Run(name, func(t *testing.T) {
			j := New(n, 1<<40)
			before := liveHeap()
			for i := range n {
				j.Record(entry(i))
			}
			grown := liveHeap() - before
			j.mu.Lock()
			counted := j.bytes
			j.mu.Unlock()
			t.Logf("%d entries: the heap grew by %d bytes, counted %d (%.2f)", n, grown, counted, float64(grown)/float64(counted))
			if slack := int64(64 << 10); grown > counted+counted/10+slack {
				t.Errorf("the heap grew by %d bytes, counted %d: the count misses what entries keep", grown, counted)
			}
			if grown < counted-counted/4 {
				t.Errorf("the heap grew by %d bytes, counted %d: the count is far above what entries keep", grown, counted)
			}
			runtime.KeepAlive(j)
		})
	}
}
