package runtime

import (
	"context"
	"errors"
	"testing"

	"github.com/llmtestserver/llmtestserver/journal"
	"github.com/llmtestserver/llmtestserver/scenario"
)

func newTestRuntime() *Runtime {
	return New(Settings{JournalCapacity: 10, JournalMaxBytes: 1 << 20})
}

func TestRetireCancelsInFlightAndRefusesWrites(t *testing.T) {
	rt := newTestRuntime()
	rt.AddReplies("s", scenario.Match{}, scenario.Reply{Text: "a"})
	ctx, end, ok := rt.Begin(context.Background())
	if !ok {
		t.Fatal("Begin refused a live runtime")
	}
	defer end()
	res, apiErr := rt.Reserve(&scenario.Request{})
	if apiErr != nil {
		t.Fatal(apiErr)
	}
	rt.Retire()
	if !errors.Is(context.Cause(ctx), ErrSuperseded) {
		t.Fatalf("in-flight cause = %v, want ErrSuperseded", context.Cause(ctx))
	}
	res.Rollback()
	rt.Record(journal.Entry{})
	rt.AddReplies("s", scenario.Match{}, scenario.Reply{Text: "b"})
	rt.Reset()
	if rt.Pending() != 0 || rt.Journal().Len() != 0 {
		t.Errorf("a retired runtime was written to: %d pending, %d journaled", rt.Pending(), rt.Journal().Len())
	}
	if _, _, ok := rt.Begin(context.Background()); ok {
		t.Error("Begin accepted a request on a retired runtime")
	}
}

func TestReserveSkipsExhaustedAndExplainsMisses(t *testing.T) {
	rt := New(Settings{JournalCapacity: 10, JournalMaxBytes: 1 << 20, Scenarios: []scenario.Scenario{
		{Name: "first", Replies: []scenario.Reply{{Text: "1"}}},
		{Name: "picky", Match: scenario.Match{UserContains: "magic"}, Replies: []scenario.Reply{{Text: "m"}}},
		{Name: "second", Replies: []scenario.Reply{{Text: "2"}}},
	}})
	req := &scenario.Request{Endpoint: scenario.EndpointChatCompletions, Model: "gpt-4.1-mini",
		Messages: []scenario.Message{{Role: "user", Content: "hello"}}}
	for _, want := range []string{"first", "second"} {
		res, err := rt.Reserve(req)
		if err != nil || res.Scenario != want {
			t.Fatalf("Reserve = %v, %v; want %s", res, err, want)
		}
	}
	_, err := rt.Reserve(req)
	if err == nil || err.Code != "llm_test_server_no_scenario" {
		t.Fatalf("exhausted: err = %v", err)
	}
	want := `No scenario answers chat.completions for model "gpt-4.1-mini" with last user message "hello". Tried: "first" (all 1 replies used); "picky" (does not match user message containing "magic"); "second" (all 1 replies used).`
	if err.Message != want {
		t.Errorf("message =\n%s\nwant\n%s", err.Message, want)
	}
	rt.Reset()
	if rt.Pending() != 3 {
		t.Errorf("Pending after Reset = %d, want 3", rt.Pending())
	}
}

func TestRollbackAfterResetIsDropped(t *testing.T) {
	rt := newTestRuntime()
	rt.AddReplies("s", scenario.Match{}, scenario.Reply{Text: "a"})
	res, _ := rt.Reserve(&scenario.Request{})
	rt.Reset()
	res.Rollback()
	if rt.Pending() != 1 {
		t.Errorf("Pending = %d, want 1: the reset queue must not get a second copy", rt.Pending())
	}
}

func TestAuthorize(t *testing.T) {
	rt := New(Settings{BearerToken: "secret", JournalCapacity: 1, JournalMaxBytes: 1})
	tests := map[string]string{"Bearer secret": "", "": "missing", "Bearer ": "missing", "Basic secret": "missing", "Bearer wrong": "invalid_api_key"}
	for header, want := range tests {
		err := rt.Authorize(header)
		switch {
		case want == "" && err != nil:
			t.Errorf("%q refused: %v", header, err)
		case want == "missing" && (err == nil || err.Code != "" || err.Status != 401):
			t.Errorf("%q: %v, want 401 without a code", header, err)
		case want == "invalid_api_key" && (err == nil || err.Code != want):
			t.Errorf("%q: %v, want invalid_api_key", header, err)
		}
	}
}
