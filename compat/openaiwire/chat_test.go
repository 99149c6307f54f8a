package openaiwire_test

import (
	"bytes"
	"encoding/json"
	"reflect"
	"testing"

	. "github.com/llmtestserver/llmtestserver/internal/openai"
	"github.com/llmtestserver/llmtestserver/internal/plainjson"
	"github.com/llmtestserver/llmtestserver/scenario"
	oai "github.com/openai/openai-go/v3"
	goai "github.com/sashabaranov/go-openai"
)

// mustDecode decodes body and fails the test on refusal.
func mustDecode(t *testing.T, body []byte) (*ChatRequest, *scenario.Request) {
	t.Helper()
	req, err := DecodeChatRequest(body)
	if err != nil {
		t.Fatalf("refused %s: %v", body, err)
	}
	return req, req.Normalize()
}

// marshal encodes v; a completion is also written with WriteJSON, which must
// give the same bytes.
func marshal(t *testing.T, v any) []byte {
	t.Helper()
	b, err := plainjson.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	if c, ok := v.(*ChatCompletion); ok {
		var w bytes.Buffer
		if err := c.WriteJSON(&w); err != nil || !bytes.Equal(w.Bytes(), b) {
			t.Fatalf("WriteJSON = %q, %v; plainjson.Marshal = %q", w.Bytes(), err, b)
		}
	}
	return b
}

func equal(t *testing.T, what string, got, want any) {
	t.Helper()
	if !reflect.DeepEqual(got, want) {
		t.Errorf("%s:\n got %#v\nwant %#v", what, got, want)
	}
}

func jsonEqual(t *testing.T, what string, got []byte, want string) {
	t.Helper()
	var g, w any
	if err := json.Unmarshal(got, &g); err != nil {
		t.Errorf("%s: %s is not JSON: %v", what, got, err)
		return
	}
	if err := json.Unmarshal([]byte(want), &w); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(g, w) {
		t.Errorf("%s = %s, want %s", what, got, want)
	}
}

const weatherSchema = `{"type":"object","properties":{"city":{"type":"string"}},"required":["city"],"additionalProperties":false}`

