package scenario_test

import (
	"strings"
	"testing"

	"github.com/llmtestserver/llmtestserver/scenario"
)

func TestClearHandsTheSinkTheScenarioName(t *testing.T) {
	var log callLog
	b := newBuilder(&log, "s", scenario.Match{}).Responds("a").Then("b")
	b.Clear().Responds("c").Times(2)
	if got, want := strings.Join(log.calls, ", "), "add s, add s, clear s, add s, add s"; got != want {
		t.Errorf("calls = %s, want %s", got, want)
	}
	if got := log.scenarios["s"].Replies; len(got) != 2 || got[0].Text != "c" || got[1].Text != "c" {
		t.Errorf("replies after Clear = %+v, want c twice", got)
	}
}

// Times right after Clear has no reply to repeat: the one before Clear is
// gone.
func TestTimesAfterClearRepeatsNothing(t *testing.T) {
	var log callLog
	newBuilder(&log, "s", scenario.Match{}).Responds("a").Clear().Times(3)
	if got := log.scenarios["s"].Replies; len(got) != 0 {
		t.Errorf("replies = %+v, want none", got)
	}
}
