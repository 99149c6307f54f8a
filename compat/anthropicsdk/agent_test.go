package anthropicsdk_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/anthropics/anthropic-sdk-go/v2"
	"github.com/llmtestserver/llmtestserver/journal"
	"github.com/llmtestserver/llmtestserver/scenario"
	"github.com/llmtestserver/llmtestserver/session"
	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// weatherTool is the tool the agent loops offer.
var weatherTool = anthropic.ToolUnionParam{OfTool: &anthropic.ToolParam{
	Name:        "get_weather",
	Description: anthropic.String("The weather in a city"),
	InputSchema: anthropic.ToolInputSchemaParam{
		Properties: map[string]any{"city": map[string]any{"type": "string"}},
		Required:   []string{"city"},
	},
}}

// weatherOf is the agent's tool: what it answers for a city.
func weatherOf(t *testing.T, input json.RawMessage) string {
	t.Helper()
	var in struct {
		City string `json:"city"`
	}
	require.NoError(t, json.Unmarshal(input, &in), "tool input %s", input)
	return "sunny in " + in.City
}

// scriptAgent scripts two parallel weather calls, then the final answer.
func scriptAgent(sess *session.Session) {
	sess.Chat("agent").Reply(
		scenario.CallTools(
			scenario.ToolCall{Name: "get_weather", Arguments: `{"city":"Paris"}`},
			scenario.ToolCall{Name: "get_weather", Arguments: `{"city":"Rome"}`}),
		scenario.Text("Sunny in both."))
}

// TestAgentLoopParallelToolCalls runs an agent loop as code written against
// the SDK does: it runs every tool_use block of the answer, sends the
// results back as tool_result blocks, and stops at the first answer without
// tool calls. Non-streamed and streamed, the journal shows the calls with
// toolu_ IDs and the results exactly as it shows OpenAI tool results.
func TestAgentLoopParallelToolCalls(t *testing.T) {
	t.Parallel()
	for _, streamed := range []bool{false, true} {
		name := map[bool]string{false: "non-streamed", true: "streamed"}[streamed]
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			sess := newSession(t, session.RequireAPIKey("k"))
			scriptAgent(sess)
			client := clientFor(sess, "k", 0)

			params := userTurn("What is the weather in Paris and Rome?")
			params.Tools = []anthropic.ToolUnionParam{weatherTool}
			var final *anthropic.Message
			var results []journal.ToolResult
			for round := 0; round < 3 && final == nil; round++ {
				var msg anthropic.Message
				if streamed {
					msg = accumulate(t, client.Messages.NewStreaming(t.Context(), params))
				} else {
					m, err := client.Messages.New(t.Context(), params)
					require.NoError(t, err)
					msg = *m
				}
				var blocks []anthropic.ContentBlockParamUnion
				for _, b := range msg.Content {
					if tu, ok := b.AsAny().(anthropic.ToolUseBlock); ok {
						out := weatherOf(t, tu.Input)
						blocks = append(blocks, anthropic.NewToolResultBlock(tu.ID, out, false))
						results = append(results, journal.ToolResult{CallID: tu.ID, Name: tu.Name, Content: out})
					}
				}
				if len(blocks) == 0 {
					final = &msg
					break
				}
				assert.Equal(t, anthropic.StopReasonToolUse, msg.StopReason)
				params.Messages = append(params.Messages, msg.ToParam(), anthropic.NewUserMessage(blocks...))
			}
			require.NotNil(t, final, "the loop never ended")
			require.Len(t, final.Content, 1)
			assert.Equal(t, "Sunny in both.", final.Content[0].Text)
			assert.Equal(t, anthropic.StopReasonEndTurn, final.StopReason)

			entries := sess.Journal().Entries()
			require.Len(t, entries, 2)
			for _, e := range entries {
				assert.Equal(t, "anthropic", e.Provider)
				assert.Equal(t, 200, e.Status)
				assert.Equal(t, "agent", e.Scenario)
				assert.Equal(t, streamed, e.Stream)
				assert.NotZero(t, e.Usage)
			}
			first, second := entries[0], entries[1]
			require.Len(t, first.ToolCalls, 2)
			for i, city := range []string{"Paris", "Rome"} {
				c := first.ToolCalls[i]
				assert.True(t, strings.HasPrefix(c.ID, "toolu_"), "tool call ID %q", c.ID)
				assert.Equal(t, "get_weather", c.Name)
				assert.JSONEq(t, `{"city":"`+city+`"}`, c.Arguments)
				assert.Equal(t, c.ID, results[i].CallID, "the SDK saw another ID than the journal")
			}
			assert.NotEqual(t, first.ToolCalls[0].ID, first.ToolCalls[1].ID)
			assert.Empty(t, first.ToolResults)
			assert.Equal(t, results, second.ToolResults)
			assert.Empty(t, second.ToolCalls)
			assert.Equal(t, "Sunny in both.", second.ReplyText)
			assert.Positive(t, second.Usage.Input)
			assert.Positive(t, second.Usage.Output)
		})
	}
}

