package answer_test

import (
	"context"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/llmtestserver/llmtestserver/internal/answer"
	"github.com/llmtestserver/llmtestserver/internal/openai"
	"github.com/llmtestserver/llmtestserver/internal/provider"
	"github.com/llmtestserver/llmtestserver/internal/runtime"
	"github.com/llmtestserver/llmtestserver/scenario"
)

func exchange(ctx context.Context) *provider.Exchange {
	rt := runtime.New(runtime.Settings{JournalCapacity: 10, JournalMaxBytes: 1 << 20})
	return &provider.Exchange{Ctx: ctx, Runtime: rt, Request: httptest.NewRequest("POST", "/v1/x", nil), Codec: openai.Codec{}}
}

var request = &scenario.Request{Model: "gpt-4.1-mini", Messages: []scenario.Message{{Role: "user", Content: "Hi"}},
	ResponseFormat: &scenario.ResponseFormat{Type: "json_schema",
		Schema: []byte(`{"type":"object","properties":{"n":{"type":"integer"}},"required":["n"]}`)}}

func TestBuildFillsTheNeutralAnswerAndTheJournal(t *testing.T) {
	x := exchange(context.Background())
	reply := scenario.Reply{Text: "Calling.", Thinking: "let me think about it",
		ToolCalls: []scenario.ToolCall{{Name: "a", Arguments: `{"q":1}`}, {ID: "mine", Name: "b"}}}
	spec := answer.Spec{ID: "id_1", ToolCallPrefix: "toolu_", ToolCallIDLength: 8, Choices: 2}
	a := answer.Build(x, request, &reply, spec, answer.Prompt{Segments: []runtime.PromptSegment{{Text: "u", Tokens: 10}}, Overhead: 3})

	assert.Equal(t, "id_1", a.ID)
	assert.Equal(t, "gpt-4.1-mini", a.Model)
	assert.Equal(t, scenario.FinishToolCalls, a.Finish)
	require.Len(t, a.ToolCalls, 2)
	assert.True(t, strings.HasPrefix(a.ToolCalls[0].ID, "toolu_") && len(a.ToolCalls[0].ID) == 14, "generated ID %q", a.ToolCalls[0].ID)
	assert.Equal(t, "mine", a.ToolCalls[1].ID)
	assert.Equal(t, 13, a.Usage.Input, "segments and overhead")
	assert.Positive(t, a.Usage.Reasoning)
	assert.Zero(t, a.Usage.Reasoning%2, "reasoning counted once per choice")
	assert.Greater(t, a.Usage.Output, a.Usage.Reasoning)

	e := x.Entry
	assert.Equal(t, "Calling.", e.ReplyText)
	assert.Equal(t, "id_1", e.ResponseID)
	assert.Empty(t, e.Refusal)
	assert.False(t, e.JSON)
	require.Len(t, e.ToolCalls, 2)
	assert.Equal(t, a.ToolCalls[0].ID, e.ToolCalls[0].ID)
	assert.Equal(t, a.Usage.Input, e.Usage.Input)
	assert.Equal(t, a.Usage.Output, e.Usage.Output)
	assert.Equal(t, a.Usage.Reasoning, e.Usage.Reasoning)
}

func TestBuildFinishKindsAndOverrides(t *testing.T) {
	for _, tt := range []struct {
		name  string
		reply scenario.Reply
		want  scenario.FinishKind
	}{
		{"text", scenario.Text("x"), scenario.FinishStop},
		{"refusal", scenario.Refuse("no"), scenario.FinishRefusal},
		{"scripted length", scenario.Reply{Text: "x", FinishReason: "length"}, scenario.FinishLength},
		{"Anthropic's word", scenario.Reply{Text: "x", FinishReason: "max_tokens"}, scenario.FinishLength},
		{"tool calls", scenario.CallTool("f", "{}"), scenario.FinishToolCalls},
	} {
		t.Run(tt.name, func(t *testing.T) {
			x := exchange(context.Background())
			a := answer.Build(x, request, &tt.reply, answer.Spec{ToolCallPrefix: "call_", ToolCallIDLength: 4}, answer.Prompt{})
			assert.Equal(t, tt.want, a.Finish)
		})
	}

	x := exchange(context.Background())
	over := scenario.Reply{Text: "x", Model: "other", Usage: &scenario.Usage{Input: 7, Output: 9}}
	a := answer.Build(x, request, &over, answer.Spec{}, answer.Prompt{Overhead: 100})
	assert.Equal(t, "other", a.Model)
	assert.Equal(t, 7, a.Usage.Input)
	assert.Equal(t, 9, a.Usage.Output)
}

func TestBuildChecksStructuredOutput(t *testing.T) {
	x := exchange(context.Background())
	a := answer.Build(x, request, &scenario.Reply{JSON: []byte(`{"n":"one"}`)}, answer.Spec{}, answer.Prompt{})
	assert.True(t, a.JSON)
	assert.Equal(t, `{"n":"one"}`, a.Text)
	assert.NotEmpty(t, x.Entry.SchemaErrors, "a string where the schema wants an integer")

	x = exchange(context.Background())
	answer.Build(x, request, &scenario.Reply{JSON: []byte(`{"n":1}`)}, answer.Spec{}, answer.Prompt{})
	assert.Empty(t, x.Entry.SchemaErrors)
}

// A context that ended leaves the answer's tokens uncounted: the usage
// holds the prompt, counted before, and no output.
func TestBuildUsageStopsWithItsContext(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	x := exchange(ctx)
	long := scenario.Text(strings.Repeat("word ", 10_000))
	a := answer.Build(x, request, &long, answer.Spec{}, answer.Prompt{Overhead: 3})
	assert.Equal(t, provider.Usage{Input: 3}, a.Usage)
}
