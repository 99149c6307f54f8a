package journal_test

import (
	"encoding/json"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"
	"unsafe"

	"github.com/llmtestserver/llmtestserver/journal"
)

func TestCapacityEvictsOldest(t *testing.T) {
	j := journal.New(2, 1<<20)
	for _, text := range []string{"a", "b", "c"} {
		j.Record(journal.Entry{UserText: text})
	}
	got := j.Entries()
	if len(got) != 2 || got[0].UserText != "b" || got[1].UserText != "c" || got[1].Seq != 3 {
		t.Fatalf("entries = %+v, want b (#2) and c (#3)", got)
	}
	if j.Evicted() != 1 {
		t.Errorf("Evicted() = %d, want 1", j.Evicted())
	}
}

func TestByteBoundEvictsOldest(t *testing.T) {
	// An entry costs its slot and its text (300 bytes, 337 as the heap
	// rounds them); the bound fits three and a half of them.
	slot := int64(unsafe.Sizeof(journal.Entry{}))
	j := journal.New(100, 7*(slot+337)/2)
	for range 10 {
		j.Record(journal.Entry{ReplyText: strings.Repeat("x", 300)})
	}
	if n := j.Len(); n != 3 {
		t.Fatalf("Len() = %d, want 3 entries of %d bytes (a slot and the text) within %d", n, slot+337, 7*(slot+337)/2)
	}
	if last, _ := j.Last(); last.Seq != 10 {
		t.Errorf("last Seq = %d, want 10", last.Seq)
	}
}

func TestLongTextsAreClipped(t *testing.T) {
	j := journal.New(10, 1<<20)
	long := strings.Repeat("é", 10_000) // 20,000 bytes
	j.Record(journal.Entry{UserText: long})
	e, _ := j.Last()
	if len(e.UserText) > 8<<10 || !strings.HasPrefix(long, e.UserText) {
		t.Errorf("clipped text has %d bytes, want at most 8 KiB of the original", len(e.UserText))
	}
	if !json.Valid([]byte(`"`+e.UserText+`"`)) || strings.ContainsRune(e.UserText, '\uFFFD') {
		t.Error("clipping split a UTF-8 sequence")
	}
}

func TestResetAndResize(t *testing.T) {
	j := journal.New(10, 1<<20)
	for range 5 {
		j.Record(journal.Entry{})
	}
	j.Resize(2, 1<<20)
	if j.Len() != 2 || j.Evicted() != 3 {
		t.Errorf("after Resize(2): Len %d Evicted %d, want 2 and 3", j.Len(), j.Evicted())
	}
	j.Reset()
	j.Record(journal.Entry{})
	if e, _ := j.Last(); j.Len() != 1 || e.Seq != 1 || j.Evicted() != 0 {
		t.Errorf("after Reset: Len %d Seq %d Evicted %d, want 1, 1, 0", j.Len(), e.Seq, j.Evicted())
	}
	if _, ok := journal.New(1, 1).Last(); ok {
		t.Error("Last() on an empty journal reported an entry")
	}
}

