package answer_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/llmtestserver/llmtestserver/internal/answer"
	"github.com/llmtestserver/llmtestserver/scenario"
)

// A codec's hidden reasoning adds to the reasoning and output tokens, per
// choice, within what the request's maximum output tokens leave after the
// visible answer; an answer cut at that maximum spends none.
func TestBuildHiddenReasoning(t *testing.T) {
	rule := func(visible int) int { return 10 * visible }
	reply := scenario.Reply{Text: "a b", Thinking: "c"} // 2 text tokens ("a", " b"), 1 thinking token
	spec := answer.Spec{Choices: 2, Reasoning: rule}

	a := answer.Build(exchange(context.Background()), &scenario.Request{Model: "gpt-4.1-mini"}, &reply, spec, answer.Prompt{})
	assert.Equal(t, 2*(1+20), a.Usage.Reasoning, "thinking and hidden reasoning, per choice")
	assert.Equal(t, 2*(1+20+2), a.Usage.Output)

	capped := answer.Build(exchange(context.Background()), &scenario.Request{Model: "gpt-4.1-mini", MaxOutputTokens: 20}, &reply, spec, answer.Prompt{})
	assert.Equal(t, "a b", capped.Text, "hidden reasoning never cuts the answer")
	assert.Equal(t, 2*(1+17), capped.Usage.Reasoning, "the limit leaves 17 tokens for it")
	assert.Equal(t, 2*20, capped.Usage.Output)

	cut := answer.Build(exchange(context.Background()), &scenario.Request{Model: "gpt-4.1-mini", MaxOutputTokens: 2}, &reply, spec, answer.Prompt{})
	assert.Equal(t, 2*1, cut.Usage.Reasoning, "a cut answer spends no hidden reasoning")
	assert.Equal(t, 2*2, cut.Usage.Output)

	calls := scenario.Reply{ToolCalls: []scenario.ToolCall{{Name: "f", Arguments: `{}`}}}
	withCalls := answer.Build(exchange(context.Background()), &scenario.Request{Model: "gpt-4.1-mini"}, &calls, answer.Spec{Reasoning: rule}, answer.Prompt{})
	assert.Equal(t, 10*(withCalls.Usage.Output-withCalls.Usage.Reasoning), withCalls.Usage.Reasoning, "tool calls are visible output")
}

// A usage override sets every count, the reasoning and cached tokens
// included, and replaces the codec's rule.
func TestBuildUsageOverride(t *testing.T) {
	x := exchange(context.Background())
	reply := scenario.Reply{Text: "a b", Thinking: "c",
		Usage: &scenario.Usage{Input: 100, Output: 50, Reasoning: 40, CacheRead: 64}}
	a := answer.Build(x, &scenario.Request{Model: "gpt-4.1-mini"}, &reply, answer.Spec{Reasoning: func(int) int { return 1000 }}, answer.Prompt{})
	assert.Equal(t, [4]int{100, 64, 50, 40}, [4]int{a.Usage.Input, a.Usage.CacheRead, a.Usage.Output, a.Usage.Reasoning})
	assert.Equal(t, 64, x.Entry.Usage.CacheRead)
	assert.Equal(t, 40, x.Entry.Usage.Reasoning)
}
