package goopenai_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"reflect"
	"strings"
	"testing"

	"github.com/llmtestserver/llmtestserver/internal/e2e"
	"github.com/llmtestserver/llmtestserver/journal"
	"github.com/llmtestserver/llmtestserver/llmtest"
	"github.com/llmtestserver/llmtestserver/scenario"
	"github.com/llmtestserver/llmtestserver/session"
	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
	goopenai "github.com/sashabaranov/go-openai"
)

const (
	agentModel  = "gpt-4.1-mini"
	agentAPIKey = "agent-provider-key"
	agentSystem = "You are a travel assistant. Use the tools."
	agentAsk    = "What is the weather in Paris and London, and what time is it in Paris?"
	agentThanks = "Thanks!"
	agentBye    = "You're welcome, enjoy the trip."
)

// agentMessage is one message of the agent's conversation.
type agentMessage struct {
	role    string // "system", "user", "assistant" or "tool"
	content string
	calls   []agentCall // an assistant's tool calls
	callID  string      // the call a tool message answers
}

// agentCall is a tool call as the client saw it.
type agentCall struct{ id, name, arguments string }

// modelTurn is what one completion answered.
type modelTurn struct {
	content string
	calls   []agentCall
	finish  string
}

// completeFunc sends the conversation through an SDK and returns the answer.
type completeFunc func(ctx context.Context, msgs []agentMessage) (modelTurn, error)

// runTool is the client's implementation of the offered tools.
func runTool(c agentCall) string {
	switch {
	case c.name == "get_weather" && strings.Contains(c.arguments, "Paris"):
		return "sunny, 21°C"
	case c.name == "get_weather" && strings.Contains(c.arguments, "London"):
		return "light rain, 14°C"
	case c.name == "get_time":
		return "14:05"
	}
	return "unknown tool " + c.name
}

// agentFinal is what the "answer" responder says once it has every result:
// the tool results the server received, in order.
const agentFinal = "sunny, 21°C | light rain, 14°C | 14:05"

// scriptAgent scripts the model side of the loop: two parallel weather calls,
// then a clock call once the weather is known, then an answer built from the
// tool results, then a reply to the user's second turn.
func scriptAgent(sess *session.Session) {
	sess.Chat("plan").
		When(scenario.All(scenario.Turn(1), scenario.ToolOffered("get_weather"), scenario.Not(scenario.HasToolResult("get_weather")))).
		Reply(scenario.CallTools(
			scenario.ToolCall{Name: "get_weather", Arguments: `{"city":"Paris"}`},
			scenario.ToolCall{Name: "get_weather", Arguments: `{"city":"London"}`}))
	sess.Chat("clock").
		When(scenario.All(scenario.Turn(1), scenario.HasToolResult("get_weather"), scenario.Not(scenario.HasToolResult("get_time")))).
		CallsTool("get_time", `{"city":"Paris"}`)
	sess.Chat("answer").
		When(scenario.All(scenario.Turn(1), scenario.HasToolResult("get_time"))).
		Reply(scenario.Respond(func(r *scenario.Request) scenario.Reply {
			var parts []string
			for _, tr := range r.ToolResults() {
				parts = append(parts, tr.Content)
			}
			return scenario.Text(strings.Join(parts, " | "))
		}))
	sess.Chat("thanks").When(scenario.Turn(2)).Responds(agentBye)
}

// agentLoop runs the conversation until the model answers without tool
// calls, running every requested tool and sending its result with the call
// ID. It returns the conversation and the model's turns.
func agentLoop(ctx context.Context, t *testing.T, complete completeFunc, msgs []agentMessage) ([]agentMessage, []modelTurn) {
	t.Helper()
	var turns []modelTurn
	for range 5 {
		turn, err := complete(ctx, msgs)
		if err != nil {
			t.Fatalf("completion %d: %v", len(turns)+1, err)
		}
		turns = append(turns, turn)
		msgs = append(msgs, agentMessage{role: "assistant", content: turn.content, calls: turn.calls})
		if len(turn.calls) == 0 {
			return msgs, turns
		}
		for _, c := range turn.calls {
			msgs = append(msgs, agentMessage{role: "tool", callID: c.id, content: runTool(c)})
		}
	}
	t.Fatalf("the agent loop did not end after %d completions: %+v", len(turns), turns)
	return nil, nil
}