func TestEntryJSONRoundTrip(t *testing.T) {
	in := journal.Entry{Seq: 7, Time: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC), Duration: 1500 * time.Microsecond,
		Method: "POST", Path: "/v1/chat/completions", Status: 200, Model: "gpt-4.1-mini", Stream: true,
		UserText: "Hi", ReplyText: "Hello", Scenario: "greeting", ErrorCode: "",
		Conversation: "alice", Generation: 2, Turn: 3, PromptCacheKey: "pk",
		ToolResults:    []journal.ToolResult{{CallID: "call_1", Name: "f", Content: "42"}},
		ToolCalls:      []journal.ToolCall{{ID: "call_2", Name: "g", Arguments: "{}"}},
		SchemaErrors:   []string{"/age: want integer"},
		Contradictions: []string{`the reply calls f, but the request's tool_choice is "none": it allows no tool call`}}
	b, err := json.Marshal(in)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), `"duration_ms":1.5`) || !strings.Contains(string(b), `"user_text":"Hi"`) {
		t.Errorf("JSON %s lacks snake_case fields or the duration in ms", b)
	}
	roundTrip(t, in)

	temperature := 0.5
	full := journal.Entry{Seq: 8, Time: in.Time, Duration: 64570078, FirstByte: 1234567, Provider: "openai",
		Endpoint: "chat.completions", Method: "POST", Path: "/v1/chat/completions", Status: 400, Model: "gpt-4.1-mini",
		Request: journal.Request{System: "s", Messages: []journal.Message{{Role: "assistant", ToolCalls: []journal.ToolCall{{ID: "c", Name: "f", Arguments: "{}"}}},
			{Role: "tool", Text: "42", ToolCallID: "c"}}, OmittedMessages: 3, Tools: []string{"f"}, ToolChoice: "auto",
			ResponseFormat: "json_schema:x", Temperature: &temperature, MaxOutputTokens: 9, IncludeUsage: true,
			Metadata: map[string]string{"k": "v"}, User: "u", PreviousResponseID: "resp_1", ConversationID: "conv_1"},
		Body: `{"x":"é`, BodyBytes: 99, Headers: map[string]string{"authorization": journal.Redacted},
		Client:  journal.Client{UserAgent: "ua", Stainless: map[string]string{"lang": "go"}, RetryCount: 2},
		Refusal: "no", JSON: true, ResponseID: "chatcmpl-1", Scenario: "s", ReplyIndex: 2, ScriptedAt: "x_test.go:3",
		Tried: []journal.Tried{{Scenario: "s", Why: "all 1 replies used"}}, ErrorCode: "c", ErrorMessage: "m", Chunks: 4}
	roundTrip(t, full)
}

// roundTrip checks that in reads back from its JSON unchanged.
func roundTrip(t *testing.T, in journal.Entry) {
	t.Helper()
	b, err := json.Marshal(in)
	if err != nil {
		t.Fatal(err)
	}
	var out journal.Entry
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(out, in) {
		t.Errorf("round trip:\n got %+v\nwant %+v", out, in)
	}
}

func TestConcurrentRecording(t *testing.T) {
	j := journal.New(50, 1<<20)
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			for range 100 {
				j.Record(journal.Entry{UserText: "x"})
				j.Entries()
			}
		})
	}
	wg.Wait()
	if e, _ := j.Last(); j.Len() != 50 || e.Seq != 800 || j.Evicted() != 750 {
		t.Errorf("Len %d last Seq %d Evicted %d, want 50, 800, 750", j.Len(), e.Seq, j.Evicted())
	}
}

func TestRingKeepsOrderAcrossWrapsAndResizes(t *testing.T) {
	j := journal.New(5, 1<<20)
	check := func(first, last uint64) {
		t.Helper()
		got := j.Entries()
		if len(got) != int(last-first+1) {
			t.Fatalf("kept %d entries, want #%d..#%d", len(got), first, last)
		}
		for i, e := range got {
			if e.Seq != first+uint64(i) {
				t.Fatalf("entry %d is #%d, want #%d", i, e.Seq, first+uint64(i))
			}
		}
	}
	for range 23 {
		j.Record(journal.Entry{})
	}
	check(19, 23)
	j.Resize(3, 1<<20)
	check(21, 23)
	j.Resize(40, 1<<20)
	for range 30 {
		j.Record(journal.Entry{})
	}
	check(21, 53)
}

