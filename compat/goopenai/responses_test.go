package goopenai_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/llmtestserver/llmtestserver/internal/e2e"
	"github.com/llmtestserver/llmtestserver/llmtest"
	"github.com/llmtestserver/llmtestserver/scenario"
	"github.com/llmtestserver/llmtestserver/session"
	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/responses"
	goopenai "github.com/sashabaranov/go-openai"
)

// rsGoClient returns a go-openai client that talks to sess.
func rsGoClient(sess *session.Session) *goopenai.Client {
	cfg := goopenai.DefaultConfig("k")
	cfg.BaseURL = sess.BaseURL()
	cfg.HTTPClient = sess.HTTPClient()
	return goopenai.NewClientWithConfig(cfg)
}

// rsWantGoError checks that err is go-openai's API error with this status,
// code and param ("" for null).
func rsWantGoError(t *testing.T, what string, err error, status int, code, param string) *goopenai.APIError {
	t.Helper()
	var apiErr *goopenai.APIError
	if !errors.As(err, &apiErr) {
		t.Fatalf("%s: err = %v (%T), want *goopenai.APIError %d", what, err, err, status)
	}
	gotCode, _ := apiErr.Code.(string)
	gotParam := ""
	if apiErr.Param != nil {
		gotParam = *apiErr.Param
	}
	if apiErr.HTTPStatusCode != status || gotCode != code || gotParam != param {
		t.Errorf("%s: go-openai error %d code %v param %q (%s), want %d code %q param %q",
			what, apiErr.HTTPStatusCode, apiErr.Code, gotParam, apiErr.Message, status, code, param)
	}
	return apiErr
}

// One scenario, kept with Repeat, answers Chat Completions and the
// Responses API alike, through both SDKs.
func TestResponsesAndChatShareAScenario(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t)
	sess := srv.NewSession(t)
	const answer = "Same answer everywhere."
	sess.Chat("both").When(scenario.UserContains("hello")).Responds(answer).Repeat()
	client := e2e.ClientFor(sess, "k")
	ctx := t.Context()

	chat, err := client.Chat.Completions.New(ctx, e2e.UserTurn(e2e.ResponsesModel, "hello chat"))
	if err != nil || chat.Choices[0].Message.Content != answer {
		t.Fatalf("chat completion: %v, %+v", err, chat)
	}
	if r := e2e.Respond(t, client, responses.ResponseNewParams{Model: e2e.ResponsesModel, Input: e2e.InputText("hello responses")}, false); r.OutputText() != answer {
		t.Errorf("Responses: %q", r.OutputText())
	}
	if r := e2e.Respond(t, client, responses.ResponseNewParams{Model: e2e.ResponsesModel, Input: e2e.InputText("hello stream")}, true); r.OutputText() != answer {
		t.Errorf("streamed Responses: %q", r.OutputText())
	}
	goClient := rsGoClient(sess)
	goResp, err := goClient.CreateResponse(ctx, goopenai.CreateResponseRequest{Model: e2e.ResponsesModel, Input: "hello go-openai"})
	if err != nil || goResp.GetOutputText() != answer {
		t.Errorf("go-openai CreateResponse: %v, %q", err, goResp.GetOutputText())
	}
	goChat, err := goClient.CreateChatCompletion(ctx, goopenai.ChatCompletionRequest{Model: e2e.ResponsesModel,
		Messages: []goopenai.ChatCompletionMessage{{Role: "user", Content: "hello again"}}})
	if err != nil || goChat.Choices[0].Message.Content != answer {
		t.Errorf("go-openai chat: %v", err)
	}

	entries := e2e.JournalOf(t, sess, 5)
	paths := make([]string, len(entries))
	for i, e := range entries {
		paths[i] = e.Path
		if e.Scenario != "both" || e.ReplyText != answer {
			t.Errorf("entry %d: scenario %q reply %q, want the shared scenario", i+1, e.Scenario, e.ReplyText)
		}
	}
	want := []string{"/v1/chat/completions", "/v1/responses", "/v1/responses", "/v1/responses", "/v1/chat/completions"}
	if !slices.Equal(paths, want) {
		t.Errorf("paths %v, want %v", paths, want)
	}
}

// goResponseItems decodes go-openai's untyped output items.
func goResponseItems(t *testing.T, output []any) []goopenai.ResponseOutputItem {
	t.Helper()
	b, err := json.Marshal(output)
	if err != nil {
		t.Fatal(err)
	}
	var items []goopenai.ResponseOutputItem
	if err := json.Unmarshal(b, &items); err != nil {
		t.Fatalf("output %s: %v", b, err)
	}
	return items
}