func TestToolCallingAgentLoop(t *testing.T) {
	t.Parallel()
	// Strict: every scripted reply must be used and every request matched.
	srv := llmtest.NewServer(t, llmtest.WithStrict())
	tests := []struct {
		name   string
		stream bool
		client func(sess *session.Session, stream bool) completeFunc
	}{
		{"openai-go", false, openaiGoAgent},
		{"openai-go streaming", true, openaiGoAgent},
		{"go-openai", false, goOpenAIAgent},
		{"go-openai streaming", true, goOpenAIAgent},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			sess := srv.NewSession(t, session.RequireAPIKey(agentAPIKey), session.OnlyModels(agentModel))
			scriptAgent(sess)
			complete := tt.client(sess, tt.stream)
			ctx := t.Context()

			msgs := []agentMessage{{role: "system", content: agentSystem}, {role: "user", content: agentAsk}}
			msgs, turns := agentLoop(ctx, t, complete, msgs)
			if len(turns) != 3 {
				t.Fatalf("the loop took %d completions, want 3 (parallel calls, one call, answer): %+v", len(turns), turns)
			}
			if got := turns[2].content; got != agentFinal {
				t.Errorf("final answer = %q, want %q", got, agentFinal)
			}
			msgs = append(msgs, agentMessage{role: "user", content: agentThanks})
			_, more := agentLoop(ctx, t, complete, msgs)
			turns = append(turns, more...)
			if len(more) != 1 || more[0].content != agentBye {
				t.Errorf("second user turn answered %+v, want %q", more, agentBye)
			}

			wantCalls := [][]agentCall{
				{{name: "get_weather", arguments: `{"city":"Paris"}`}, {name: "get_weather", arguments: `{"city":"London"}`}},
				{{name: "get_time", arguments: `{"city":"Paris"}`}},
				nil,
				nil,
			}
			wantFinish := []string{"tool_calls", "tool_calls", "stop", "stop"}
			for i, turn := range turns {
				if turn.finish != wantFinish[i] {
					t.Errorf("completion %d: finish_reason = %q, want %q", i+1, turn.finish, wantFinish[i])
				}
				if len(turn.calls) != len(wantCalls[i]) {
					t.Errorf("completion %d: %d tool calls, want %d: %+v", i+1, len(turn.calls), len(wantCalls[i]), turn.calls)
					continue
				}
				for j, c := range turn.calls {
					if c.name != wantCalls[i][j].name || c.arguments != wantCalls[i][j].arguments {
						t.Errorf("completion %d call %d = %s(%s), want %s(%s)", i+1, j, c.name, c.arguments,
							wantCalls[i][j].name, wantCalls[i][j].arguments)
					}
				}
			}
			checkAgentJournal(t, sess, turns, tt.stream)
		})
	}
}

// checkAgentJournal checks what the server recorded of the loop: the tool
// calls it answered with (the IDs the client saw), the tool results it
// received with their call IDs and function names, turns and conversation.
func checkAgentJournal(t *testing.T, sess *session.Session, turns []modelTurn, stream bool) {
	t.Helper()
	entries := e2e.JournalOf(t, sess, len(turns))
	if len(entries) != len(turns) {
		t.Fatalf("journal holds %d entries, want %d:\n%s", len(entries), len(turns), llmtest.Transcript(sess))
	}
	wantScenario := []string{"plan", "clock", "answer", "thanks"}
	wantTurn := []int{1, 1, 1, 2}
	seen := map[string]bool{}
	var results []journal.ToolResult // every result sent so far, in order
	for i, e := range entries {
		if e.Status != 200 || e.Scenario != wantScenario[i] || e.Turn != wantTurn[i] || e.Stream != stream {
			t.Errorf("entry %d: status %d scenario %q turn %d stream %t, want 200 %q %d %t",
				i+1, e.Status, e.Scenario, e.Turn, e.Stream, wantScenario[i], wantTurn[i], stream)
		}
		if e.Conversation == "" || e.Conversation != entries[0].Conversation || e.Generation != 1 {
			t.Errorf("entry %d: conversation %q generation %d, want %q generation 1",
				i+1, e.Conversation, e.Generation, entries[0].Conversation)
		}
		if !reflect.DeepEqual(e.ToolResults, results) {
			t.Errorf("entry %d: tool results = %+v, want %+v", i+1, e.ToolResults, results)
		}
		var calls []journal.ToolCall
		for _, c := range turns[i].calls {
			calls = append(calls, journal.ToolCall{ID: c.id, Name: c.name, Arguments: c.arguments})
			results = append(results, journal.ToolResult{CallID: c.id, Name: c.name, Content: runTool(c)})
			if !strings.HasPrefix(c.id, "call_") || len(c.id) != len("call_")+24 {
				t.Errorf("entry %d: call ID %q, want call_ and 24 characters", i+1, c.id)
			}
			if seen[c.id] {
				t.Errorf("entry %d: call ID %q was used before", i+1, c.id)
			}
			seen[c.id] = true
		}
		if !reflect.DeepEqual(e.ToolCalls, calls) {
			t.Errorf("entry %d: journaled tool calls = %+v, want those the client received %+v", i+1, e.ToolCalls, calls)
		}
	}
	if got := entries[2].ReplyText; got != agentFinal {
		t.Errorf("entry 3 reply text = %q, want %q", got, agentFinal)
	}
}

