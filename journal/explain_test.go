package journal_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/llmtestserver/llmtestserver/journal"
)

// A report's explanation is its problems, then the faults fired, one
// after the other; a clean report explains nothing, even with faults.
func TestExplanationJoinsProblemsAndFaults(t *testing.T) {
	r := journal.Report{
		UnmatchedTotal: 1,
		Unmatched: []journal.Entry{{Seq: 3, Method: "POST", Path: "/v1/chat/completions", Model: "m", UserText: "hi",
			Tried: []journal.Tried{{Scenario: "a", Why: "does not match"}}}},
		UnusedReplies: map[string]int{"b": 1},
		Unused:        []journal.UnusedReply{{Scenario: "b", Index: 0, ScriptedAt: "x_test.go:7"}},
		Faults:        map[string]int{"hang": 1, "drop": 2},
	}
	want := "llmtest: session s1: 1 request(s) matched no scenario, want 0\n" +
		"\t#3 POST /v1/chat/completions model \"m\" user \"hi\"\n" +
		"\t\ttried \"a\": does not match\n" +
		"llmtest: session s1: 1 scripted reply(ies) never used (\"b\": 1), want all used\n" +
		"\t\"b\" replies[0] scripted at x_test.go:7\n" +
		"llmtest: session s1: scripted faults fired: drop 2, hang 1"
	assert.Equal(t, want, r.Explanation("s1"))
	assert.Len(t, r.Problems("s1"), 2)

	clean := journal.Report{Faults: map[string]int{"drop": 1}}
	assert.Empty(t, clean.Explanation("s1"))
	assert.Empty(t, clean.FaultsNote("s1"))
	assert.Equal(t, "drop 1", clean.FaultSummary())
}
