package goopenai_test

import (
	"errors"
	"net/http"
	"testing"

	"github.com/llmtestserver/llmtestserver/internal/e2e"
	"github.com/llmtestserver/llmtestserver/llmtest"
	"github.com/llmtestserver/llmtestserver/session"
	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
	goopenai "github.com/sashabaranov/go-openai"
)

const validationModel = "gpt-4.1-mini"

// apiErrorWant is an expected error envelope; empty code and param stand
// for null.
type apiErrorWant struct {
	status           int
	typ, code, param string
}

// validationCase is a malformed chat request, sent in every way that can
// send it: raw JSON, openai-go and go-openai.
type validationCase struct {
	name string
	want apiErrorWant
	// raw is the request body sent over plain HTTP.
	raw string
	// openaiGo builds the request for openai-go; nil when it cannot send
	// it. opts can bend the body where the SDK's types cannot express it.
	openaiGo func() (openai.ChatCompletionNewParams, []option.RequestOption)
	// goOpenAI builds the request for go-openai; nil when it cannot send it.
	goOpenAI func() goopenai.ChatCompletionRequest
	// goOpenAIRefuses is the error go-openai returns without sending.
	goOpenAIRefuses error
}

func invalidRequest(status int, code, param string) apiErrorWant {
	return apiErrorWant{status: status, typ: "invalid_request_error", code: code, param: param}
}

// Messages for the cases, in both SDKs' types.
func goMsgs(msgs ...goopenai.ChatCompletionMessage) []goopenai.ChatCompletionMessage { return msgs }

func goUser(text string) goopenai.ChatCompletionMessage {
	return goopenai.ChatCompletionMessage{Role: "user", Content: text}
}

func goCalls(ids ...string) goopenai.ChatCompletionMessage {
	m := goopenai.ChatCompletionMessage{Role: "assistant"}
	for _, id := range ids {
		m.ToolCalls = append(m.ToolCalls, goopenai.ToolCall{ID: id, Type: goopenai.ToolTypeFunction,
			Function: goopenai.FunctionCall{Name: "get_weather", Arguments: `{"city":"Paris"}`}})
	}
	return m
}

func goTool(content, id string) goopenai.ChatCompletionMessage {
	return goopenai.ChatCompletionMessage{Role: "tool", Content: content, ToolCallID: id}
}

func ogCalls(ids ...string) openai.ChatCompletionMessageParamUnion {
	a := &openai.ChatCompletionAssistantMessageParam{}
	for _, id := range ids {
		a.ToolCalls = append(a.ToolCalls, openai.ChatCompletionMessageToolCallUnionParam{
			OfFunction: &openai.ChatCompletionMessageFunctionToolCallParam{ID: id,
				Function: openai.ChatCompletionMessageFunctionToolCallFunctionParam{Name: "get_weather", Arguments: `{"city":"Paris"}`}},
		})
	}
	return openai.ChatCompletionMessageParamUnion{OfAssistant: a}
}

func ogParams(model string, msgs ...openai.ChatCompletionMessageParamUnion) openai.ChatCompletionNewParams {
	return openai.ChatCompletionNewParams{Model: model, Messages: msgs}
}

func goToolDef(name string) goopenai.Tool {
	return goopenai.Tool{Type: goopenai.ToolTypeFunction, Function: &goopenai.FunctionDefinition{Name: name}}
}

const (
	rawUser     = `{"role":"user","content":"Weather?"}`
	rawToolCall = `{"role":"assistant","tool_calls":[{"id":"call_1","type":"function","function":{"name":"get_weather","arguments":"{}"}}]}`
	longName    = "a_function_name_that_is_far_too_long_for_the_api_to_accept_it_xyz" // 65 characters
	weatherRF   = `"response_format":{"type":"json_schema","json_schema":{"schema":{"type":"object"}}}`
)