func TestReportCountsEvictedEntriesToo(t *testing.T) {
	j := journal.New(2, 1<<20)
	j.Record(journal.Entry{ErrorCode: journal.NoScenarioCode, UserText: "lost"})
	j.Record(journal.Entry{SchemaErrors: []string{"/n: want integer"}})
	j.Record(journal.Entry{ErrorCode: journal.NoScenarioCode, UserText: "kept"})
	r := j.Report()
	if r.UnmatchedTotal != 2 || len(r.Unmatched) != 1 || r.Unmatched[0].UserText != "kept" {
		t.Errorf("unmatched: total %d, kept %+v", r.UnmatchedTotal, r.Unmatched)
	}
	if r.SchemaMismatchTotal != 1 || len(r.SchemaMismatches) != 1 || r.Clean() {
		t.Errorf("report %+v", r)
	}
	j.Reset()
	if r := j.Report(); !r.Clean() {
		t.Errorf("report after Reset: %+v", r)
	}
}

// Contradictions are reported with their entries, counted when evicted,
// and weigh in the journal's byte bound: entries whose contradictions
// hold 8 KiB each evict one another from a 64 KiB journal that would
// keep a hundred entries without them.
func TestReportListsContradictions(t *testing.T) {
	j := journal.New(1000, 64<<10)
	for range 100 {
		j.Record(journal.Entry{Scenario: "weather", Contradictions: []string{strings.Repeat("x", 8<<10)}})
	}
	r := j.Report()
	if r.ContradictionTotal != 100 || len(r.Contradictions) != j.Len() || r.Clean() {
		t.Errorf("report: total %d, %d listed of %d kept, clean %t", r.ContradictionTotal, len(r.Contradictions), j.Len(), r.Clean())
	}
	if j.Len() > 8 {
		t.Errorf("a 64 KiB journal keeps %d entries of 8 KiB contradictions, want at most 8", j.Len())
	}
	small := journal.New(1000, 128<<10)
	for range 100 {
		small.Record(journal.Entry{Scenario: "weather"})
	}
	if small.Len() != 100 {
		t.Errorf("a 128 KiB journal keeps %d small entries, want all 100", small.Len())
	}
	j.Reset()
	if r := j.Report(); r.ContradictionTotal != 0 || !r.Clean() {
		t.Errorf("report after Reset: %+v", r)
	}
}

func TestFrozenJournalNeverChanges(t *testing.T) {
	j := journal.New(10, 1<<20)
	j.Record(journal.Entry{Path: "/v1/chat/completions", Status: 200})
	j.Freeze()
	j.Record(journal.Entry{Path: "/v1/embeddings", Status: 200})
	j.Reset()
	j.Resize(1, 1)
	entries := j.Entries()
	if len(entries) != 1 || entries[0].Path != "/v1/chat/completions" || entries[0].Seq != 1 {
		t.Errorf("frozen journal holds %+v, want the one entry recorded before Freeze", entries)
	}
}

// The provider, the neutral usage and the ignored fields travel through the
// admin API's JSON and back.
func TestEntryJSONCarriesProviderAndUsage(t *testing.T) {
	in := journal.Entry{Seq: 1, Provider: "anthropic", Method: "POST", Path: "/v1/messages", Status: 200,
		Usage:   journal.Usage{Input: 2000, CacheRead: 1500, CacheWrite: 300, Output: 12, Reasoning: 4},
		Ignored: []string{"speed"}, APIVersion: "2026-10-21", Betas: []string{"b1", "b2"}}
	b, err := json.Marshal(in)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`"provider":"anthropic"`, `"usage":{"input":2000,"cache_read":1500,"cache_write":300,"output":12,"reasoning":4}`, `"ignored_fields":["speed"]`, `"api_version":"2026-10-21","betas":["b1","b2"]`} {
		if !strings.Contains(string(b), want) {
			t.Errorf("%s lacks %s", b, want)
		}
	}
	var out journal.Entry
	if err := json.Unmarshal(b, &out); err != nil || out.Provider != in.Provider || out.Usage != in.Usage || out.Ignored[0] != "speed" ||
		out.APIVersion != in.APIVersion || len(out.Betas) != 2 {
		t.Errorf("round trip: %+v %v", out, err)
	}
	b, _ = json.Marshal(journal.Entry{Seq: 2})
	if strings.Contains(string(b), "usage") {
		t.Errorf("an unanswered entry shows a usage: %s", b)
	}
}