// go-openai decodes our Responses answers, plain and streamed, through a
// tool loop chained with previous_response_id.
func TestResponsesDecodeInGoOpenAI(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t)
	ctx := t.Context()
	tools := []goopenai.ResponseTool{goopenai.NewResponseFunctionTool(goopenai.FunctionDefinition{
		Name: "get_weather", Parameters: map[string]any{"type": "object", "properties": map[string]any{"city": map[string]any{"type": "string"}}},
	})}
	for _, stream := range []bool{false, true} {
		t.Run(fmt.Sprint("stream=", stream), func(t *testing.T) {
			t.Parallel()
			sess := srv.NewSession(t)
			sess.Chat("answer").When(scenario.HasToolResult("get_weather")).Responds("Sunny <and> warm & dry.")
			sess.Chat("ask").When(scenario.ToolOffered("get_weather")).CallsTool("get_weather", `{"city":"Paris"}`)
			client := rsGoClient(sess)
			create := func(req goopenai.CreateResponseRequest) goopenai.CreateResponseResponse {
				t.Helper()
				if !stream {
					r, err := client.CreateResponse(ctx, req)
					if err != nil {
						t.Fatalf("CreateResponse: %v", err)
					}
					return r
				}
				return goCollect(t, ctx, client, req)
			}
			r1 := create(goopenai.CreateResponseRequest{Model: e2e.ResponsesModel, Input: "Weather in Paris?", Tools: tools})
			items := goResponseItems(t, r1.Output)
			if r1.Status != goopenai.ResponseStatusCompleted || r1.Created == 0 || len(items) != 1 || items[0].Type != "function_call" ||
				items[0].Name != "get_weather" || items[0].Arguments != `{"city":"Paris"}` || !strings.HasPrefix(items[0].CallID, "call_") {
				t.Fatalf("first response %+v with items %+v, want one get_weather call", r1, items)
			}
			if r1.Usage == nil || r1.Usage.InputTokens == 0 || r1.Usage.TotalTokens != r1.Usage.InputTokens+r1.Usage.OutputTokens {
				t.Errorf("usage %+v", r1.Usage)
			}
			r2 := create(goopenai.CreateResponseRequest{Model: e2e.ResponsesModel, PreviousResponseID: r1.ID, Tools: tools,
				Input: []any{goopenai.ResponseFunctionCallOutput{Type: "function_call_output", CallID: items[0].CallID, Output: "sunny"}}})
			if r2.GetOutputText() != "Sunny <and> warm & dry." || r2.PreviousResponseID != r1.ID || r2.Conversation != nil {
				t.Errorf("second response: text %q previous %q conversation %+v", r2.GetOutputText(), r2.PreviousResponseID, r2.Conversation)
			}
			if r2.CompletedAt == nil || *r2.CompletedAt < r2.Created {
				t.Errorf("completed_at %v, created_at %d", r2.CompletedAt, r2.Created)
			}
		})
	}
}

// goCollect reads a go-openai Responses stream to io.EOF: every event must
// decode, the deltas must add up to the items, and the response.completed
// event's response is returned.
func goCollect(t *testing.T, ctx context.Context, client *goopenai.Client, req goopenai.CreateResponseRequest) goopenai.CreateResponseResponse {
	t.Helper()
	stream, err := client.CreateResponseStream(ctx, req)
	if err != nil {
		t.Fatalf("CreateResponseStream: %v", err)
	}
	defer stream.Close()
	var completed *goopenai.CreateResponseResponse
	deltas := map[string]string{}
	for n := 0; ; n++ {
		ev, err := stream.Recv()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatalf("event %d: %v", n, err)
		}
		if len(ev.Raw) == 0 || ev.SequenceNumber != n {
			t.Errorf("event %d (%s): sequence_number %d, raw %q", n, ev.Type, ev.SequenceNumber, ev.Raw)
		}
		switch ev.Type {
		case "response.output_text.delta", "response.function_call_arguments.delta":
			deltas[ev.ItemID] += ev.Delta
		case "response.output_text.done":
			if deltas[ev.ItemID] != ev.Text {
				t.Errorf("text deltas %q, done %q", deltas[ev.ItemID], ev.Text)
			}
		case "response.function_call_arguments.done":
			if deltas[ev.ItemID] != ev.Arguments {
				t.Errorf("argument deltas %q, done %q", deltas[ev.ItemID], ev.Arguments)
			}
		case "response.completed":
			if completed != nil || ev.Response == nil {
				t.Fatalf("response.completed twice or without a response: %s", ev.Raw)
			}
			completed = ev.Response
		}
	}
	if completed == nil {
		t.Fatal("the stream ended without response.completed")
	}
	return *completed
}