var validationCases = []validationCase{
	{
		name: "tool message without a preceding call",
		want: invalidRequest(400, "", "messages.[1].role"),
		raw:  `{"model":"gpt-4.1-mini","messages":[` + rawUser + `,{"role":"tool","tool_call_id":"call_1","content":"sunny"}]}`,
		openaiGo: func() (openai.ChatCompletionNewParams, []option.RequestOption) {
			return ogParams(validationModel, openai.UserMessage("Weather?"), openai.ToolMessage("sunny", "call_1")), nil
		},
		goOpenAI: func() goopenai.ChatCompletionRequest {
			return goopenai.ChatCompletionRequest{Model: validationModel, Messages: goMsgs(goUser("Weather?"), goTool("sunny", "call_1"))}
		},
	},
	{
		name: "tool message for a call nobody made",
		want: invalidRequest(400, "", "messages.[2].role"),
		raw:  `{"model":"gpt-4.1-mini","messages":[` + rawUser + `,` + rawToolCall + `,{"role":"tool","tool_call_id":"call_2","content":"sunny"}]}`,
		openaiGo: func() (openai.ChatCompletionNewParams, []option.RequestOption) {
			return ogParams(validationModel, openai.UserMessage("Weather?"), ogCalls("call_1"), openai.ToolMessage("sunny", "call_2")), nil
		},
		goOpenAI: func() goopenai.ChatCompletionRequest {
			return goopenai.ChatCompletionRequest{Model: validationModel, Messages: goMsgs(goUser("Weather?"), goCalls("call_1"), goTool("sunny", "call_2"))}
		},
	},
	{
		name: "unanswered tool call before a user message",
		want: invalidRequest(400, "", "messages.[1].role"),
		raw:  `{"model":"gpt-4.1-mini","messages":[` + rawUser + `,` + rawToolCall + `,{"role":"user","content":"And?"}]}`,
		openaiGo: func() (openai.ChatCompletionNewParams, []option.RequestOption) {
			return ogParams(validationModel, openai.UserMessage("Weather?"), ogCalls("call_1", "call_2"), openai.ToolMessage("sunny", "call_1"), openai.UserMessage("And?")), nil
		},
		goOpenAI: func() goopenai.ChatCompletionRequest {
			return goopenai.ChatCompletionRequest{Model: validationModel, Messages: goMsgs(goUser("Weather?"), goCalls("call_1"), goUser("And?"))}
		},
	},
	{
		name: "unanswered tool call at the end",
		want: invalidRequest(400, "", "messages.[1].role"),
		raw:  `{"model":"gpt-4.1-mini","messages":[` + rawUser + `,` + rawToolCall + `]}`,
		openaiGo: func() (openai.ChatCompletionNewParams, []option.RequestOption) {
			return ogParams(validationModel, openai.UserMessage("Weather?"), ogCalls("call_1")), nil
		},
		goOpenAI: func() goopenai.ChatCompletionRequest {
			return goopenai.ChatCompletionRequest{Model: validationModel, Messages: goMsgs(goUser("Weather?"), goCalls("call_1"))}
		},
	},
	{
		name: "tool message without tool_call_id",
		want: invalidRequest(400, "missing_required_parameter", "messages[2].tool_call_id"),
		raw:  `{"model":"gpt-4.1-mini","messages":[` + rawUser + `,` + rawToolCall + `,{"role":"tool","content":"sunny"}]}`,
		openaiGo: func() (openai.ChatCompletionNewParams, []option.RequestOption) {
			return ogParams(validationModel, openai.UserMessage("Weather?"), ogCalls("call_1"), openai.ToolMessage("sunny", "")),
				[]option.RequestOption{option.WithJSONDel("messages.2.tool_call_id")}
		},
		goOpenAI: func() goopenai.ChatCompletionRequest {
			return goopenai.ChatCompletionRequest{Model: validationModel, Messages: goMsgs(goUser("Weather?"), goCalls("call_1"), goTool("sunny", ""))}
		},
	},
	{
		name: "empty messages",
		want: invalidRequest(400, "empty_array", "messages"),
		raw:  `{"model":"gpt-4.1-mini","messages":[]}`,
		openaiGo: func() (openai.ChatCompletionNewParams, []option.RequestOption) {
			return ogParams(validationModel), []option.RequestOption{option.WithJSONSet("messages", []any{})}
		},
		goOpenAI: func() goopenai.ChatCompletionRequest {
			return goopenai.ChatCompletionRequest{Model: validationModel, Messages: []goopenai.ChatCompletionMessage{}}
		},
	},
	{
		name: "missing messages",
		want: invalidRequest(400, "missing_required_parameter", "messages"),
		raw:  `{"model":"gpt-4.1-mini"}`,
		openaiGo: func() (openai.ChatCompletionNewParams, []option.RequestOption) {
			return ogParams(validationModel), []option.RequestOption{option.WithJSONDel("messages")}
		},
	},
	{
		// The real API's own words: no param, no code.
		name: "missing model",
		want: invalidRequest(400, "", ""),
		raw:  `{"messages":[` + rawUser + `]}`,
		openaiGo: func() (openai.ChatCompletionNewParams, []option.RequestOption) {
			return ogParams("", openai.UserMessage("Hi")), []option.RequestOption{option.WithJSONDel("model")}
		},
		goOpenAI: func() goopenai.ChatCompletionRequest {
			return goopenai.ChatCompletionRequest{Messages: goMsgs(goUser("Hi"))}
		},
	},
	{
		name: "unknown role",
		want: invalidRequest(400, "invalid_value", "messages[0].role"),
		raw:  `{"model":"gpt-4.1-mini","messages":[{"role":"robot","content":"beep"}]}`,
		openaiGo: func() (openai.ChatCompletionNewParams, []option.RequestOption) {
			return ogParams(validationModel, openai.UserMessage("beep")), []option.RequestOption{option.WithJSONSet("messages.0.role", "robot")}
		},
		goOpenAI: func() goopenai.ChatCompletionRequest {
			return goopenai.ChatCompletionRequest{Model: validationModel, Messages: goMsgs(goopenai.ChatCompletionMessage{Role: "robot", Content: "beep"})}
		},
	},
	{
		name: "model the session does not serve",
		want: invalidRequest(404, "model_not_found", ""),
		raw:  `{"model":"gpt-4o","messages":[` + rawUser + `]}`,
		openaiGo: func() (openai.ChatCompletionNewParams, []option.RequestOption) {
			return ogParams("gpt-4o", openai.UserMessage("Hi")), nil
		},
		goOpenAI: func() goopenai.ChatCompletionRequest {
			return goopenai.ChatCompletionRequest{Model: "gpt-4o", Messages: goMsgs(goUser("Hi"))}
		},
	},
	{
		name: "max_tokens on a reasoning model",
		want: invalidRequest(400, "unsupported_parameter", "max_tokens"),
		raw:  `{"model":"o3","max_tokens":100,"messages":[` + rawUser + `]}`,
		openaiGo: func() (openai.ChatCompletionNewParams, []option.RequestOption) {
			p := ogParams("o3", openai.UserMessage("Hi"))
			p.MaxTokens = openai.Int(100)
			return p, nil
		},
		goOpenAI: func() goopenai.ChatCompletionRequest {
			return goopenai.ChatCompletionRequest{Model: "o3", MaxTokens: 100, Messages: goMsgs(goUser("Hi"))}
		},
		goOpenAIRefuses: goopenai.ErrReasoningModelMaxTokensDeprecated,
	},
	{
		name: "n above 128",
		want: invalidRequest(400, "integer_above_max_value", "n"),
		raw:  `{"model":"gpt-4.1-mini","n":129,"messages":[` + rawUser + `]}`,
		openaiGo: func() (openai.ChatCompletionNewParams, []option.RequestOption) {
			p := ogParams(validationModel, openai.UserMessage("Hi"))
			p.N = openai.Int(129)
			return p, nil
		},
		goOpenAI: func() goopenai.ChatCompletionRequest {
			return goopenai.ChatCompletionRequest{Model: validationModel, N: 129, Messages: goMsgs(goUser("Hi"))}
		},
	},
	{
		name: "n below 1",
		want: invalidRequest(400, "integer_below_min_value", "n"),
		raw:  `{"model":"gpt-4.1-mini","n":0,"messages":[` + rawUser + `]}`,
		openaiGo: func() (openai.ChatCompletionNewParams, []option.RequestOption) {
			p := ogParams(validationModel, openai.UserMessage("Hi"))
			p.N = openai.Int(0)
			return p, nil
		},
		// go-openai omits n:0.
	},
	{
		name: "tool_choice without tools",
		want: invalidRequest(400, "", "tool_choice"),
		raw:  `{"model":"gpt-4.1-mini","tool_choice":"auto","messages":[` + rawUser + `]}`,
		openaiGo: func() (openai.ChatCompletionNewParams, []option.RequestOption) {
			p := ogParams(validationModel, openai.UserMessage("Hi"))
			p.ToolChoice = openai.ChatCompletionToolChoiceOptionUnionParam{OfAuto: openai.String("auto")}
			return p, nil
		},
		goOpenAI: func() goopenai.ChatCompletionRequest {
			return goopenai.ChatCompletionRequest{Model: validationModel, ToolChoice: "auto", Messages: goMsgs(goUser("Hi"))}
		},
	},
	{
		name: "tool_choice naming a tool not offered",
		want: invalidRequest(400, "", "tool_choice"),
		raw: `{"model":"gpt-4.1-mini","tools":[{"type":"function","function":{"name":"get_weather"}}],` +
			`"tool_choice":{"type":"function","function":{"name":"send_email"}},"messages":[` + rawUser + `]}`,
		openaiGo: func() (openai.ChatCompletionNewParams, []option.RequestOption) {
			p := ogParams(validationModel, openai.UserMessage("Hi"))
			p.Tools = []openai.ChatCompletionToolUnionParam{e2e.ChatTool("get_weather")}
			p.ToolChoice = openai.ToolChoiceOptionFunctionToolChoice(openai.ChatCompletionNamedToolChoiceFunctionParam{Name: "send_email"})
			return p, nil
		},
		goOpenAI: func() goopenai.ChatCompletionRequest {
			return goopenai.ChatCompletionRequest{Model: validationModel, Messages: goMsgs(goUser("Hi")),
				Tools:      []goopenai.Tool{goToolDef("get_weather")},
				ToolChoice: goopenai.ToolChoice{Type: goopenai.ToolTypeFunction, Function: goopenai.ToolFunction{Name: "send_email"}}}
		},
	},
	{
		name: "bad tool name",
		want: invalidRequest(400, "invalid_value", "tools[0].function.name"),
		raw:  `{"model":"gpt-4.1-mini","tools":[{"type":"function","function":{"name":"get weather!"}}],"messages":[` + rawUser + `]}`,
		openaiGo: func() (openai.ChatCompletionNewParams, []option.RequestOption) {
			p := ogParams(validationModel, openai.UserMessage("Hi"))
			p.Tools = []openai.ChatCompletionToolUnionParam{e2e.ChatTool("get weather!")}
			return p, nil
		},
		goOpenAI: func() goopenai.ChatCompletionRequest {
			return goopenai.ChatCompletionRequest{Model: validationModel, Messages: goMsgs(goUser("Hi")), Tools: []goopenai.Tool{goToolDef("get weather!")}}
		},
	},
	{
		name: "tool name too long",
		want: invalidRequest(400, "string_above_max_length", "tools[1].function.name"),
		raw: `{"model":"gpt-4.1-mini","tools":[{"type":"function","function":{"name":"ok"}},` +
			`{"type":"function","function":{"name":"` + longName + `"}}],"messages":[` + rawUser + `]}`,
		openaiGo: func() (openai.ChatCompletionNewParams, []option.RequestOption) {
			p := ogParams(validationModel, openai.UserMessage("Hi"))
			p.Tools = []openai.ChatCompletionToolUnionParam{e2e.ChatTool("ok"), e2e.ChatTool(longName)}
			return p, nil
		},
		goOpenAI: func() goopenai.ChatCompletionRequest {
			return goopenai.ChatCompletionRequest{Model: validationModel, Messages: goMsgs(goUser("Hi")),
				Tools: []goopenai.Tool{goToolDef("ok"), goToolDef(longName)}}
		},
	},
	{
		name: "json_schema without name",
		want: invalidRequest(400, "missing_required_parameter", "response_format.json_schema.name"),
		raw:  `{"model":"gpt-4.1-mini",` + weatherRF + `,"messages":[` + rawUser + `]}`,
		openaiGo: func() (openai.ChatCompletionNewParams, []option.RequestOption) {
			p := e2e.StructuredParams("Hi")
			return p, []option.RequestOption{option.WithJSONDel("response_format.json_schema.name")}
		},
		// go-openai always sends the name, "" when unset: see the next case.
	},
	{
		name: "json_schema with an empty name",
		want: invalidRequest(400, "invalid_value", "response_format.json_schema.name"),
		raw:  `{"model":"gpt-4.1-mini","response_format":{"type":"json_schema","json_schema":{"name":"","schema":{}}},"messages":[` + rawUser + `]}`,
		openaiGo: func() (openai.ChatCompletionNewParams, []option.RequestOption) {
			p := e2e.StructuredParams("Hi")
			p.ResponseFormat.OfJSONSchema.JSONSchema.Name = ""
			return p, nil
		},
		goOpenAI: func() goopenai.ChatCompletionRequest {
			return goopenai.ChatCompletionRequest{Model: validationModel, Messages: goMsgs(goUser("Hi")),
				ResponseFormat: &goopenai.ChatCompletionResponseFormat{Type: goopenai.ChatCompletionResponseFormatTypeJSONSchema,
					JSONSchema: &goopenai.ChatCompletionResponseFormatJSONSchema{Schema: rawSchema(`{"type":"object"}`)}}}
		},
	},
	{
		name: "unknown response_format type",
		want: invalidRequest(400, "invalid_value", "response_format.type"),
		raw:  `{"model":"gpt-4.1-mini","response_format":{"type":"xml"},"messages":[` + rawUser + `]}`,
		openaiGo: func() (openai.ChatCompletionNewParams, []option.RequestOption) {
			return ogParams(validationModel, openai.UserMessage("Hi")), []option.RequestOption{option.WithJSONSet("response_format", map[string]string{"type": "xml"})}
		},
		goOpenAI: func() goopenai.ChatCompletionRequest {
			return goopenai.ChatCompletionRequest{Model: validationModel, Messages: goMsgs(goUser("Hi")),
				ResponseFormat: &goopenai.ChatCompletionResponseFormat{Type: "xml"}}
		},
	},
	{
		name: "messages of the wrong type",
		want: invalidRequest(400, "invalid_type", "messages"),
		raw:  `{"model":"gpt-4.1-mini","messages":"Hi"}`,
		openaiGo: func() (openai.ChatCompletionNewParams, []option.RequestOption) {
			return ogParams(validationModel), []option.RequestOption{option.WithJSONSet("messages", "Hi")}
		},
	},
	{
		name: "body that is not JSON",
		want: invalidRequest(400, "", ""),
		raw:  `{"model":"gpt-4.1-mini","messages":[`,
	},
}

