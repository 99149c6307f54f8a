package runtime

import (
	"context"
	"errors"
	"strings"
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
	ctx, end, ok := rt.Begin(context.Background(), nil)
	if !ok {
		t.Fatal("Begin refused a live runtime")
	}
	defer end()
	res, apiErr := rt.reserveWhole(&scenario.Request{}, "")
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
	if _, _, ok := rt.Begin(context.Background(), nil); ok {
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
		res, err := rt.reserveWhole(req, "")
		if err != nil || res.Scenario != want {
			t.Fatalf("Reserve = %v, %v; want %s", res, err, want)
		}
	}
	_, err := rt.reserveWhole(req, "")
	if err == nil || err.Code != "llm_test_server_no_scenario" {
		t.Fatalf("exhausted: err = %v", err)
	}
	for _, want := range []string{
		`No scenario answers chat.completions for model "gpt-4.1-mini" with last user message "hello" (conversation conv_`,
		`turn 1). Tried, nearest first: "first" (all 1 replies used); "second" (all 1 replies used); "picky" (does not match user message containing "magic" (got "hello")).`,
	} {
		if !strings.Contains(err.Message, want) {
			t.Errorf("message =\n%s\nwant it to contain\n%s", err.Message, want)
		}
	}
	rt.Reset()
	if rt.Pending() != 3 {
		t.Errorf("Pending after Reset = %d, want 3", rt.Pending())
	}
}

func TestRollbackAfterResetIsDropped(t *testing.T) {
	rt := newTestRuntime()
	rt.AddReplies("s", scenario.Match{}, scenario.Reply{Text: "a"})
	res, _ := rt.reserveWhole(&scenario.Request{}, "")
	rt.Reset()
	res.Rollback()
	if rt.Pending() != 1 {
		t.Errorf("Pending = %d, want 1: the reset queue must not get a second copy", rt.Pending())
	}
}

func TestKeyAccepted(t *testing.T) {
	rt := New(Settings{APIKey: "secret", JournalCapacity: 1, JournalMaxBytes: 1})
	for key, want := range map[string]bool{"secret": true, "": false, "secre": false, "secrets": false, "wrong": false} {
		if got := rt.KeyAccepted(key); got != want {
			t.Errorf("KeyAccepted(%q) = %v, want %v", key, got, want)
		}
	}
	open := New(Settings{JournalCapacity: 1, JournalMaxBytes: 1})
	if !open.KeyAccepted("") || !open.KeyAccepted("anything") {
		t.Error("a runtime that requires no key refused one")
	}
}

func TestConversationIdentityGenerationAndTurn(t *testing.T) {
	rt := newTestRuntime()
	rt.AddReplies("s", scenario.Match{}, scenario.Reply{Text: "x"})
	rt.UpdateScenario("s", scenario.Match{}, func(s *scenario.Scenario) { s.Repeat = true })
	opening := []scenario.Message{{Role: "user", Content: "hello"}}
	turn2 := append(append([]scenario.Message{}, opening...), scenario.Message{Role: "assistant", Content: "x"}, scenario.Message{Role: "user", Content: "more"})
	ask := func(msgs []scenario.Message, declared string) *scenario.Request {
		t.Helper()
		req := &scenario.Request{System: "be brief", Messages: msgs}
		if _, err := rt.reserveWhole(req, declared); err != nil {
			t.Fatal(err)
		}
		return req
	}
	first := ask(opening, "")
	if first.ConversationSource != SourceDerived || first.Generation != 1 || first.Turn != 1 {
		t.Errorf("first request: %+v", first)
	}
	again := ask(opening, "") // an exact retry
	second := ask(turn2, "")
	restart := ask(opening, "")
	if again.Generation != 1 || second.Conversation != first.Conversation || second.Turn != 2 || second.Generation != 1 {
		t.Errorf("retry %+v, turn 2 %+v", again, second)
	}
	if restart.Generation != 2 || restart.Turn != 1 {
		t.Errorf("restart from the opening: generation %d turn %d, want 2 and 1", restart.Generation, restart.Turn)
	}
	declared := ask(opening, "alice")
	if declared.Conversation != "alice" || declared.ConversationSource != SourceDeclared || declared.Generation != 1 {
		t.Errorf("declared: %+v", declared)
	}
	other := &scenario.Request{System: "be verbose", Messages: opening}
	rt.reserveWhole(other, "")
	if other.Conversation == first.Conversation {
		t.Error("another system prompt gave the same derived conversation")
	}
}