// Malformed conversations are refused with the API's errors, as both SDKs
// parse them, before any scripted reply is used.
func TestResponsesValidationThroughTheSDKs(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t)
	sess := srv.NewSession(t)
	sess.Chat("ask").When(scenario.ToolOffered("get_weather")).CallsTool("get_weather", `{"city":"Paris"}`)
	sess.Chat("text").When(scenario.Not(scenario.ToolOffered("get_weather"))).Responds("Plain text.").Repeat()
	client := e2e.ClientFor(sess, "k")
	goClient := rsGoClient(sess)
	ctx := t.Context()
	withCall := e2e.Respond(t, client, responses.ResponseNewParams{Model: e2e.ResponsesModel, Tools: e2e.WeatherTools(), Input: e2e.InputText("Weather?")}, false)
	plain := e2e.Respond(t, client, responses.ResponseNewParams{Model: e2e.ResponsesModel, Input: e2e.InputText("Hi")}, false)
	callID := withCall.Output[0].AsFunctionCall().CallID
	pending := sess.Pending()

	cases := []struct {
		name    string
		params  responses.ResponseNewParams
		goReq   *goopenai.CreateResponseRequest
		status  int
		code    string
		param   string
		message string
	}{
		{
			name:   "function_call_output with an unknown call_id",
			params: responses.ResponseNewParams{Model: e2e.ResponsesModel, Input: e2e.InputItems(e2e.CallOutput("call_unknown", "42"))},
			goReq: &goopenai.CreateResponseRequest{Model: e2e.ResponsesModel, Input: []any{goopenai.ResponseFunctionCallOutput{
				Type: "function_call_output", CallID: "call_unknown", Output: "42"}}},
			status: 400, param: "input", message: "No tool call found for function call output with call_id call_unknown",
		},
		{
			name: "function_call_output quoting no call of the chain",
			params: responses.ResponseNewParams{Model: e2e.ResponsesModel, PreviousResponseID: openai.String(plain.ID),
				Input: e2e.InputItems(e2e.CallOutput("call_unknown", "42"))},
			status: 400, param: "input", message: "call_unknown",
		},
		{
			name: "function_call without output in the input",
			params: responses.ResponseNewParams{Model: e2e.ResponsesModel, Input: e2e.InputItems(
				responses.ResponseInputItemParamOfMessage("Weather?", responses.EasyInputMessageRoleUser),
				responses.ResponseInputItemParamOfFunctionCall(`{"city":"Rome"}`, "call_open", "get_weather"))},
			goReq: &goopenai.CreateResponseRequest{Model: e2e.ResponsesModel, Input: []any{
				map[string]any{"role": "user", "content": "Weather?"},
				map[string]any{"type": "function_call", "call_id": "call_open", "name": "get_weather", "arguments": "{}"}}},
			status: 400, param: "input", message: "No tool output found for function call call_open",
		},
		{
			name: "function_call of the chain left without output",
			params: responses.ResponseNewParams{Model: e2e.ResponsesModel, PreviousResponseID: openai.String(withCall.ID),
				Input: e2e.InputText("Never mind the weather.")},
			goReq:  &goopenai.CreateResponseRequest{Model: e2e.ResponsesModel, PreviousResponseID: withCall.ID, Input: "Never mind."},
			status: 400, param: "input", message: "No tool output found for function call " + callID,
		},
		{
			name: "conversation and previous_response_id together",
			params: responses.ResponseNewParams{Model: e2e.ResponsesModel, PreviousResponseID: openai.String(plain.ID),
				Conversation: responses.ResponseNewParamsConversationUnion{OfString: openai.String("conv_1")}, Input: e2e.InputText("Hi")},
			goReq:  &goopenai.CreateResponseRequest{Model: e2e.ResponsesModel, PreviousResponseID: plain.ID, Conversation: "conv_1", Input: "Hi"},
			status: 400, code: "mutually_exclusive_parameters", message: "Mutually exclusive parameters",
		},
		{
			name:   "missing model",
			params: responses.ResponseNewParams{Input: e2e.InputText("Hi")},
			goReq:  &goopenai.CreateResponseRequest{Input: "Hi"},
			status: 400, code: "missing_required_parameter", param: "model",
		},
	}
	for _, tc := range cases {
		_, err := client.Responses.New(ctx, tc.params)
		apiErr := e2e.WantInvalidRequest(t, tc.name, err, tc.status, tc.code, tc.param)
		if !strings.Contains(apiErr.Message, tc.message) {
			t.Errorf("%s: message %q does not contain %q", tc.name, apiErr.Message, tc.message)
		}
		if tc.goReq != nil {
			_, err := goClient.CreateResponse(ctx, *tc.goReq)
			rsWantGoError(t, "go-openai: "+tc.name, err, tc.status, tc.code, tc.param)
		}
	}
	if got := sess.Pending(); got != pending {
		t.Errorf("refused requests used replies: %d pending, want %d", got, pending)
	}
	for _, e := range sess.Journal().Entries()[2:] {
		if e.Status != http.StatusBadRequest || e.Scenario != "" {
			t.Errorf("journal entry %+v, want a refused request", e)
		}
	}
	// The chain with the open call still continues once the call is answered.
	r := e2e.Respond(t, client, responses.ResponseNewParams{Model: e2e.ResponsesModel, PreviousResponseID: openai.String(withCall.ID),
		Input: e2e.InputItems(e2e.CallOutput(callID, "sunny"))}, false)
	if r.OutputText() != "Plain text." {
		t.Errorf("answered chain: %q", r.OutputText())
	}
}
