package openai

import (
	"encoding/json"
	"testing"

	oai "github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/shared"
)

// fuzzSeeds are realistic bodies: both SDKs' shapes, tool loops, content
// parts, structured outputs, and bad inputs.
func fuzzSeeds(f *testing.F) [][]byte {
	sdk := []any{
		oai.ChatCompletionNewParams{Model: "gpt-4.1-mini", Messages: []oai.ChatCompletionMessageParamUnion{oai.UserMessage("Hello")}},
		oai.ChatCompletionNewParams{
			Model: "gpt-4.1",
			Messages: []oai.ChatCompletionMessageParamUnion{
				oai.DeveloperMessage("d"),
				oai.UserMessage([]oai.ChatCompletionContentPartUnionParam{oai.TextContentPart("t"),
					oai.ImageContentPart(oai.ChatCompletionContentPartImageImageURLParam{URL: "https://x/y.png"}),
					oai.InputAudioContentPart(oai.ChatCompletionContentPartInputAudioInputAudioParam{Data: "AA==", Format: "mp3"}),
					oai.FileContentPart(oai.ChatCompletionContentPartFileFileParam{FileData: oai.String("data:application/pdf;base64,AA==")})}),
				{OfAssistant: &oai.ChatCompletionAssistantMessageParam{ToolCalls: []oai.ChatCompletionMessageToolCallUnionParam{
					{OfFunction: &oai.ChatCompletionMessageFunctionToolCallParam{ID: "call_1", Function: oai.ChatCompletionMessageFunctionToolCallFunctionParam{Name: "f", Arguments: `{"a":1}`}}},
					{OfCustom: &oai.ChatCompletionMessageCustomToolCallParam{ID: "call_2", Custom: oai.ChatCompletionMessageCustomToolCallCustomParam{Name: "sh", Input: "ls"}}}}}},
				oai.ToolMessage("1", "call_1"),
				oai.ToolMessage([]oai.ChatCompletionContentPartTextParam{{Text: "a.txt"}}, "call_2"),
			},
			Tools: []oai.ChatCompletionToolUnionParam{
				oai.ChatCompletionFunctionTool(shared.FunctionDefinitionParam{Name: "f", Parameters: shared.FunctionParameters{"type": "object"}}),
				{OfCustom: &oai.ChatCompletionCustomToolParam{Custom: oai.ChatCompletionCustomToolCustomParam{Name: "sh"}}}},
			ToolChoice:        oai.ChatCompletionToolChoiceOptionUnionParam{OfAuto: oai.String("required")},
			ParallelToolCalls: oai.Bool(true),
			ResponseFormat: oai.ChatCompletionNewParamsResponseFormatUnion{OfJSONSchema: &shared.ResponseFormatJSONSchemaParam{
				JSONSchema: shared.ResponseFormatJSONSchemaJSONSchemaParam{Name: "s", Schema: map[string]any{"type": "object"}, Strict: oai.Bool(true)}}},
			StreamOptions:  oai.ChatCompletionStreamOptionsParam{IncludeUsage: oai.Bool(true)},
			N:              oai.Int(2),
			PromptCacheKey: oai.String("k"),
			Metadata:       shared.Metadata{"a": "b"},
		},
	}
	var out [][]byte
	for _, v := range sdk {
		b, err := json.Marshal(v)
		if err != nil {
			f.Fatal(err)
		}
		out = append(out, b)
	}
	for _, s := range []string{
		// What go-openai v1.43.0 sends for a tool loop with content parts,
		// legacy functions and stream options (its module is not a
		// dependency here, so the body is kept as it marshalled).
		`{"model":"gpt-4o","messages":[{"role":"system","content":"s"},{"role":"user","content":[{"type":"text","text":"x"},{"type":"image_url","image_url":{"url":"u"}}]},{"role":"assistant","tool_calls":[{"id":"c","type":"function","function":{"name":"f","arguments":"{}"}}]},{"role":"tool","content":"r","tool_call_id":"c"}],"stream":true,"response_format":{"type":"json_object"},"seed":1,"functions":[{"name":"g","parameters":null}],"function_call":"none","tools":[{"function":{"name":"f","parameters":null},"type":"function"}],"tool_choice":{"type":"function","function":{"name":"f"}},"stream_options":{"include_usage":true},"parallel_tool_calls":false}`,
		``, `{`, `[]`, `null`, `{"model":5}`, `{"model":"m","messages":[]}`,
		`{"model":"m","messages":[{"role":"user","content":{}}]}`,
		`{"model":"m","messages":[{"role":"user","content":[null,{"type":"text","text":null}]}]}`,
		`{"model":"m","messages":[{"role":"tool","content":"x"}]}`,
		`{"model":"o1","max_tokens":1,"n":0,"messages":[{"role":"user","content":"x"}]}`,
		`{"model":"m","messages":[{"role":"user","content":"x"}],"tools":[null,{"type":"function","function":null}],"tool_choice":{"type":"allowed_tools","allowed_tools":{"mode":"auto","tools":[]}}}`,
		`{"model":"m","messages":[{"role":"user","content":"x"}],"response_format":{"type":"json_schema","json_schema":{"name":"n","schema":null,"strict":null}}}`,
		`{"model":"m","messages":[{"role":"user","content":"x"}],"functions":[{"name":"f","parameters":{}}],"function_call":{"name":"f"}}`,
		`{"model":"m","messages":[{"role":"assistant","function_call":{"name":"f","arguments":"{}"}},{"role":"function","name":"f","content":"1"}]}`,
		`{"model":"m","Model":"n","messages":[{"role":"user","content":"\ud800"}],"metadata":{"k":"v"},"n":1e2}`,
	} {
		out = append(out, []byte(s))
	}
	return out
}

// FuzzDecodeChatRequest: decoding never panics; refusals are 4xx API errors
// with a type and a message; accepted requests normalize without panicking
// and ask for 1..128 choices.
func FuzzDecodeChatRequest(f *testing.F) {
	for _, s := range fuzzSeeds(f) {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		req, err := DecodeChatRequest(body)
		if err != nil {
			checkRefusal(t, req != nil, err)
			return
		}
		n := req.Normalize()
		if n.Model == "" || n.Model != req.Model || req.Choices() < 1 || req.Choices() > maxChoices {
			t.Fatalf("normalized %+v from %+v", n, req)
		}
		req.IncludeUsage()
		n.ToolResults()
		n.LastUserText()
	})
}

// checkRefusal fails a fuzz case whose decoder refused the body without a
// proper API error: a 4xx with a type and a message that encodes, and no
// request besides.
func checkRefusal(t *testing.T, gotRequest bool, err *Error) {
	t.Helper()
	if gotRequest {
		t.Fatalf("both a request and an error %v", err)
	}
	if err.Status < 400 || err.Status > 499 || err.Type == "" || err.Message == "" {
		t.Fatalf("error %+v: want a 4xx with a type and a message", err)
	}
	if _, merr := json.Marshal(Envelope(err)); merr != nil {
		t.Fatalf("error does not encode: %v", merr)
	}
}