// rawSchema is a JSON schema for go-openai's json.Marshaler field.
type rawSchema string

func (s rawSchema) MarshalJSON() ([]byte, error) { return []byte(s), nil }

// Every validation error of the chat endpoint comes back in the real API's
// envelope, parsed by both SDKs, and a refused request uses no reply.
func TestChatValidationErrors(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t)
	for _, tc := range validationCases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			sess := srv.NewSession(t, session.OnlyModels(validationModel, "o3"))
			sess.Chat("unused").Responds("a refused request never gets this")
			sent := 0

			r := e2e.Call(t, sess.HTTPClient(), http.MethodPost, sess.BaseURL()+"/chat/completions", tc.raw, e2e.SelectorOf(sess)...)
			sent++
			code, typ, param, msg := r.APIError(t)
			if r.Status != tc.want.status || typ != tc.want.typ || code != tc.want.code || param != tc.want.param {
				t.Errorf("raw: %d %s code %q param %q (%s), want %d %s code %q param %q",
					r.Status, typ, code, param, msg, tc.want.status, tc.want.typ, tc.want.code, tc.want.param)
			}

			if tc.openaiGo != nil {
				params, opts := tc.openaiGo()
				client := e2e.ClientFor(sess, "k")
				_, err := client.Chat.Completions.New(t.Context(), params, opts...)
				sent++
				var apiErr *openai.Error
				if !errors.As(err, &apiErr) {
					t.Fatalf("openai-go: err = %v, want *openai.Error", err)
				}
				if apiErr.StatusCode != tc.want.status || apiErr.Type != tc.want.typ || apiErr.Code != tc.want.code ||
					apiErr.Param != tc.want.param || apiErr.Message == "" {
					t.Errorf("openai-go: %d %s code %q param %q (%s), want %d %s code %q param %q",
						apiErr.StatusCode, apiErr.Type, apiErr.Code, apiErr.Param, apiErr.Message,
						tc.want.status, tc.want.typ, tc.want.code, tc.want.param)
				}
			}

			if tc.goOpenAI != nil {
				_, err := goOpenAIClient(sess).CreateChatCompletion(t.Context(), tc.goOpenAI())
				switch {
				case tc.goOpenAIRefuses != nil:
					if !errors.Is(err, tc.goOpenAIRefuses) {
						t.Errorf("go-openai: err = %v, want its client-side refusal %v", err, tc.goOpenAIRefuses)
					}
				default:
					sent++
					var apiErr *goopenai.APIError
					if !errors.As(err, &apiErr) {
						t.Fatalf("go-openai: err = %v, want *APIError", err)
					}
					if got := goParam(apiErr.Param); apiErr.HTTPStatusCode != tc.want.status || apiErr.Type != tc.want.typ ||
						goCode(apiErr.Code) != tc.want.code || got != tc.want.param || apiErr.Message == "" {
						t.Errorf("go-openai: %d %s code %v param %q (%s), want %d %s code %q param %q",
							apiErr.HTTPStatusCode, apiErr.Type, apiErr.Code, got, apiErr.Message,
							tc.want.status, tc.want.typ, tc.want.code, tc.want.param)
					}
					// go-openai decodes a null code as the int 0.
					if tc.want.code == "" && apiErr.Code != nil && apiErr.Code != 0 || tc.want.param == "" && apiErr.Param != nil {
						t.Errorf("go-openai: code %#v param %v, want null", apiErr.Code, apiErr.Param)
					}
				}
			}

			if got := sess.Pending(); got != 1 {
				t.Errorf("Pending = %d after refused requests, want 1", got)
			}
			entries := e2e.JournalOf(t, sess, sent)
			if len(entries) != sent {
				t.Fatalf("journal holds %d entries, want %d", len(entries), sent)
			}
			wantCode := tc.want.code
			if wantCode == "" {
				wantCode = tc.want.typ
			}
			for i, e := range entries {
				if e.Status != tc.want.status || e.ErrorCode != wantCode || e.Scenario != "" {
					t.Errorf("entry %d: status %d code %q scenario %q, want %d %q and no scenario", i+1, e.Status, e.ErrorCode, e.Scenario, tc.want.status, wantCode)
				}
			}
			if r := sess.Assertions(); r.UnmatchedTotal != 0 {
				t.Errorf("refused requests counted as unmatched: %d", r.UnmatchedTotal)
			}
		})
	}
}

func goParam(p *string) string {
	if p == nil {
		return ""
	}
	return *p
}

func goCode(c any) string {
	s, _ := c.(string)
	return s
}