// openaiGoAgent completes with openai-go. Streamed answers are reassembled
// with the SDK's accumulator; tool calls are taken as JustFinishedToolCall
// reports them and checked against the accumulated message.
func openaiGoAgent(sess *session.Session, stream bool) completeFunc {
	client := openai.NewClient(
		option.WithBaseURL(sess.BaseURL()),
		option.WithAPIKey(agentAPIKey),
		option.WithHTTPClient(sess.HTTPClient()),
		option.WithMaxRetries(0))
	tools := []openai.ChatCompletionToolUnionParam{
		openai.ChatCompletionFunctionTool(openai.FunctionDefinitionParam{
			Name:        "get_weather",
			Description: openai.String("Current weather of a city"),
			Parameters: openai.FunctionParameters{
				"type":       "object",
				"properties": map[string]any{"city": map[string]any{"type": "string"}},
				"required":   []string{"city"},
			},
		}),
		openai.ChatCompletionFunctionTool(openai.FunctionDefinitionParam{
			Name:       "get_time",
			Parameters: openai.FunctionParameters{"type": "object", "properties": map[string]any{"city": map[string]any{"type": "string"}}},
		}),
	}
	return func(ctx context.Context, msgs []agentMessage) (modelTurn, error) {
		params := openai.ChatCompletionNewParams{Model: agentModel, Tools: tools}
		for _, m := range msgs {
			params.Messages = append(params.Messages, openaiGoMessage(m))
		}
		if !stream {
			resp, err := client.Chat.Completions.New(ctx, params)
			if err != nil {
				return modelTurn{}, err
			}
			if len(resp.Choices) != 1 {
				return modelTurn{}, fmt.Errorf("%d choices, want 1", len(resp.Choices))
			}
			c := resp.Choices[0]
			turn := modelTurn{content: c.Message.Content, finish: c.FinishReason}
			for _, tc := range c.Message.ToolCalls {
				turn.calls = append(turn.calls, agentCall{tc.ID, tc.Function.Name, tc.Function.Arguments})
			}
			return turn, nil
		}
		s := client.Chat.Completions.NewStreaming(ctx, params)
		defer s.Close()
		var acc openai.ChatCompletionAccumulator
		var finished []agentCall
		for s.Next() {
			if !acc.AddChunk(s.Current()) {
				return modelTurn{}, fmt.Errorf("the accumulator refused chunk %s", s.Current().RawJSON())
			}
			if tc, ok := acc.JustFinishedToolCall(); ok {
				if tc.Index != len(finished) {
					return modelTurn{}, fmt.Errorf("tool call %d finished as number %d", tc.Index, len(finished))
				}
				finished = append(finished, agentCall{tc.ID, tc.Name, tc.Arguments})
			}
		}
		if err := s.Err(); err != nil {
			return modelTurn{}, err
		}
		if len(acc.Choices) != 1 {
			return modelTurn{}, fmt.Errorf("%d accumulated choices, want 1", len(acc.Choices))
		}
		c := acc.Choices[0]
		var accumulated []agentCall
		for _, tc := range c.Message.ToolCalls {
			accumulated = append(accumulated, agentCall{tc.ID, tc.Function.Name, tc.Function.Arguments})
		}
		if !reflect.DeepEqual(finished, accumulated) {
			return modelTurn{}, fmt.Errorf("JustFinishedToolCall reported %+v, the accumulated message has %+v", finished, accumulated)
		}
		return modelTurn{content: c.Message.Content, calls: finished, finish: c.FinishReason}, nil
	}
}