// go-openai always sends "stream", types parallel_tool_calls as any, sends
// parameters:null for a tool without them, and has its own tool_choice and
// multi-content shapes.
func TestDecodeGoOpenAIRequest(t *testing.T) {
	seed := 3
	body := marshal(t, goai.ChatCompletionRequest{
		Model: "gpt-4o",
		Messages: []goai.ChatCompletionMessage{
			{Role: "system", Content: "sys"},
			{Role: "user", Name: "bob", MultiContent: []goai.ChatMessagePart{
				{Type: "text", Text: "look"}, {Type: "image_url", ImageURL: &goai.ChatMessageImageURL{URL: "data:image/png;base64,AA==", Detail: "high"}}}},
			{Role: "assistant", ToolCalls: []goai.ToolCall{{ID: "call_9", Type: "function", Function: goai.FunctionCall{Name: "now", Arguments: "{}"}}}},
			{Role: "tool", ToolCallID: "call_9", Content: "noon"},
			{Role: "assistant", Refusal: "I can't."},
			{Role: "user", Content: "why"},
		},
		Tools: []goai.Tool{
			{Type: "function", Function: &goai.FunctionDefinition{Name: "now"}},
			{Type: "function", Function: &goai.FunctionDefinition{Name: "get_weather", Strict: true, Parameters: json.RawMessage(weatherSchema)}},
		},
		ToolChoice:        goai.ToolChoice{Type: "function", Function: goai.ToolFunction{Name: "now"}},
		ParallelToolCalls: true,
		ResponseFormat: &goai.ChatCompletionResponseFormat{Type: "json_schema", JSONSchema: &goai.ChatCompletionResponseFormatJSONSchema{
			Name: "w", Schema: json.RawMessage(weatherSchema), Strict: true}},
		MaxTokens:        50,
		N:                2,
		Seed:             &seed,
		SafetyIdentifier: "sid",
		Store:            true,
		Metadata:         map[string]string{"a": "b"},
	})
	if !bytes.Contains(body, []byte(`"stream":false`)) || !bytes.Contains(body, []byte(`"parameters":null`)) {
		t.Fatalf("go-openai body no longer has the shapes this test is about: %s", body)
	}
	req, n := mustDecode(t, body)
	if req.Stream || req.Choices() != 2 || *req.MaxTokens != 50 || *req.Seed != 3 {
		t.Errorf("stream %v n %d", req.Stream, req.Choices())
	}
	if got := string(req.ParallelToolCalls); got != "true" {
		t.Errorf("parallel_tool_calls = %s, want true", got)
	}
	if req.Messages[4].Refusal != "I can't." {
		t.Errorf("refusal = %q", req.Messages[4].Refusal)
	}
	equal(t, "messages", n.Messages, []scenario.Message{
		{Role: "user", Name: "bob", Content: "look"},
		{Role: "assistant", ToolCalls: []scenario.ToolCall{{ID: "call_9", Name: "now", Arguments: "{}"}}},
		{Role: "tool", Content: "noon", ToolCallID: "call_9"},
		{Role: "assistant"},
		{Role: "user", Content: "why"},
	})
	if n.System != "sys" || n.ToolChoice != "now" || n.User != "sid" || n.Tools[0].Parameters != nil || len(n.Tools) != 2 {
		t.Errorf("normalized = %+v", n)
	}
	jsonEqual(t, "schema", n.ResponseFormat.Schema, weatherSchema)
	if n.ResponseFormat.Name != "w" || !n.ResponseFormat.Strict || n.ResponseFormat.Type != "json_schema" {
		t.Errorf("response format = %+v", n.ResponseFormat)
	}

	// Streaming, json_object, string tool_choice, parallel_tool_calls of
	// another JSON type, and the legacy functions/function_call pair. The
	// user says JSON: the real API refuses json_object otherwise.
	body = marshal(t, goai.ChatCompletionRequest{
		Model:             "gpt-4o",
		Messages:          []goai.ChatCompletionMessage{{Role: "user", Content: "hi, in JSON"}, {Role: "assistant", FunctionCall: &goai.FunctionCall{Name: "f", Arguments: `{"x":1}`}}, {Role: "function", Name: "f", Content: "1"}},
		Stream:            true,
		StreamOptions:     &goai.StreamOptions{IncludeUsage: true},
		ResponseFormat:    &goai.ChatCompletionResponseFormat{Type: "json_object"},
		Functions:         []goai.FunctionDefinition{{Name: "f", Description: "legacy"}},
		FunctionCall:      "auto",
		ParallelToolCalls: map[string]any{"odd": true},
	})
	req, n = mustDecode(t, body)
	if !req.Stream || !req.IncludeUsage() || !n.Stream || n.ToolChoice != "auto" || n.ResponseFormat.Type != "json_object" {
		t.Errorf("request %+v normalized %+v", req, n)
	}
	if jsonKind(req.ParallelToolCalls) == "bool" {
		t.Errorf("parallel_tool_calls = %s decodes as a boolean", req.ParallelToolCalls)
	}
	equal(t, "legacy tools", n.Tools, []scenario.Tool{{Name: "f", Description: "legacy"}})
	equal(t, "legacy call", n.Messages[1].ToolCalls, []scenario.ToolCall{{Name: "f", Arguments: `{"x":1}`}})
}

var toolAnswer = &ChatAnswer{ID: "chatcmpl-t", Created: 1700000000, Model: "gpt-4.1", ToolCalls: []scenario.ToolCall{
	{ID: "call_A", Name: "get_weather", Arguments: `{"city":"Paris","unit":"celsius"}`},
	{ID: "call_B", Name: "get_time", Arguments: `{"tz":"Europe/Rome"}`},
}, Usage: NewUsage(20, 12)}

