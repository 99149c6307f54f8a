package openai

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"

	oai "github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/shared"

	"github.com/llmtestserver/llmtestserver/internal/plainjson"
	"github.com/llmtestserver/llmtestserver/scenario"
)

func TestErrorEnvelope(t *testing.T) {
	b, err := json.Marshal(Envelope(MissingAPIKey()))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), `"param":null,"code":null`) {
		t.Errorf("envelope %s: want null param and code", b)
	}
	b, _ = json.Marshal(Envelope(ModelNotFound("x", []string{"gpt-4o"}, true)))
	if !strings.HasPrefix(string(b), `{"error":{"message":"The model `+"`x`"+` does not exist`) || !strings.Contains(string(b), `"code":"model_not_found"`) {
		t.Errorf("envelope %s", b)
	}
}

// A wrong key is masked as the real API masks it: shown whole up to 12
// bytes, else its first 8 and last 4 bytes around one asterisk a byte.
func TestInvalidAPIKeyMasksTheKey(t *testing.T) {
	for key, want := range map[string]string{
		"short-key":                  "short-key",
		"YOUR_API_KEY":               "YOUR_API_KEY",
		"your_key_here":              "your_key*here",
		"sk-not-a-real-key":          "sk-not-a*****-key",
		"sk-abcdefghijklmnopqrstuvw": "sk-abcde**************tuvw",
		"sk-proj-" + strings.Repeat("x", 150) + "MxYA": "sk-proj-" + strings.Repeat("*", 150) + "MxYA",
	} {
		msg := InvalidAPIKey(key).Message
		if want := "Incorrect API key provided: " + want + ". You can find your API key at https://platform.openai.com/account/api-keys."; msg != want {
			t.Errorf("message for %q = %q, want %q", key, msg, want)
		}
	}
}

// mustDecode decodes body and fails the test on refusal.
func mustDecode(t *testing.T, body []byte) (*ChatRequest, *scenario.Request) {
	t.Helper()
	req, err := DecodeChatRequest(body)
	if err != nil {
		t.Fatalf("refused %s: %v", body, err)
	}
	return req, req.Normalize()
}

