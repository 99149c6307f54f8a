package runtime

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/llmtestserver/llmtestserver/journal"
	"github.com/llmtestserver/llmtestserver/scenario"
)

func helloRequest() *scenario.Request {
	return &scenario.Request{Endpoint: scenario.EndpointChatCompletions, Model: "gpt-4.1-mini",
		Messages: []scenario.Message{{Role: "user", Content: "Bonjour"}}}
}

// A miss lists the scenarios nearest first: one that matches but has used
// its replies, then by conditions held (most first), then by conditions
// failed (fewest first), ties in script order; the error carries the same
// list for the journal.
func TestMissListsNearestFirst(t *testing.T) {
	rt := New(Settings{JournalCapacity: 10, JournalMaxBytes: 1 << 20, Scenarios: []scenario.Scenario{
		{Name: "far", Match: scenario.All(scenario.Model("gpt-4o"), scenario.UserContains("Hello")), Replies: []scenario.Reply{{Text: "f"}}},
		{Name: "one-off", Match: scenario.UserContains("Hello"), Replies: []scenario.Reply{{Text: "o"}}},
		{Name: "close", Match: scenario.All(scenario.Model("gpt-4.1-mini"), scenario.UserContains("Hello")), Replies: []scenario.Reply{{Text: "c"}}},
		{Name: "closer-tie", Match: scenario.All(scenario.Model("gpt-4.1-mini"), scenario.UserEquals("Hi")), Replies: []scenario.Reply{{Text: "c"}}},
		{Name: "used", Replies: []scenario.Reply{{Text: "u"}}},
	}})
	_, err := rt.reserveWhole(helloRequest(), "")
	require.Nil(t, err, "the first request takes used's reply")
	_, err = rt.reserveWhole(helloRequest(), "")
	require.NotNil(t, err)
	want := []journal.Tried{
		{Scenario: "used", Why: "all 1 replies used"},
		{Scenario: "close", Why: `does not match user message containing "Hello" (got "Bonjour"), 1 of 2 conditions hold`},
		{Scenario: "closer-tie", Why: `does not match user message "Hi" (got "Bonjour"), 1 of 2 conditions hold`},
		{Scenario: "one-off", Why: `does not match user message containing "Hello" (got "Bonjour")`},
		{Scenario: "far", Why: `does not match model "gpt-4o" (got "gpt-4.1-mini") and user message containing "Hello" (got "Bonjour")`},
	}
	assert.Equal(t, want, err.Tried)
	var parts []string
	for _, w := range want {
		parts = append(parts, fmt.Sprintf("%q (%s)", w.Scenario, w.Why))
	}
	assert.True(t, strings.HasSuffix(err.Message, " Tried, nearest first: "+strings.Join(parts, "; ")+"."), err.Message)
}

// A session with more scenarios than a journal list keeps lists the
// nearest MaxListItems, and the message says how many more there were.
func TestMissIsBounded(t *testing.T) {
	var scenarios []scenario.Scenario
	for i := range journal.MaxListItems + 5 {
		scenarios = append(scenarios, scenario.Scenario{Name: fmt.Sprintf("s%03d", i),
			Match: scenario.UserEquals(fmt.Sprint(i)), Replies: []scenario.Reply{{Text: "x"}}})
	}
	// The last one is the nearest: it holds one of its two conditions.
	scenarios[len(scenarios)-1].Match = scenario.All(scenario.Model("gpt-4.1-mini"), scenario.UserEquals("no"))
	rt := New(Settings{JournalCapacity: 10, JournalMaxBytes: 1 << 20, Scenarios: scenarios})
	_, err := rt.reserveWhole(helloRequest(), "")
	require.NotNil(t, err)
	require.Len(t, err.Tried, journal.MaxListItems)
	assert.Equal(t, scenarios[len(scenarios)-1].Name, err.Tried[0].Scenario)
	assert.Equal(t, "s000", err.Tried[1].Scenario)
	assert.True(t, strings.HasSuffix(err.Message, "; and 5 more scenario(s)."), err.Message[len(err.Message)-80:])
}

// The report lists each unused reply with its index and call site, a
// rolled-back reply at the head of its queue, and leaves out a repeating
// scenario's last reply and per-conversation scenarios.
func TestAssertionsListUnusedReplies(t *testing.T) {
	rt := New(Settings{JournalCapacity: 10, JournalMaxBytes: 1 << 20, Scenarios: []scenario.Scenario{
		{Name: "script", Replies: []scenario.Reply{{Text: "a", ScriptedAt: "x_test.go:1"}, {Text: "b", ScriptedAt: "x_test.go:2"}, {Text: "c", ScriptedAt: "x_test.go:3"}}},
		{Name: "loop", Match: scenario.UserEquals("never"), Repeat: true, Replies: []scenario.Reply{{Text: "l1"}, {Text: "l2"}}},
		{Name: "per", Match: scenario.UserEquals("never"), PerConversation: true, Replies: []scenario.Reply{{Text: "p"}}},
	}})
	first, err := rt.reserveWhole(helloRequest(), "")
	require.Nil(t, err)
	second, err := rt.reserveWhole(helloRequest(), "")
	require.Nil(t, err)
	first.Rollback() // out of order: b was taken since
	_ = second
	r := rt.Assertions()
	assert.Equal(t, map[string]int{"script": 2, "loop": 1}, r.UnusedReplies)
	assert.Equal(t, []journal.UnusedReply{
		{Scenario: "script", Index: 0, ScriptedAt: "x_test.go:1"},
		{Scenario: "script", Index: 2, ScriptedAt: "x_test.go:3"},
		{Scenario: "loop", Index: 0},
	}, r.Unused)
}

// The list of unused replies keeps at most MaxListItems; the counts keep
// them all.
func TestAssertionsUnusedIsBounded(t *testing.T) {
	replies := make([]scenario.Reply, journal.MaxListItems+3)
	for i := range replies {
		replies[i] = scenario.Reply{Text: "r"}
	}
	rt := New(Settings{JournalCapacity: 10, JournalMaxBytes: 1 << 20, Scenarios: []scenario.Scenario{{Name: "many", Replies: replies}}})
	r := rt.Assertions()
	assert.Len(t, r.Unused, journal.MaxListItems)
	assert.Equal(t, journal.MaxListItems+3, r.UnusedReplies["many"])
	assert.Equal(t, journal.MaxListItems-1, r.Unused[len(r.Unused)-1].Index)
}

// A scenario whose replies were all cleared before any was used says so,
// rather than that its 0 replies were used.
func TestMissNamesAClearedScenario(t *testing.T) {
	rt := New(Settings{JournalCapacity: 10, JournalMaxBytes: 1 << 20, Scenarios: []scenario.Scenario{
		{Name: "cleared", Replies: []scenario.Reply{{Text: "c"}}},
	}})
	require.True(t, rt.ClearReplies("cleared"))
	_, err := rt.reserveWhole(helloRequest(), "")
	require.NotNil(t, err)
	assert.Equal(t, []journal.Tried{{Scenario: "cleared", Why: "no replies left: its replies were cleared"}}, err.Tried)
}
