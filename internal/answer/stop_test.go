package answer_test

import (
	"testing"

	"github.com/llmtestserver/llmtestserver/internal/answer"
	"github.com/llmtestserver/llmtestserver/scenario"
)

// A reply cut at a stop sequence stopped there: a scripted finish reason
// gives way to stop, but for content_filter; the tool calls after are gone.
func TestCutAtStopFinishes(t *testing.T) {
	calls := []scenario.ToolCall{{Name: "f"}}
	r := scenario.Reply{Text: "one END two", ToolCalls: calls, FinishReason: scenario.FinishToolCalls}
	if stop := answer.CutAtStop(&r, []string{"END"}); stop != "END" || r.Text != "one " || r.ToolCalls != nil || r.FinishReason != "" {
		t.Errorf("cut reply = %+v, stopped at %q", r, stop)
	}
	r = scenario.Reply{Text: "one END two", FinishReason: scenario.FinishContentFilter}
	if answer.CutAtStop(&r, []string{"END"}) != "END" || r.FinishReason != scenario.FinishContentFilter {
		t.Errorf("cut content_filter reply = %+v", r)
	}
	r = scenario.Reply{Text: "no stop here", FinishReason: scenario.FinishLength}
	if answer.CutAtStop(&r, []string{"END"}) != "" || r.FinishReason != scenario.FinishLength {
		t.Errorf("uncut reply = %+v", r)
	}
	r = scenario.Reply{JSON: []byte(`{"a":"x END"}`)}
	if answer.CutAtStop(&r, []string{"END", ""}) != "END" || string(r.JSON) != `{"a":"x ` {
		t.Errorf("cut document = %s; an empty sequence stops nothing", r.JSON)
	}
	r = scenario.Reply{Text: "thinking", Thinking: "END of it"}
	if answer.CutAtStop(&r, []string{"END"}) != "" || r.Thinking != "END of it" {
		t.Errorf("thinking was cut: %+v", r)
	}
}