func openaiGoMessage(m agentMessage) openai.ChatCompletionMessageParamUnion {
	switch m.role {
	case "system":
		return openai.SystemMessage(m.content)
	case "tool":
		return openai.ToolMessage(m.content, m.callID)
	case "assistant":
		a := &openai.ChatCompletionAssistantMessageParam{}
		if m.content != "" {
			a.Content.OfString = openai.String(m.content)
		}
		for _, c := range m.calls {
			a.ToolCalls = append(a.ToolCalls, openai.ChatCompletionMessageToolCallUnionParam{
				OfFunction: &openai.ChatCompletionMessageFunctionToolCallParam{
					ID:       c.id,
					Function: openai.ChatCompletionMessageFunctionToolCallFunctionParam{Name: c.name, Arguments: c.arguments},
				},
			})
		}
		return openai.ChatCompletionMessageParamUnion{OfAssistant: a}
	default:
		return openai.UserMessage(m.content)
	}
}

// goOpenAIAgent completes with go-openai. Streamed tool calls are merged by
// ToolCall.Index, as go-openai leaves that to the caller.
func goOpenAIAgent(sess *session.Session, stream bool) completeFunc {
	cfg := goopenai.DefaultConfig(agentAPIKey)
	cfg.BaseURL = sess.BaseURL()
	cfg.HTTPClient = sess.HTTPClient()
	client := goopenai.NewClientWithConfig(cfg)
	tools := []goopenai.Tool{
		{Type: goopenai.ToolTypeFunction, Function: &goopenai.FunctionDefinition{
			Name:        "get_weather",
			Description: "Current weather of a city",
			Parameters:  map[string]any{"type": "object", "properties": map[string]any{"city": map[string]any{"type": "string"}}, "required": []string{"city"}},
		}},
		{Type: goopenai.ToolTypeFunction, Function: &goopenai.FunctionDefinition{
			Name:       "get_time",
			Parameters: map[string]any{"type": "object", "properties": map[string]any{"city": map[string]any{"type": "string"}}},
		}},
	}
	return func(ctx context.Context, msgs []agentMessage) (modelTurn, error) {
		req := goopenai.ChatCompletionRequest{Model: agentModel, Tools: tools}
		for _, m := range msgs {
			gm := goopenai.ChatCompletionMessage{Role: m.role, Content: m.content, ToolCallID: m.callID}
			for _, c := range m.calls {
				gm.ToolCalls = append(gm.ToolCalls, goopenai.ToolCall{ID: c.id, Type: goopenai.ToolTypeFunction,
					Function: goopenai.FunctionCall{Name: c.name, Arguments: c.arguments}})
			}
			req.Messages = append(req.Messages, gm)
		}
		if !stream {
			resp, err := client.CreateChatCompletion(ctx, req)
			if err != nil {
				return modelTurn{}, err
			}
			if len(resp.Choices) != 1 {
				return modelTurn{}, fmt.Errorf("%d choices, want 1", len(resp.Choices))
			}
			c := resp.Choices[0]
			turn := modelTurn{content: c.Message.Content, finish: string(c.FinishReason)}
			for _, tc := range c.Message.ToolCalls {
				turn.calls = append(turn.calls, agentCall{tc.ID, tc.Function.Name, tc.Function.Arguments})
			}
			return turn, nil
		}
		req.Stream = true
		s, err := client.CreateChatCompletionStream(ctx, req)
		if err != nil {
			return modelTurn{}, err
		}
		defer s.Close()
		var turn modelTurn
		var content strings.Builder
		for {
			chunk, err := s.Recv()
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				return modelTurn{}, err
			}
			for _, c := range chunk.Choices {
				if c.Index != 0 {
					return modelTurn{}, fmt.Errorf("chunk for choice %d, want only 0", c.Index)
				}
				content.WriteString(c.Delta.Content)
				for _, tc := range c.Delta.ToolCalls {
					if tc.Index == nil {
						return modelTurn{}, errors.New("a streamed tool call fragment has no index")
					}
					i := *tc.Index
					if i < 0 || i > len(turn.calls) {
						return modelTurn{}, fmt.Errorf("tool call index %d after %d calls", i, len(turn.calls))
					}
					if i == len(turn.calls) {
						turn.calls = append(turn.calls, agentCall{})
					}
					if tc.ID != "" {
						turn.calls[i].id = tc.ID
					}
					// Like openai-go's accumulator, names are appended: a
					// name repeated in later fragments would show.
					turn.calls[i].name += tc.Function.Name
					turn.calls[i].arguments += tc.Function.Arguments
				}
				if c.FinishReason != "" {
					turn.finish = string(c.FinishReason)
				}
			}
		}
		turn.content = content.String()
		return turn, nil
	}
}
