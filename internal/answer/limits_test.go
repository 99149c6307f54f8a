package answer_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/llmtestserver/llmtestserver/internal/answer"
	"github.com/llmtestserver/llmtestserver/internal/apierr"
	"github.com/llmtestserver/llmtestserver/internal/runtime"
	"github.com/llmtestserver/llmtestserver/scenario"
)

// The reasoning is cut first: past the limit it is all that is left, and
// the usage counts exactly the limit per choice.
func TestBuildCutsReasoningBeforeText(t *testing.T) {
	x := exchange(context.Background())
	req := &scenario.Request{Model: "gpt-4.1-mini", MaxOutputTokens: 3}
	reply := scenario.Reply{Thinking: "a b c d e", Text: "never shown"}
	a := answer.Build(x, req, &reply, answer.Spec{Choices: 2}, answer.Prompt{})
	assert.Equal(t, "a b c", a.Thinking)
	assert.Empty(t, a.Text)
	assert.Equal(t, scenario.FinishLength, a.Finish)
	assert.Equal(t, 6, a.Usage.Output)
	assert.Equal(t, 6, a.Usage.Reasoning)

	reply = scenario.Reply{Thinking: "a b", Text: "x y z w"}
	a = answer.Build(x, req, &reply, answer.Spec{}, answer.Prompt{})
	assert.Equal(t, "a b", a.Thinking)
	assert.Equal(t, "x", a.Text)
	assert.Equal(t, 3, a.Usage.Output)
	assert.Equal(t, 2, a.Usage.Reasoning)
}

func TestCheckContext(t *testing.T) {
	x := exchange(context.Background())
	p := answer.Prompt{Segments: []runtime.PromptSegment{{Tokens: 90}}, Overhead: 3, Window: 100}
	assert.Equal(t, 93, p.Tokens())
	var got int
	exceeded := func(n int) *apierr.Error { got = n; return &apierr.Error{Code: "too_long"} }
	assert.Nil(t, answer.CheckContext(x, &p, 7, exceeded), "exactly the window fits")
	assert.NotNil(t, answer.CheckContext(x, &p, 8, exceeded))
	assert.Equal(t, 93, got)
	unknown := p
	unknown.Window = 0
	assert.Nil(t, answer.CheckContext(x, &unknown, 1000, exceeded), "no window, no check")

	x.Runtime.Configure(runtime.Settings{JournalCapacity: 10, JournalMaxBytes: 1 << 20, IgnoreContextWindow: true})
	assert.Nil(t, answer.CheckContext(x, &p, 1000, exceeded), "the session ignores windows")
}