func TestPerConversationQueuesAndRepeat(t *testing.T) {
	rt := newTestRuntime()
	rt.AddReplies("s", scenario.Match{}, scenario.Reply{Text: "1"}, scenario.Reply{Text: "2"})
	rt.UpdateScenario("s", scenario.Match{}, func(s *scenario.Scenario) { s.PerConversation = true })
	next := func(conv string) string {
		t.Helper()
		res, err := rt.reserveWhole(&scenario.Request{Messages: []scenario.Message{{Role: "user", Content: "hi"}}}, conv)
		if err != nil {
			return err.Code
		}
		return res.Reply.Text
	}
	got := []string{next("a"), next("b"), next("a"), next("b"), next("a")}
	if strings.Join(got, ",") != "1,1,2,2,llm_test_server_no_scenario" {
		t.Errorf("per-conversation sequence = %v", got)
	}
	rt.UpdateScenario("s", scenario.Match{}, func(s *scenario.Scenario) { s.Repeat = true })
	rt.AddReplies("s", scenario.Match{}, scenario.Reply{Text: "3"})
	if got := []string{next("a"), next("a"), next("c")}; strings.Join(got, ",") != "3,3,1" {
		t.Errorf("after adding a repeating reply: %v", got)
	}
	res, _ := rt.reserveWhole(&scenario.Request{Messages: []scenario.Message{{Role: "user", Content: "hi"}}}, "a")
	res.Rollback() // a repeating reply was never taken off
	if st := rt.Scenarios()[0]; st.RemainingByConversation["a#1"] != 1 || st.Remaining != 3 {
		t.Errorf("state after rollback of a repeating reply: %+v", st)
	}
}

func TestCachedTokensFollowTheRealGrid(t *testing.T) {
	rt := newTestRuntime()
	seg := func(text string, n int) PromptSegment { return PromptSegment{Text: text, Tokens: n} }
	first := []PromptSegment{seg("tools", 300), seg("system", 900), seg("user 1", 50)}
	if got := rt.CachedTokens("m", "k", first, grid); got != 0 {
		t.Errorf("first prompt: %d cached, want 0", got)
	}
	second := append(append([]PromptSegment{}, first...), seg("assistant 1", 40), seg("user 2", 30))
	if got := rt.CachedTokens("m", "k", second, grid); got != 1152 { // 1250 shared, down to 1024+128
		t.Errorf("second prompt: %d cached, want 1152", got)
	}
	if got := rt.CachedTokens("m", "other-key", second, grid); got != 0 {
		t.Errorf("another cache key: %d cached, want 0", got)
	}
	if got := rt.CachedTokens("other-model", "k", second, grid); got != 0 {
		t.Errorf("another model: %d cached, want 0", got)
	}
	changed := []PromptSegment{seg("tools", 300), seg("another system", 900), seg("user 1", 50)}
	if got := rt.CachedTokens("m", "k", changed, grid); got != 0 {
		t.Errorf("a changed system prompt: %d cached, want 0 (only 300 tokens shared)", got)
	}
	short := []PromptSegment{seg("a", 500)}
	rt.CachedTokens("m", "k", short, grid)
	if got := rt.CachedTokens("m", "k", short, grid); got != 0 {
		t.Errorf("a repeated short prompt: %d cached, want 0 below 1024 tokens", got)
	}
	rt.Reset()
	if got := rt.CachedTokens("m", "k", second, grid); got != 0 {
		t.Errorf("after Reset: %d cached, want 0", got)
	}
}