// Completions decode in both SDKs: content null beside tool calls, refusal
// null unless refusing, n identical choices, usage details.
func TestCompletionDecodesInBothSDKs(t *testing.T) {
	usage := NewUsage(1100, 5)
	usage.PromptTokensDetails.CachedTokens = 1024
	for _, tt := range []struct {
		name    string
		a       *ChatAnswer
		content *string
		refusal *string
		finish  string
	}{
		{"text", &ChatAnswer{Text: "Hello <b>&", Usage: usage}, ptr("Hello <b>&"), nil, "stop"},
		{"empty text", &ChatAnswer{}, ptr(""), nil, "stop"},
		{"tool calls", toolAnswer, nil, nil, "tool_calls"},
		{"text and tool calls", &ChatAnswer{Text: "Checking.", ToolCalls: toolAnswer.ToolCalls[:1]}, ptr("Checking."), nil, "tool_calls"},
		{"refusal", &ChatAnswer{Refusal: "I can't help with that."}, nil, ptr("I can't help with that."), "stop"},
		{"length", &ChatAnswer{Text: "cut", FinishReason: "length", N: 3}, ptr("cut"), nil, "length"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			a := *tt.a
			a.ID, a.Created, a.Model = "chatcmpl-x", 1700000000, "gpt-4.1-mini"
			body := marshal(t, a.Completion())
			var raw struct {
				Choices []struct {
					Message  map[string]json.RawMessage
					Logprobs json.RawMessage
				}
				ServiceTier, SystemFingerprint string
			}
			json.Unmarshal(body, &raw)
			msg := raw.Choices[0].Message
			jsonEqual(t, "content", msg["content"], string(marshal(t, tt.content)))
			jsonEqual(t, "refusal", msg["refusal"], string(marshal(t, tt.refusal)))
			jsonEqual(t, "annotations", msg["annotations"], `[]`)
			if _, has := msg["tool_calls"]; has != (len(a.ToolCalls) > 0) {
				t.Errorf("tool_calls key present %v with %d calls", has, len(a.ToolCalls))
			}
			if string(raw.Choices[0].Logprobs) != "null" {
				t.Errorf("logprobs %s", raw.Choices[0].Logprobs)
			}

			var got oai.ChatCompletion
			if err := json.Unmarshal(body, &got); err != nil {
				t.Fatal(err)
			}
			if len(got.Choices) != max(a.N, 1) || got.Created != 1700000000 || got.Object != "chat.completion" || got.SystemFingerprint == "" || got.ServiceTier != "default" {
				t.Fatalf("openai-go decoded %+v", got)
			}
			for i, c := range got.Choices {
				m := c.Message
				if int(c.Index) != i || string(c.FinishReason) != tt.finish || m.Content != deref(tt.content) || m.Refusal != deref(tt.refusal) || len(m.ToolCalls) != len(a.ToolCalls) {
					t.Errorf("openai-go choice %d: %+v", i, c)
				}
				for j, call := range m.ToolCalls {
					if call.ID != a.ToolCalls[j].ID || call.Function.Name != a.ToolCalls[j].Name || call.Function.Arguments != a.ToolCalls[j].Arguments || call.Type != "function" {
						t.Errorf("openai-go call %d = %+v", j, call)
					}
				}
			}
			if int(got.Usage.PromptTokens) != a.Usage.PromptTokens || int(got.Usage.PromptTokensDetails.CachedTokens) != a.Usage.PromptTokensDetails.CachedTokens {
				t.Errorf("openai-go usage %+v", got.Usage)
			}

			var g goai.ChatCompletionResponse
			if err := json.Unmarshal(body, &g); err != nil {
				t.Fatal(err)
			}
			m := g.Choices[0].Message
			if string(g.Choices[0].FinishReason) != tt.finish || m.Content != deref(tt.content) || m.Refusal != deref(tt.refusal) || len(m.ToolCalls) != len(a.ToolCalls) || g.Usage.TotalTokens != a.Usage.TotalTokens {
				t.Errorf("go-openai decoded %+v", g)
			}
			if len(a.ToolCalls) > 0 && m.ToolCalls[0].Function.Arguments != a.ToolCalls[0].Arguments {
				t.Errorf("go-openai arguments %q", m.ToolCalls[0].Function.Arguments)
			}
			if g.Usage.PromptTokensDetails == nil || g.Usage.PromptTokensDetails.CachedTokens != a.Usage.PromptTokensDetails.CachedTokens {
				t.Errorf("go-openai usage %+v", g.Usage)
			}
		})
	}
}