// TestToolResultsJournalLikeOpenAI runs the same loop through openai-go's
// Chat Completions in another session and compares the journals' tool
// results: the same names and contents, only the call IDs differ by
// provider.
func TestToolResultsJournalLikeOpenAI(t *testing.T) {
	t.Parallel()
	srv := newServer(t)

	// Anthropic.
	asess := srv.NewSession(t)
	scriptAgent(asess)
	ac := clientFor(asess, "k", 0)
	params := userTurn("What is the weather in Paris and Rome?")
	params.Tools = []anthropic.ToolUnionParam{weatherTool}
	msg, err := ac.Messages.New(t.Context(), params)
	require.NoError(t, err)
	var blocks []anthropic.ContentBlockParamUnion
	for _, b := range msg.Content {
		if tu, ok := b.AsAny().(anthropic.ToolUseBlock); ok {
			blocks = append(blocks, anthropic.NewToolResultBlock(tu.ID, weatherOf(t, tu.Input), false))
		}
	}
	params.Messages = append(params.Messages, msg.ToParam(), anthropic.NewUserMessage(blocks...))
	_, err = ac.Messages.New(t.Context(), params)
	require.NoError(t, err)

	// OpenAI.
	osess := srv.NewSession(t)
	scriptAgent(osess)
	oc := openai.NewClient(option.WithBaseURL(osess.BaseURL()), option.WithAPIKey("k"),
		option.WithHTTPClient(osess.HTTPClient()), option.WithMaxRetries(0))
	oparams := openai.ChatCompletionNewParams{
		Model:    "gpt-4.1-mini",
		Messages: []openai.ChatCompletionMessageParamUnion{openai.UserMessage("What is the weather in Paris and Rome?")},
		Tools: []openai.ChatCompletionToolUnionParam{openai.ChatCompletionFunctionTool(openai.FunctionDefinitionParam{
			Name:       "get_weather",
			Parameters: openai.FunctionParameters{"type": "object", "properties": map[string]any{"city": map[string]any{"type": "string"}}},
		})},
	}
	comp, err := oc.Chat.Completions.New(t.Context(), oparams)
	require.NoError(t, err)
	oparams.Messages = append(oparams.Messages, comp.Choices[0].Message.ToParam())
	for _, c := range comp.Choices[0].Message.ToolCalls {
		oparams.Messages = append(oparams.Messages, openai.ToolMessage(weatherOf(t, json.RawMessage(c.Function.Arguments)), c.ID))
	}
	_, err = oc.Chat.Completions.New(t.Context(), oparams)
	require.NoError(t, err)

	withoutIDs := func(entries []journal.Entry) []journal.ToolResult {
		require.Len(t, entries, 2)
		out := append([]journal.ToolResult(nil), entries[1].ToolResults...)
		for i := range out {
			assert.NotEmpty(t, out[i].CallID)
			out[i].CallID = ""
		}
		return out
	}
	want := []journal.ToolResult{{Name: "get_weather", Content: "sunny in Paris"}, {Name: "get_weather", Content: "sunny in Rome"}}
	assert.Equal(t, want, withoutIDs(osess.Journal().Entries()), "OpenAI")
	assert.Equal(t, want, withoutIDs(asess.Journal().Entries()), "Anthropic")
}