// marshal encodes v as the server writes JSON (plainjson); a completion is
// also written with WriteJSON, which must give the same bytes.
func marshal(t *testing.T, v any) []byte {
	t.Helper()
	b, err := plainjson.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	if c, ok := v.(*ChatCompletion); ok {
		var w bytes.Buffer
		if err := c.WriteJSON(&w); err != nil || !bytes.Equal(w.Bytes(), b) {
			t.Fatalf("WriteJSON (%d bytes), %v differs from plainjson.Marshal (%d bytes)", w.Len(), err, len(b))
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

// A request with every field openai-go can send for a tool loop decodes and
// normalizes field by field.
func TestDecodeOpenAIGoRequest(t *testing.T) {
	var schema map[string]any
	json.Unmarshal([]byte(weatherSchema), &schema)
	params := oai.ChatCompletionNewParams{
		Model: "gpt-4.1-mini",
		Messages: []oai.ChatCompletionMessageParamUnion{
			oai.DeveloperMessage("Be brief."),
			oai.SystemMessage([]oai.ChatCompletionContentPartTextParam{{Text: "Use tools."}}),
			{OfUser: &oai.ChatCompletionUserMessageParam{Name: oai.String("ann"), Content: oai.ChatCompletionUserMessageParamContentUnion{
				OfArrayOfContentParts: []oai.ChatCompletionContentPartUnionParam{
					oai.TextContentPart("Weather in Paris?"),
					oai.ImageContentPart(oai.ChatCompletionContentPartImageImageURLParam{URL: "https://example.com/p.png", Detail: "low"}),
					oai.InputAudioContentPart(oai.ChatCompletionContentPartInputAudioInputAudioParam{Data: "UklGRg==", Format: "wav"}),
					oai.FileContentPart(oai.ChatCompletionContentPartFileFileParam{FileID: oai.String("file-1"), Filename: oai.String("a.pdf")}),
					oai.TextContentPart("And Rome?"),
				}}}},
			{OfAssistant: &oai.ChatCompletionAssistantMessageParam{ToolCalls: []oai.ChatCompletionMessageToolCallUnionParam{
				{OfFunction: &oai.ChatCompletionMessageFunctionToolCallParam{ID: "call_1",
					Function: oai.ChatCompletionMessageFunctionToolCallFunctionParam{Name: "get_weather", Arguments: `{"city":"Paris"}`}}},
				{OfFunction: &oai.ChatCompletionMessageFunctionToolCallParam{ID: "call_2",
					Function: oai.ChatCompletionMessageFunctionToolCallFunctionParam{Name: "get_weather", Arguments: `{"city":"Rome"}`}}},
			}}},
			oai.ToolMessage("18C", "call_1"),
			oai.ToolMessage([]oai.ChatCompletionContentPartTextParam{{Text: "21C"}}, "call_2"),
			oai.AssistantMessage([]oai.ChatCompletionAssistantMessageParamContentArrayOfContentPartUnion{
				{OfText: &oai.ChatCompletionContentPartTextParam{Text: "Paris 18C, Rome 21C."}}}),
			oai.UserMessage("Thanks"),
		},
		Tools: []oai.ChatCompletionToolUnionParam{
			oai.ChatCompletionFunctionTool(shared.FunctionDefinitionParam{Name: "get_weather", Description: oai.String("Current weather"),
				Parameters: shared.FunctionParameters(schema), Strict: oai.Bool(true)}),
			{OfCustom: &oai.ChatCompletionCustomToolParam{Custom: oai.ChatCompletionCustomToolCustomParam{Name: "grep", Description: oai.String("search")}}},
		},
		ToolChoice:          oai.ToolChoiceOptionFunctionToolChoice(oai.ChatCompletionNamedToolChoiceFunctionParam{Name: "get_weather"}),
		ParallelToolCalls:   oai.Bool(false),
		ResponseFormat:      oai.ChatCompletionNewParamsResponseFormatUnion{OfJSONSchema: &shared.ResponseFormatJSONSchemaParam{JSONSchema: shared.ResponseFormatJSONSchemaJSONSchemaParam{Name: "weather", Schema: schema, Strict: oai.Bool(true)}}},
		StreamOptions:       oai.ChatCompletionStreamOptionsParam{IncludeUsage: oai.Bool(true)},
		MaxCompletionTokens: oai.Int(100),
		N:                   oai.Int(3),
		Seed:                oai.Int(7),
		User:                oai.String("user-1"),
		SafetyIdentifier:    oai.String("safety-1"),
		PromptCacheKey:      oai.String("cache-1"),
		Store:               oai.Bool(true),
		Metadata:            shared.Metadata{"suite": "weather"},
		Temperature:         oai.Float(0.2),
	}
	params.SetExtraFields(map[string]any{"stream": true}) // stream_options needs it
	req, n := mustDecode(t, marshal(t, params))
	if !req.IncludeUsage() || req.Choices() != 3 || *req.Seed != 7 || !*req.Store || *req.MaxCompletionTokens != 100 {
		t.Errorf("include_usage %v, n %d, seed %v, store %v", req.IncludeUsage(), req.Choices(), *req.Seed, *req.Store)
	}
	if got := string(req.ParallelToolCalls); got != "false" {
		t.Errorf("parallel_tool_calls = %s, want false", got)
	}
	parts := req.Messages[2].Content.Parts
	if len(parts) != 5 || parts[1].ImageURL.URL != "https://example.com/p.png" || parts[1].ImageURL.Detail != "low" ||
		parts[2].InputAudio.Format != "wav" || parts[3].File.FileID != "file-1" || parts[3].File.Filename != "a.pdf" {
		t.Errorf("parts = %+v", parts)
	}
	want := &scenario.Request{
		Endpoint: scenario.EndpointChatCompletions,
		Model:    "gpt-4.1-mini",
		System:   "Be brief.\nUse tools.",
		Messages: []scenario.Message{
			{Role: "user", Name: "ann", Content: "Weather in Paris?\nAnd Rome?"},
			{Role: "assistant", ToolCalls: []scenario.ToolCall{
				{ID: "call_1", Name: "get_weather", Arguments: `{"city":"Paris"}`},
				{ID: "call_2", Name: "get_weather", Arguments: `{"city":"Rome"}`}}},
			{Role: "tool", Content: "18C", ToolCallID: "call_1"},
			{Role: "tool", Content: "21C", ToolCallID: "call_2"},
			{Role: "assistant", Content: "Paris 18C, Rome 21C."},
			{Role: "user", Content: "Thanks"},
		},
		Tools: []scenario.Tool{
			{Name: "get_weather", Description: "Current weather", Parameters: n.Tools[0].Parameters},
			{Name: "grep", Description: "search"},
		},
		ToolChoice:        "get_weather",
		ParallelToolCalls: new(false),
		ResponseFormat:    &scenario.ResponseFormat{Type: "json_schema", Name: "weather", Schema: n.ResponseFormat.Schema, Strict: true},
		MaxOutputTokens:   100,
		PromptCacheKey:    "cache-1",
		User:              "user-1",
		Metadata:          map[string]string{"suite": "weather"},
		Stream:            true,
		IncludeUsage:      true,
		Temperature:       new(0.2),
	}
	equal(t, "normalized", n, want)
	jsonEqual(t, "parameters", n.Tools[0].Parameters, weatherSchema)
	jsonEqual(t, "schema", n.ResponseFormat.Schema, weatherSchema)
}

// The other tool_choice forms openai-go can send.
func TestDecodeToolChoiceForms(t *testing.T) {
	tools := []oai.ChatCompletionToolUnionParam{
		oai.ChatCompletionFunctionTool(shared.FunctionDefinitionParam{Name: "f"}),
		{OfCustom: &oai.ChatCompletionCustomToolParam{Custom: oai.ChatCompletionCustomToolCustomParam{Name: "c"}}},
	}
	for name, tt := range map[string]struct {
		choice oai.ChatCompletionToolChoiceOptionUnionParam
		want   string
	}{
		"none":          {oai.ChatCompletionToolChoiceOptionUnionParam{OfAuto: oai.String("none")}, "none"},
		"required":      {oai.ChatCompletionToolChoiceOptionUnionParam{OfAuto: oai.String("required")}, "required"},
		"custom":        {oai.ChatCompletionToolChoiceOptionUnionParam{OfCustomToolChoice: &oai.ChatCompletionNamedToolChoiceCustomParam{Custom: oai.ChatCompletionNamedToolChoiceCustomCustomParam{Name: "c"}}}, "c"},
		"allowed tools": {oai.ChatCompletionToolChoiceOptionUnionParam{OfAllowedTools: &oai.ChatCompletionAllowedToolChoiceParam{AllowedTools: oai.ChatCompletionAllowedToolsParam{Mode: "required", Tools: []map[string]any{{"type": "function", "function": map[string]any{"name": "f"}}}}}}, "required"},
		"absent":        {oai.ChatCompletionToolChoiceOptionUnionParam{}, ""},
	} {
		t.Run(name, func(t *testing.T) {
			_, n := mustDecode(t, marshal(t, oai.ChatCompletionNewParams{Model: "gpt-4.1", Messages: []oai.ChatCompletionMessageParamUnion{oai.UserMessage("x")},
				Tools: tools, ToolChoice: tt.choice}))
			if n.ToolChoice != tt.want {
				t.Errorf("tool choice %q, want %q", n.ToolChoice, tt.want)
			}
		})
	}
}

// openai-go's ToParam turns our answer into the next request's assistant
// message, and that request decodes back into the same calls.
func TestDecodeToolLoopFromSDKResponse(t *testing.T) {
	a := &ChatAnswer{ID: "chatcmpl-1", Created: 1, Model: "gpt-4.1", ToolCalls: []scenario.ToolCall{
		{ID: "call_a", Name: "f", Arguments: `{"a":1}`}, {ID: "call_b", Name: "g"}}}
	var c oai.ChatCompletion
	if err := json.Unmarshal(marshal(t, a.Completion()), &c); err != nil {
		t.Fatal(err)
	}
	params := oai.ChatCompletionNewParams{Model: "gpt-4.1", Messages: []oai.ChatCompletionMessageParamUnion{
		oai.UserMessage("go"), c.Choices[0].Message.ToParam(), oai.ToolMessage("1", "call_a"), oai.ToolMessage("2", "call_b")}}
	_, n := mustDecode(t, marshal(t, params))
	equal(t, "calls", n.Messages[1].ToolCalls, []scenario.ToolCall{{ID: "call_a", Name: "f", Arguments: `{"a":1}`}, {ID: "call_b", Name: "g", Arguments: "{}"}})
	if len(n.ToolResults()) != 2 || n.ToolResults()[1].Name != "g" {
		t.Errorf("tool results %+v", n.ToolResults())
	}
}

func TestValidConversationsPass(t *testing.T) {
	for name, body := range map[string]string{
		"content parts": `{"model":"m","messages":[{"role":"user","content":[{"type":"text","text":"a"},{"type":"image_url","image_url":{"url":"https://example.com/x.png"}},{"type":"text","text":"b"}]}]}`,
		"tool loop": `{"model":"m","messages":[{"role":"developer","content":"d"},{"role":"user","content":"u"},
			{"role":"assistant","content":null,"tool_calls":[{"id":"c1","type":"function","function":{"name":"f","arguments":"{}"}},{"id":"c2","type":"function","function":{"name":"g","arguments":"{}"}}]},
			{"role":"tool","tool_call_id":"c2","content":"2"},{"role":"tool","tool_call_id":"c1","content":[{"type":"text","text":"1"}]},
			{"role":"assistant","content":"done"},{"role":"user","content":"thanks"}]}`,
		"unknown fields": `{"model":"m","messages":[{"role":"user","content":"u"}],"temperature":0.2,"seed":1,"metadata":{"a":"b"},"future_field":{"x":1}}`,
		"nulls":          `{"model":"m","messages":[{"role":"user","content":"u","name":null}],"max_tokens":null,"n":null,"tools":null,"tool_choice":null,"response_format":null,"stream_options":null,"parallel_tool_calls":null}`,
		"custom tool call": `{"model":"m","tools":[{"type":"custom","custom":{"name":"sh"}}],"messages":[{"role":"user","content":"u"},
			{"role":"assistant","tool_calls":[{"id":"c1","type":"custom","custom":{"name":"sh","input":"ls"}}]},{"role":"tool","tool_call_id":"c1","content":"a.txt"}]}`,
		"refusal part":    `{"model":"m","messages":[{"role":"user","content":"u"},{"role":"assistant","content":[{"type":"refusal","refusal":"no"}]},{"role":"user","content":"ok"}]}`,
		"max_tokens gpt4": `{"model":"gpt-4.1","max_tokens":5,"messages":[{"role":"user","content":"u"}]}`,
		"n at the limit":  `{"model":"m","n":128,"messages":[{"role":"user","content":"u"}]}`,
	} {
		t.Run(name, func(t *testing.T) {
			req, n := mustDecode(t, []byte(body))
			switch name {
			case "content parts":
				if n.LastUserText() != "a\nb" {
					t.Errorf("text parts joined as %q, want a\\nb", n.LastUserText())
				}
			case "tool loop":
				if n.System != "d" || n.LastUserText() != "thanks" || len(n.Messages) != 6 {
					t.Errorf("normalized = %+v", n)
				}
			case "nulls":
				if req.Choices() != 1 || n.ResponseFormat != nil || n.ToolChoice != "" {
					t.Errorf("normalized = %+v", n)
				}
			case "custom tool call":
				equal(t, "calls", n.Messages[1].ToolCalls, []scenario.ToolCall{{ID: "c1", Name: "sh", Arguments: "ls"}})
			case "refusal part":
				if req.Messages[1].Content.Refusal != "no" || n.Messages[1].Content != "" {
					t.Errorf("refusal part %+v", req.Messages[1].Content)
				}
			}
		})
	}
}

// Bad requests get the real API's status, code and param.
func TestDecodeRefusesInvalid(t *testing.T) {
	const user = `"messages":[{"role":"user","content":"u"}]`
	const tools = `"tools":[{"type":"function","function":{"name":"f"}}]`
	for _, tt := range []struct {
		name, body  string
		code, param string
	}{
		{"not JSON", `{"model":`, "", ""},
		{"not an object", `[]`, "", ""},
		{"model of wrong type", `{"model":5,"messages":[]}`, "invalid_type", "model"},
		{"content of wrong type", `{"model":"m","messages":[{"role":"user","content":5}]}`, "invalid_type", "messages[0].content"},
		{"content of wrong type, later message", `{"model":"m","messages":[{"role":"user","content":"a"},{"role":"assistant","content":"b"},{"role":"user","content":true}]}`, "invalid_type", "messages[2].content"},
		{"part of wrong type", `{"model":"m","messages":[{"role":"user","content":["x"]}]}`, "invalid_type", "messages[0].content"},
		{"part field of wrong type", `{"model":"m","messages":[{"role":"user","content":[{"type":"text","text":1}]}]}`, "invalid_type", "messages[0].content.text"},
		{"missing model", `{` + user + `}`, "", ""},
		{"empty model", `{"model":"",` + user + `}`, "", ""},
		{"missing messages", `{"model":"m"}`, "missing_required_parameter", "messages"},
		{"empty messages", `{"model":"m","messages":[]}`, "empty_array", "messages"},
		{"bad role", `{"model":"m","messages":[{"role":"robot","content":"Hi"}]}`, "invalid_value", "messages[0].role"},
		{"tool without call", `{"model":"m","messages":[{"role":"user","content":"Hi"},{"role":"tool","tool_call_id":"call_1","content":"42"}]}`, "", "messages.[1].role"},
		{"unanswered call", `{"model":"m","messages":[{"role":"user","content":"Hi"},{"role":"assistant","tool_calls":[{"id":"call_1","type":"function","function":{"name":"f","arguments":"{}"}}]},{"role":"user","content":"well?"}]}`, "", "messages.[1].role"},
		{"tool without tool_call_id", `{"model":"m","messages":[{"role":"user","content":"Hi"},{"role":"tool","content":"42"}]}`, "missing_required_parameter", "messages[1].tool_call_id"},
		{"call without id", `{"model":"m","messages":[{"role":"user","content":"Hi"},{"role":"assistant","tool_calls":[{"type":"function","function":{"name":"f","arguments":"{}"}}]}]}`, "missing_required_parameter", "messages[1].tool_calls[0].id"},
		{"call with bad name", `{"model":"m","messages":[{"role":"user","content":"Hi"},{"role":"assistant","tool_calls":[{"id":"c","type":"function","function":{"name":"a.b","arguments":"{}"}}]},{"role":"tool","tool_call_id":"c","content":"1"}]}`, "invalid_value", "messages[1].tool_calls[0].function.name"},
		{"tool name with a dot", `{"model":"m",` + user + `,"tools":[{"type":"function","function":{"name":"srv.f"}}]}`, "invalid_value", "tools[0].function.name"},
		{"tool name too long", `{"model":"m",` + user + `,"tools":[{"type":"function","function":{"name":"` + strings.Repeat("a", 65) + `"}}]}`, "string_above_max_length", "tools[0].function.name"},
		{"tool without name", `{"model":"m",` + user + `,"tools":[{"type":"function","function":{"description":"d"}}]}`, "missing_required_parameter", "tools[0].function.name"},
		{"tool without function", `{"model":"m",` + user + `,"tools":[{"type":"function"}]}`, "missing_required_parameter", "tools[0].function"},
		{"tool of unknown type", `{"model":"m",` + user + `,"tools":[{"type":"web_search"}]}`, "invalid_value", "tools[0].type"},
		{"parameters not an object", `{"model":"m",` + user + `,"tools":[{"type":"function","function":{"name":"f","parameters":[1]}}]}`, "invalid_type", "tools[0].function.parameters"},
		{"tool_choice without tools", `{"model":"m",` + user + `,"tool_choice":"auto"}`, "", "tool_choice"},
		{"tool_choice naming a missing function", `{"model":"m",` + user + `,` + tools + `,"tool_choice":{"type":"function","function":{"name":"g"}}}`, "", "tool_choice"},
		{"tool_choice unknown string", `{"model":"m",` + user + `,` + tools + `,"tool_choice":"always"}`, "invalid_value", "tool_choice"},
		{"tool_choice of wrong type", `{"model":"m",` + user + `,` + tools + `,"tool_choice":1}`, "invalid_type", "tool_choice"},
		{"tool_choice name of wrong type", `{"model":"m",` + user + `,` + tools + `,"tool_choice":{"type":"function","function":{"name":1}}}`, "invalid_type", "tool_choice.function.name"},
		{"function_call naming a missing function", `{"model":"m",` + user + `,"functions":[{"name":"f"}],"function_call":{"name":"g"}}`, "", "function_call"},
		{"response_format without json_schema", `{"model":"m",` + user + `,"response_format":{"type":"json_schema"}}`, "missing_required_parameter", "response_format.json_schema"},
		{"json_schema without name", `{"model":"m",` + user + `,"response_format":{"type":"json_schema","json_schema":{"schema":{}}}}`, "missing_required_parameter", "response_format.json_schema.name"},
		{"json_schema with bad name", `{"model":"m",` + user + `,"response_format":{"type":"json_schema","json_schema":{"name":"a b","schema":{}}}}`, "invalid_value", "response_format.json_schema.name"},
		{"schema not an object", `{"model":"m",` + user + `,"response_format":{"type":"json_schema","json_schema":{"name":"a","schema":"x"}}}`, "invalid_type", "response_format.json_schema.schema"},
		{"response_format unknown type", `{"model":"m",` + user + `,"response_format":{"type":"xml"}}`, "invalid_value", "response_format.type"},
		{"response_format of wrong type", `{"model":"m",` + user + `,"response_format":"json"}`, "invalid_type", "response_format"},
		{"n too large", `{"model":"m",` + user + `,"n":129}`, "integer_above_max_value", "n"},
		{"n too small", `{"model":"m",` + user + `,"n":0}`, "integer_below_min_value", "n"},
		{"n not an integer", `{"model":"m",` + user + `,"n":1.5}`, "invalid_type", "n"},
		{"max_tokens on o3", `{"model":"o3-mini",` + user + `,"max_tokens":5}`, "unsupported_parameter", "max_tokens"},
		{"max_tokens on gpt-5", `{"model":"gpt-5-nano",` + user + `,"max_tokens":5}`, "unsupported_parameter", "max_tokens"},
		{"max_tokens on an o3 snapshot", `{"model":"o3-2025-04-16",` + user + `,"max_tokens":5}`, "unsupported_parameter", "max_tokens"},
		{"metadata of wrong type", `{"model":"m",` + user + `,"metadata":{"a":1}}`, "invalid_type", "metadata"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			req, err := DecodeChatRequest([]byte(tt.body))
			if err == nil {
				t.Fatalf("accepted: %+v", req)
			}
			if err.Status != 400 || err.Type != "invalid_request_error" || err.Code != tt.code || err.Param != tt.param || err.Message == "" {
				t.Errorf("got %d %s code %q param %q (%s), want 400 code %q param %q", err.Status, err.Type, err.Code, err.Param, err.Message, tt.code, tt.param)
			}
		})
	}
}

var toolAnswer = &ChatAnswer{ID: "chatcmpl-t", Created: 1700000000, Model: "gpt-4.1", ToolCalls: []scenario.ToolCall{
	{ID: "call_A", Name: "get_weather", Arguments: `{"city":"Paris","unit":"celsius"}`},
	{ID: "call_B", Name: "get_time", Arguments: `{"tz":"Europe/Rome"}`},
}, Usage: NewUsage(20, 12)}

// WriteJSON writes what plainjson.Marshal would, also for many choices of a long
// answer (written in several pieces) and for choices whose messages differ.
func TestCompletionWriteJSON(t *testing.T) {
	long := strings.Repeat("<tag> & \"quoted\" ünïcode ", 2000)
	for _, a := range []*ChatAnswer{
		{ID: "c", Text: long, N: 128},
		{ID: "c", Refusal: long, N: 3},
		{ID: "c", ToolCalls: toolAnswer.ToolCalls, N: 4},
	} {
		marshal(t, a.Completion())
	}
	c := (&ChatAnswer{ID: "c", Text: "same", N: 3}).Completion()
	other := "other"
	c.Choices[1].Message.Content = &other
	marshal(t, c)
	marshal(t, &ChatCompletion{ID: "empty"})
}

// An unknown model's error names the catalog's nearest models, a typo's
// intended one first, and how many there are.
func TestModelNotFoundNamesTheNearest(t *testing.T) {
	served := CatalogIDs()
	msg := ModelNotFound("gpt-4.1-mimi", served, false).Message
	want := "The model `gpt-4.1-mimi` does not exist or you do not have access to it. Nearest in this server's catalog: gpt-4.1-mini, "
	if !strings.HasPrefix(msg, want) || !strings.HasSuffix(msg, fmt.Sprintf("(GET /v1/models lists all %d).", len(served))) {
		t.Errorf("message %q", msg)
	}
	if got := ResponsesModelNotFound("gpt-4.1-mimi", served, false).Message; !strings.Contains(got, "Nearest in this server's catalog: gpt-4.1-mini, ") {
		t.Errorf("Responses message %q", got)
	}
}
