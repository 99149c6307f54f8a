package anthropicsdk_test

import (
	"fmt"
	"testing"

	"github.com/anthropics/anthropic-sdk-go/v2"
	"github.com/llmtestserver/llmtestserver/llmtest"
	"github.com/llmtestserver/llmtestserver/scenario"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// failures is an llmtest.TB that records what CheckAssertions reports.
type failures struct{ errors []string }

func (f *failures) Helper()                           {}
func (f *failures) Cleanup(func())                    {}
func (f *failures) Logf(string, ...any)               {}
func (f *failures) Failed() bool                      { return len(f.errors) > 0 }
func (f *failures) Fatalf(format string, args ...any) { f.Errorf(format, args...) }
func (f *failures) FailNow()                          { f.Errorf("FailNow") }
func (f *failures) Name() string                      { return "TestFailures" }
func (f *failures) Errorf(format string, args ...any) {
	f.errors = append(f.errors, fmt.Sprintf(format, args...))
}

// Anthropic's tool_choice and disable_parallel_tool_use mean what
// OpenAI's tool_choice and parallel_tool_calls mean: a reply that breaks
// them is served as scripted and reported as a contradiction.
func TestAnthropicRepliesThatContradictTheirRequest(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t)
	weather := scenario.ToolCall{Name: "get_weather", Arguments: `{"city":"Paris"}`}
	for _, tc := range []struct {
		name   string
		reply  scenario.Reply
		choice anthropic.ToolChoiceUnionParam
		want   string
	}{
		{"two calls under disable_parallel_tool_use", scenario.CallTools(weather, weather),
			anthropic.ToolChoiceUnionParam{OfAuto: &anthropic.ToolChoiceAutoParam{DisableParallelToolUse: anthropic.Bool(true)}},
			"the reply makes 2 tool calls (get_weather, get_weather), but the request's parallel_tool_calls is false: it allows one at most"},
		{"text under tool_choice any", scenario.Text("Sunny."),
			anthropic.ToolChoiceUnionParam{OfAny: &anthropic.ToolChoiceAnyParam{}},
			`the reply answers text without a tool call, but the request's tool_choice is "required": it allows only tool calls`},
		{"text under a forced tool", scenario.Text("Sunny."),
			anthropic.ToolChoiceParamOfTool("get_weather"),
			"the reply answers text without a tool call, but the request's tool_choice forces a call to get_weather"},
		{"one call under disable_parallel_tool_use fits", scenario.CallTools(weather),
			anthropic.ToolChoiceUnionParam{OfAny: &anthropic.ToolChoiceAnyParam{DisableParallelToolUse: anthropic.Bool(true)}}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			sess := srv.NewSession(t)
			sess.Chat("weather").Reply(tc.reply)
			client := clientFor(sess, "k", 0)
			p := userTurn("Weather in Paris?")
			p.Tools, p.ToolChoice = []anthropic.ToolUnionParam{weatherTool}, tc.choice
			msg, err := client.Messages.New(t.Context(), p)
			require.NoError(t, err)
			uses := 0
			for _, b := range msg.Content {
				if _, ok := b.AsAny().(anthropic.ToolUseBlock); ok {
					uses++
				}
			}
			assert.Equal(t, len(tc.reply.ToolCalls), uses, "the reply is served as scripted")

			entry, ok := sess.Journal().Last()
			require.True(t, ok)
			rec := &failures{}
			clean := llmtest.CheckAssertions(rec, sess)
			if tc.want == "" {
				assert.Empty(t, entry.Contradictions)
				assert.True(t, clean, "CheckAssertions reported %q", rec.errors)
				return
			}
			assert.Equal(t, []string{tc.want}, entry.Contradictions)
			r := sess.Assertions()
			assert.Equal(t, 1, r.ContradictionTotal)
			require.Len(t, r.Contradictions, 1)
			assert.Equal(t, entry.Seq, r.Contradictions[0].Seq)
			assert.False(t, clean)
			require.Len(t, rec.errors, 1)
			assert.Contains(t, rec.errors[0], tc.want)
		})
	}
}
