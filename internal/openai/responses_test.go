package openai

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"testing"

	oai "github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/packages/param"
	"github.com/openai/openai-go/v3/responses"
	"github.com/openai/openai-go/v3/shared"

	"github.com/llmtestserver/llmtestserver/scenario"
)

func mustDecodeResponses(t *testing.T, body []byte) *ResponsesRequest {
	t.Helper()
	req, err := DecodeResponsesRequest(body)
	if err != nil {
		t.Fatalf("refused %s: %v", body, err)
	}
	return req
}

// seqIDs returns an ID generator counting per prefix: msg_g1, fc_g1,
// fc_g2…, distinct from the IDs the tests' answers use.
func seqIDs() func(string) string {
	n := map[string]int{}
	return func(prefix string) string {
		n[prefix]++
		return prefix + "g" + strconv.Itoa(n[prefix])
	}
}

// A string input from openai-go becomes one user message; the request's
// settings are read.
func TestResponsesDecodeOpenAIGoStringInput(t *testing.T) {
	params := responses.ResponseNewParams{
		Model:             "gpt-4.1-mini",
		Input:             responses.ResponseNewParamsInputUnion{OfString: oai.String("Hello <there> & bye")},
		Instructions:      oai.String("Be brief."),
		Store:             oai.Bool(false),
		User:              oai.String("user-1"),
		SafetyIdentifier:  oai.String("safety-1"),
		PromptCacheKey:    oai.String("cache-1"),
		Metadata:          shared.Metadata{"suite": "hello"},
		MaxOutputTokens:   oai.Int(64),
		Temperature:       oai.Float(0.2),
		TopP:              oai.Float(0.9),
		ParallelToolCalls: oai.Bool(false),
		Truncation:        responses.ResponseNewParamsTruncationAuto,
		Conversation:      responses.ResponseNewParamsConversationUnion{OfString: oai.String("conv_1")},
	}
	req := mustDecodeResponses(t, marshal(t, params))
	if req.Stores() || *req.MaxOutputTokens != 64 || req.ConversationID() != "conv_1" || req.Truncation != "auto" {
		t.Errorf("decoded %+v", req)
	}
	items := req.InputItems(seqIDs())
	jsonEqual(t, "items", marshal(t, items),
		`[{"type":"message","id":"msg_g1","status":"completed","role":"user","content":[{"type":"input_text","text":"Hello <there> & bye"}]}]`)
	want := &scenario.Request{
		Endpoint: scenario.EndpointResponses, Model: "gpt-4.1-mini", System: "Be brief.",
		Messages:       []scenario.Message{{Role: "user", Content: "Hello <there> & bye"}},
		PromptCacheKey: "cache-1", User: "user-1", Metadata: map[string]string{"suite": "hello"},
		Conversation: "conv_1", MaxOutputTokens: 64, ParallelToolCalls: new(false),
		Temperature: new(0.2), TopP: new(0.9), ConversationID: "conv_1",
	}
	equal(t, "normalized", NormalizeResponses(req.Model, req.Instructions, items, req), want)
}

const responsesWeatherSchema = `{"type":"object","properties":{"city":{"type":"string"}},"required":["city"],"additionalProperties":false}`

// A tool loop as openai-go sends it: easy and typed messages, a replayed
// assistant message and function calls, their outputs (string and parts),
// a function tool, a forced tool_choice, a json_schema format and a
// previous_response_id.
func TestResponsesDecodeOpenAIGoItems(t *testing.T) {
	var schema map[string]any
	json.Unmarshal([]byte(responsesWeatherSchema), &schema)
	out1 := responses.ResponseInputItemParamOfFunctionCallOutput("18C")
	out1.OfFunctionCallOutput.CallID = param.NewOpt("call_1")
	out2 := responses.ResponseInputItemParamOfFunctionCallOutput(responses.ResponseFunctionCallOutputItemListParam{
		{OfInputText: &responses.ResponseInputTextContentParam{Text: "21C"}}})
	out2.OfFunctionCallOutput.CallID = param.NewOpt("call_2")
	call2 := responses.ResponseInputItemParamOfFunctionCall(`{"city":"Rome"}`, "call_2", "get_weather")
	call2.OfFunctionCall.ID = param.NewOpt("fc_given")
	params := responses.ResponseNewParams{
		Model: "gpt-4.1",
		Input: responses.ResponseNewParamsInputUnion{OfInputItemList: responses.ResponseInputParam{
			responses.ResponseInputItemParamOfMessage("Use tools.", responses.EasyInputMessageRoleDeveloper),
			responses.ResponseInputItemParamOfInputMessage(responses.ResponseInputMessageContentListParam{
				responses.ResponseInputContentParamOfInputText("Weather in Paris?"),
				{OfInputImage: &responses.ResponseInputImageParam{ImageURL: oai.String("https://example.com/p.png"), Detail: responses.ResponseInputImageDetailLow}},
				responses.ResponseInputContentParamOfInputText("And Rome?"),
			}, "user"),
			responses.ResponseInputItemParamOfOutputMessage([]responses.ResponseOutputMessageContentUnionParam{
				{OfOutputText: &responses.ResponseOutputTextParam{Text: "Checking both."}}}, "msg_prev", responses.ResponseOutputMessageStatusCompleted),
			responses.ResponseInputItemParamOfFunctionCall(`{"city":"Paris"}`, "call_1", "get_weather"),
			call2,
			out1,
			out2,
		}},
		Tools: []responses.ToolUnionParam{{OfFunction: &responses.FunctionToolParam{
			Name: "get_weather", Description: oai.String("Current weather"), Parameters: schema, Strict: oai.Bool(true)}}},
		ToolChoice: responses.ResponseNewParamsToolChoiceUnion{OfFunctionTool: &responses.ToolChoiceFunctionParam{Name: "get_weather"}},
		Text: responses.ResponseTextConfigParam{Format: responses.ResponseFormatTextConfigUnionParam{
			OfJSONSchema: &responses.ResponseFormatTextJSONSchemaConfigParam{Name: "weather", Schema: schema, Strict: oai.Bool(true)}}},
		PreviousResponseID: oai.String("resp_prev"),
	}
	body := marshal(t, params)
	req := mustDecodeResponses(t, body)
	if req.PreviousResponseID != "resp_prev" || req.toolChoice != "get_weather" {
		t.Errorf("previous %q tool_choice %q", req.PreviousResponseID, req.toolChoice)
	}
	items := req.InputItems(seqIDs())
	if err := ValidateToolOutputs(items); err != nil {
		t.Fatalf("valid tool loop refused: %v", err)
	}
	ids := []string{}
	for _, it := range items {
		ids = append(ids, it.Type+":"+it.ID)
	}
	equal(t, "item ids", ids, []string{"message:msg_g1", "message:msg_g2", "message:msg_prev", "function_call:fc_g1",
		"function_call:fc_given", "function_call_output:fc_g2", "function_call_output:fc_g3"})
	if p := items[1].Content[1]; p.Type != "input_image" || p.ImageURL != "https://example.com/p.png" || p.Detail != "low" {
		t.Errorf("image part %+v", p)
	}
	jsonEqual(t, "call output with parts", marshal(t, items[6]),
		`{"type":"function_call_output","id":"fc_g3","status":"completed","call_id":"call_2","output":[{"type":"input_text","text":"21C"}]}`)

	n := NormalizeResponses(req.Model, req.Instructions, items, req)
	want := &scenario.Request{
		Endpoint: scenario.EndpointResponses, Model: "gpt-4.1", System: "Use tools.",
		Messages: []scenario.Message{
			{Role: "user", Content: "Weather in Paris?\nAnd Rome?"},
			{Role: "assistant", Content: "Checking both.", ToolCalls: []scenario.ToolCall{
				{ID: "call_1", Name: "get_weather", Arguments: `{"city":"Paris"}`},
				{ID: "call_2", Name: "get_weather", Arguments: `{"city":"Rome"}`}}},
			{Role: "tool", Content: "18C", ToolCallID: "call_1"},
			{Role: "tool", Content: "21C", ToolCallID: "call_2"},
		},
		Tools:              []scenario.Tool{{Name: "get_weather", Description: "Current weather", Parameters: n.Tools[0].Parameters}},
		ToolChoice:         "get_weather",
		ResponseFormat:     &scenario.ResponseFormat{Type: "json_schema", Name: "weather", Schema: n.ResponseFormat.Schema, Strict: true},
		PreviousResponseID: "resp_prev",
	}
	equal(t, "normalized", n, want)
	jsonEqual(t, "parameters", n.Tools[0].Parameters, responsesWeatherSchema)
	jsonEqual(t, "schema", n.ResponseFormat.Schema, responsesWeatherSchema)
	equal(t, "request's own Normalize", req.Normalize().Messages[1].ToolCalls[1].ID, "call_2")
}

// Requests the API refuses, with its status, code and param.
func TestResponsesDecodeRefuses(t *testing.T) {
	const in = `"input":"hi"`
	for _, tt := range []struct {
		name, body  string
		code, param string
	}{
		{"not JSON", `{`, "", ""},
		{"array body", `[]`, "", ""},
		{"no model", `{` + in + `}`, "missing_required_parameter", "model"},
		{"null model", `{"model":null,` + in + `}`, "invalid_type", "model"},
		{"empty model", `{"model":"",` + in + `}`, "model_not_found", "model"},
		{"model a number", `{"model":7,` + in + `}`, "invalid_type", "model"},
		{"chat messages", `{"model":"m","messages":[{"role":"user","content":"x"}]}`, "unsupported_parameter", ""},
		{"no input", `{"model":"m"}`, "missing_required_parameter", "input"},
		{"no input beside previous_response_id", `{"model":"m","previous_response_id":"resp_1"}`, "missing_required_parameter", "input"},
		{"empty input", `{"model":"m","input":[]}`, "missing_required_parameter", ""},
		{"empty string input", `{"model":"m","input":""}`, "missing_required_parameter", ""},
		{"input null", `{"model":"m","input":null}`, "invalid_type", "input"},
		{"input object", `{"model":"m","input":{"a":1}}`, "invalid_type", "input"},
		{"item primitive", `{"model":"m","input":[7]}`, "invalid_type", "input[0]"},
		{"item null", `{"model":"m","input":["x",null]}`, "invalid_type", "input[0]"},
		{"item type unknown", `{"model":"m","input":[{"type":"bogus_item"}]}`, "invalid_value", "input[0]"},
		{"item type not a string", `{"model":"m","input":[{"type":7,"role":"user","content":"x"}]}`, "invalid_value", "input[0]"},
		{"role unknown", `{"model":"m","input":[{"role":"tool","content":"x"}]}`, "invalid_value", "input[0]"},
		{"empty item", `{"model":"m","input":[{}]}`, "invalid_value", "input[0]"},
		{"no content", `{"model":"m","input":[{"role":"user"}]}`, "missing_required_parameter", "input[0].content"},
		{"content a number", `{"model":"m","input":[{"role":"user","content":5}]}`, "invalid_type", "input[0].content"},
		{"part type unknown", `{"model":"m","input":[{"role":"user","content":[{"type":"text","text":"x"}]}]}`, "invalid_value", "input[0].content[0].type"},
		{"output_text from the user", `{"model":"m","input":[{"role":"user","content":[{"type":"output_text","text":"x"}]}]}`, "invalid_value", "input[0].content[0]"},
		{"input_text from the assistant", `{"model":"m","input":[{"role":"assistant","content":[{"type":"input_text","text":"x"}]},{"role":"user","content":"y"}]}`, "invalid_value", "input[0].content[0]"},
		{"part without text", `{"model":"m","input":[{"role":"user","content":[{"type":"input_text"}]}]}`, "missing_required_parameter", "input[0].content[0].text"},
		{"part not an object", `{"model":"m","input":[{"role":"user","content":["x"]}]}`, "invalid_type", "input[0].content[0]"},
		{"message id prefix", `{"model":"m","input":[{"role":"user","content":"x","id":"item_1"}]}`, "invalid_value", "input[0].id"},
		{"call id prefix", `{"model":"m","input":[{"type":"function_call","id":"call_1","call_id":"call_1","name":"f","arguments":"{}"}]}`, "invalid_value", "input[0].id"},
		{"call output id prefix", `{"model":"m","input":[{"type":"function_call_output","id":"ctco_1","call_id":"c","output":"x"}]}`, "invalid_value", "input[0].id"},
		{"call without call_id", `{"model":"m","input":[{"type":"function_call","name":"f","arguments":"{}"}]}`, "missing_required_parameter", "input[0].call_id"},
		{"call without name", `{"model":"m","input":[{"type":"function_call","call_id":"c","arguments":"{}"}]}`, "missing_required_parameter", "input[0].name"},
		{"call without arguments", `{"model":"m","input":[{"type":"function_call","call_id":"c","name":"f"}]}`, "missing_required_parameter", "input[0].arguments"},
		{"call output without call_id", `{"model":"m","input":[{"type":"function_call_output","output":"x"}]}`, "missing_required_parameter", "input[0].call_id"},
		{"call output without output", `{"model":"m","input":[{"type":"function_call_output","call_id":"c"}]}`, "missing_required_parameter", "input[0].output"},
		{"call output part type", `{"model":"m","input":[{"type":"function_call_output","call_id":"c","output":[{"type":"output_text","text":"x"}]}]}`, "invalid_value", "input[0].output[0]"},
		{"item_reference without id", `{"model":"m","input":[{"type":"item_reference"}]}`, "missing_required_parameter", "input[0].id"},
		{"tools a string", `{"model":"m",` + in + `,"tools":"x"}`, "invalid_type", "tools"},
		{"tool without type", `{"model":"m",` + in + `,"tools":[{}]}`, "missing_required_parameter", "tools[0].type"},
		{"tool without name", `{"model":"m",` + in + `,"tools":[{"type":"function"}]}`, "missing_required_parameter", "tools[0].name"},
		{"chat-shaped tool", `{"model":"m",` + in + `,"tools":[{"type":"function","function":{"name":"f"}}]}`, "missing_required_parameter", "tools[0].name"},
		{"tool name pattern", `{"model":"m",` + in + `,"tools":[{"type":"function","name":"a b"}]}`, "invalid_value", "tools[0].name"},
		{"tool parameters a string", `{"model":"m",` + in + `,"tools":[{"type":"function","name":"f","parameters":"x"}]}`, "invalid_type", "tools[0].parameters"},
		{"tool_choice a number", `{"model":"m",` + in + `,"tool_choice":7}`, "invalid_type", "tool_choice"},
		{"tool_choice unknown", `{"model":"m",` + in + `,"tool_choice":"bogus"}`, "invalid_value", "tool_choice"},
		{"tool_choice without name", `{"model":"m",` + in + `,"tool_choice":{"type":"function"}}`, "missing_required_parameter", "tool_choice.name"},
		{"chat-shaped tool_choice", `{"model":"m",` + in + `,"tool_choice":{"type":"function","function":{"name":"f"}}}`, "missing_required_parameter", "tool_choice.name"},
		{"text a string", `{"model":"m",` + in + `,"text":"x"}`, "invalid_type", "text"},
		{"format type unknown", `{"model":"m",` + in + `,"text":{"format":{"type":"bogus"}}}`, "invalid_value", "text.format.type"},
		{"json_schema without name", `{"model":"m",` + in + `,"text":{"format":{"type":"json_schema","schema":{}}}}`, "missing_required_parameter", "text.format.name"},
		{"json_schema without schema", `{"model":"m",` + in + `,"text":{"format":{"type":"json_schema","name":"s"}}}`, "missing_required_parameter", "text.format.schema"},
		{"chat-shaped json_schema", `{"model":"m",` + in + `,"text":{"format":{"type":"json_schema","json_schema":{"name":"s","schema":{}}}}}`, "missing_required_parameter", "text.format.name"},
		{"verbosity unknown", `{"model":"m",` + in + `,"text":{"verbosity":"loud"}}`, "invalid_value", "text.verbosity"},
		{"reasoning a string", `{"model":"m",` + in + `,"reasoning":"low"}`, "invalid_type", "reasoning"},
		{"reasoning effort a number", `{"model":"m",` + in + `,"reasoning":{"effort":5}}`, "invalid_type", "reasoning.effort"},
		{"truncation unknown", `{"model":"m",` + in + `,"truncation":"bogus"}`, "invalid_value", "truncation"},
		{"max_output_tokens below 16", `{"model":"m",` + in + `,"max_output_tokens":15}`, "integer_below_min_value", "max_output_tokens"},
		{"max_tool_calls 0", `{"model":"m",` + in + `,"max_tool_calls":0}`, "integer_below_min_value", "max_tool_calls"},
		{"top_logprobs 21", `{"model":"m",` + in + `,"top_logprobs":21}`, "integer_above_max_value", "top_logprobs"},
		{"temperature 3", `{"model":"m",` + in + `,"temperature":3}`, "decimal_above_max_value", "temperature"},
		{"top_p negative", `{"model":"m",` + in + `,"top_p":-1}`, "decimal_below_min_value", "top_p"},
		{"temperature a string", `{"model":"m",` + in + `,"temperature":"hot"}`, "invalid_type", "temperature"},
		{"store a string", `{"model":"m",` + in + `,"store":"yes"}`, "invalid_type", "store"},
		{"instructions an object", `{"model":"m",` + in + `,"instructions":{}}`, "invalid_type", "instructions"},
		{"metadata a string", `{"model":"m",` + in + `,"metadata":"x"}`, "invalid_type", "metadata"},
		{"metadata too big", `{"model":"m",` + in + `,"metadata":{` + metadataPairs(17) + `}}`, "object_above_max_properties", "metadata"},
		{"prompt_cache_retention unknown", `{"model":"m",` + in + `,"prompt_cache_retention":"1h"}`, "invalid_value", "prompt_cache_retention"},
		{"conversation a number", `{"model":"m",` + in + `,"conversation":1}`, "invalid_type", "conversation"},
		{"conversation without id", `{"model":"m",` + in + `,"conversation":{}}`, "missing_required_parameter", "conversation.id"},
		{"conversation and previous_response_id", `{"model":"m",` + in + `,"conversation":"conv_1","previous_response_id":"resp_1"}`, "mutually_exclusive_parameters", ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			req, err := DecodeResponsesRequest([]byte(tt.body))
			if err == nil {
				t.Fatalf("accepted %s as %+v", tt.body, req)
			}
			if err.Status != http.StatusBadRequest || err.Type != "invalid_request_error" || err.Code != tt.code || err.Param != tt.param || err.Message == "" {
				t.Errorf("got %d %s code %q param %q (%s), want 400 code %q param %q", err.Status, err.Type, err.Code, err.Param, err.Message, tt.code, tt.param)
			}
		})
	}
}

func metadataPairs(n int) string {
	pairs := make([]string, n)
	for i := range pairs {
		pairs[i] = fmt.Sprintf(`"k%d":"v"`, i)
	}
	return strings.Join(pairs, ",")
}

// Bodies the API takes, which a fake must take too.
func TestResponsesDecodeAccepts(t *testing.T) {
	for name, body := range map[string]string{
		"empty input with previous_response_id": `{"model":"m","input":[],"previous_response_id":"resp_1"}`,
		"empty input with conversation":         `{"model":"m","input":"","conversation":{"id":"conv_1"}}`,
		"unknown fields":                        `{"model":"m","input":"x","zzz":1,"stream":true,"stream_options":{"include_obfuscation":false}}`,
		"hosted tools and choice":               `{"model":"m","input":"x","tools":[{"type":"web_search"},{"type":"function","name":"f"}],"tool_choice":{"type":"web_search"}}`,
		"allowed_tools":                         `{"model":"m","input":"x","tools":[{"type":"function","name":"f"}],"tool_choice":{"type":"allowed_tools","mode":"auto","tools":[{"type":"function","name":"f"}]}}`,
		"other item types":                      `{"model":"m","input":[{"type":"reasoning","id":"rs_1","summary":[]},{"type":"item_reference","id":"msg_1"},{"role":"user","content":"x"}]}`,
		"nulls":                                 `{"model":"m","input":"x","instructions":null,"tools":null,"text":null,"reasoning":null,"conversation":null,"tool_choice":null,"metadata":null}`,
		"json_object":                           `{"model":"m","input":"answer in json","text":{"format":{"type":"json_object"}}}`,
		"refusal replay":                        `{"model":"m","input":[{"role":"assistant","content":[{"type":"refusal","refusal":"no"}]},{"role":"user","content":"please"}]}`,
		"message with status and phase":         `{"model":"m","input":[{"type":"message","id":"msg_a","role":"assistant","status":"completed","phase":"final_answer","content":[{"type":"output_text","text":"ok","annotations":[],"logprobs":[]}]},{"role":"user","content":"x"}]}`,
	} {
		t.Run(name, func(t *testing.T) {
			req := mustDecodeResponses(t, []byte(body))
			items := req.InputItems(seqIDs())
			marshal(t, items)
			req.Normalize()
		})
	}
	req := mustDecodeResponses(t, []byte(`{"model":"m","input":"x","tool_choice":{"type":"allowed_tools","mode":"required","tools":[]}}`))
	if req.toolChoice != "required" {
		t.Errorf("allowed_tools choice %q", req.toolChoice)
	}
	req = mustDecodeResponses(t, []byte(`{"model":"m","input":"answer in json","text":{"format":{"type":"json_object"}}}`))
	equal(t, "json_object format", req.Format(), &scenario.ResponseFormat{Type: "json_object"})
}

// The conversation rules over a whole chain.
func TestValidateToolOutputs(t *testing.T) {
	user := Item{Type: "message", Role: "user", Content: []ItemPart{{Type: "input_text", Text: "x"}}}
	call := func(id string) Item {
		return Item{Type: "function_call", ID: "fc_" + id, CallID: id, Name: "f", Arguments: "{}"}
	}
	out := func(id string) Item { return Item{Type: "function_call_output", CallID: id, Output: "ok"} }
	for _, tt := range []struct {
		name  string
		items []Item
		want  string // "" for valid; else a fragment of the message
	}{
		{"plain chat", []Item{user}, ""},
		{"answered in the next input", []Item{user, call("call_1"), call("call_2"), out("call_2"), out("call_1"), user}, ""},
		{"answered later in the conversation", []Item{user, call("call_1"), user, out("call_1")}, ""},
		{"chain ends with calls, new input a message", []Item{user, call("call_1"), user}, "No tool output found for function call call_1."},
		{"chain ends with calls, new input empty", []Item{user, call("call_1")}, "No tool output found for function call call_1."},
		{"one of two unanswered", []Item{user, call("call_1"), call("call_2"), out("call_1")}, "No tool output found for function call call_2."},
		{"output without call", []Item{user, out("call_9")}, "No tool call found for function call output with call_id call_9."},
		{"output before its call", []Item{user, out("call_1"), call("call_1")}, "No tool call found for function call output with call_id call_1."},
		{"duplicate item", []Item{user, call("call_1"), call("call_1"), out("call_1")}, "Duplicate item found with id fc_call_1."},
	} {
		t.Run(tt.name, func(t *testing.T) {
			err := ValidateToolOutputs(tt.items)
			switch {
			case tt.want == "" && err != nil:
				t.Fatalf("refused: %v", err)
			case tt.want == "":
			case err == nil:
				t.Fatalf("accepted, want %q", tt.want)
			case err.Status != 400 || err.Type != "invalid_request_error" || err.Code != "" || err.Param != "input" || !strings.Contains(err.Message, tt.want):
				t.Errorf("got %+v, want 400 param input %q", err, tt.want)
			}
		})
	}
}

var responsesUsage = func() Usage {
	u := NewUsage(1100, 7)
	u.PromptTokensDetails.CachedTokens = 1024
	u.CompletionTokensDetails.ReasoningTokens = 3
	return u
}()

func testAnswer(req *ResponsesRequest) *ResponseAnswer {
	return &ResponseAnswer{
		ID: "resp_1", CreatedAt: 1741476542, Model: "gpt-4.1-2025-04-14", MessageID: "msg_1",
		Usage: responsesUsage, Request: req,
	}
}

var weatherCalls = []ResponseToolCall{
	{ID: "fc_1", CallID: "call_A", Name: "get_weather", Arguments: `{"city":"Paris"}`},
	{ID: "fc_2", CallID: "call_B", Name: "get_weather", Arguments: `{"city":"Rome, \"IT\""}`},
}

// The object carries every field the API sends, with its null and default
// values, and echoes the request's settings.
func TestResponseObjectShape(t *testing.T) {
	a := testAnswer(nil)
	a.Text = "Hi"
	got := marshal(t, a.Object())
	jsonEqual(t, "defaults", got, `{"id":"resp_1","object":"response","created_at":1741476542,"status":"completed",
		"access_programs":{"cyber":"standard"},"background":false,"billing":{"payer":"developer"},
		"completed_at":1741476542,"conversation":null,"error":null,"frequency_penalty":0,"incomplete_details":null,
		"instructions":null,"max_output_tokens":null,"max_tool_calls":null,"model":"gpt-4.1-2025-04-14","moderation":null,
		"output":[{"type":"message","id":"msg_1","status":"completed","role":"assistant","content":[{"type":"output_text","annotations":[],"logprobs":[],"text":"Hi"}]}],
		"parallel_tool_calls":true,"presence_penalty":0,"previous_response_id":null,"prompt_cache_key":null,"prompt_cache_retention":null,
		"reasoning":{"effort":null,"summary":null},"safety_identifier":null,"service_tier":"default","store":true,
		"temperature":1,"text":{"format":{"type":"text"},"verbosity":"medium"},"tool_choice":"auto","tools":[],
		"top_logprobs":0,"top_p":1,"truncation":"disabled",
		"usage":{"input_tokens":1100,"input_tokens_details":{"cache_write_tokens":0,"cached_tokens":1024},"output_tokens":7,"output_tokens_details":{"reasoning_tokens":3},"total_tokens":1107},
		"user":null,"metadata":{}}`)
	if bytes.Contains(got, []byte("output_text\":")) {
		t.Errorf("object has an output_text field: %s", got)
	}

	// A model outside the catalog: gpt-4.1 would refuse reasoning.effort.
	req := mustDecodeResponses(t, []byte(`{"model":"acme-model","input":"x","instructions":"Be brief.","store":false,
		"tools":[{"type":"function","name":"f","parameters":{"type":"object"}},{"type":"web_search","search_context_size":"low"}],
		"tool_choice":{"type":"function","name":"f"},"text":{"format":{"type":"json_schema","name":"s","schema":{"type":"object","properties":{},"required":[],"additionalProperties":false},"strict":true},"verbosity":"low"},
		"parallel_tool_calls":false,"metadata":{"a":"b"},"max_output_tokens":100,"prompt_cache_key":"k","temperature":0.5,"top_p":0.25,
		"truncation":"auto","user":"u","safety_identifier":"s","reasoning":{"effort":"low"},"service_tier":"flex","background":false,
		"prompt_cache_retention":"24h","top_logprobs":2,"max_tool_calls":3}`))
	b := testAnswer(req)
	b.Instructions, b.PreviousResponseID, b.Conversation = req.Instructions, "resp_0", "conv_7"
	b.ToolCalls = weatherCalls[:1]
	var o map[string]json.RawMessage
	json.Unmarshal(marshal(t, b.Object()), &o)
	for key, want := range map[string]string{
		"instructions": `"Be brief."`, "previous_response_id": `"resp_0"`, "conversation": `{"id":"conv_7"}`, "store": `false`,
		"tools":       `[{"type":"function","description":null,"name":"f","parameters":{"type":"object"},"strict":true},{"type":"web_search","search_context_size":"low"}]`,
		"tool_choice": `{"type":"function","name":"f"}`, "text": `{"format":{"type":"json_schema","name":"s","schema":{"type":"object","properties":{},"required":[],"additionalProperties":false},"strict":true},"verbosity":"low"}`,
		"parallel_tool_calls": `false`, "metadata": `{"a":"b"}`, "max_output_tokens": `100`, "prompt_cache_key": `"k"`,
		"temperature": `0.5`, "top_p": `0.25`, "truncation": `"auto"`, "user": `"u"`, "safety_identifier": `"s"`,
		"reasoning": `{"effort":"low","summary":null}`, "service_tier": `"flex"`, "prompt_cache_retention": `"24h"`,
		"top_logprobs": `2`, "max_tool_calls": `3`,
		"output": `[{"type":"function_call","id":"fc_1","status":"completed","call_id":"call_A","name":"get_weather","arguments":"{\"city\":\"Paris\"}"}]`,
	} {
		jsonEqual(t, key, o[key], want)
	}

	c := testAnswer(nil)
	c.Text, c.FinishReason = "cut sho", "length"
	o = nil
	json.Unmarshal(marshal(t, c.Object()), &o)
	jsonEqual(t, "incomplete status", o["status"], `"incomplete"`)
	jsonEqual(t, "incomplete details", o["incomplete_details"], `{"reason":"max_output_tokens"}`)
	jsonEqual(t, "incomplete completed_at", o["completed_at"], `null`)
	if !bytes.Contains(o["output"], []byte(`"status":"incomplete"`)) {
		t.Errorf("incomplete output %s", o["output"])
	}
}

// A response's output, turned back into input by openai-go's ToParam as a
// client does in a tool loop, decodes, validates as a chain, and answers
// the calls.
func TestResponsesToolLoopFromSDKOutput(t *testing.T) {
	a := testAnswer(nil)
	a.Text, a.ToolCalls = "Checking.", weatherCalls
	var resp responses.Response
	if err := json.Unmarshal(marshal(t, a.Object()), &resp); err != nil {
		t.Fatal(err)
	}
	input := responses.ResponseInputParam{responses.ResponseInputItemParamOfMessage("Weather?", responses.EasyInputMessageRoleUser)}
	var outputs responses.ResponseInputParam
	for _, item := range resp.Output {
		switch v := item.AsAny().(type) {
		case responses.ResponseOutputMessage:
			p := v.ToParam()
			input = append(input, responses.ResponseInputItemUnionParam{OfOutputMessage: &p})
		case responses.ResponseFunctionToolCall:
			p := v.ToParam()
			input = append(input, responses.ResponseInputItemUnionParam{OfFunctionCall: &p})
			o := responses.ResponseInputItemParamOfFunctionCallOutput("sunny")
			o.OfFunctionCallOutput.CallID = param.NewOpt(v.CallID)
			outputs = append(outputs, o)
		}
	}
	input = append(input, outputs...)
	req := mustDecodeResponses(t, marshal(t, responses.ResponseNewParams{Model: "gpt-4.1",
		Input: responses.ResponseNewParamsInputUnion{OfInputItemList: input}}))
	items := req.InputItems(seqIDs())
	if err := ValidateToolOutputs(items); err != nil {
		t.Fatal(err)
	}
	n := req.Normalize()
	if len(n.Messages) != 4 || n.Messages[1].Content != "Checking." || len(n.Messages[1].ToolCalls) != 2 || len(n.ToolResults()) != 2 ||
		n.ToolResults()[1].Name != "get_weather" {
		t.Errorf("normalized %+v", n.Messages)
	}

	// The same calls answered through previous_response_id: the stored
	// chain (first input, then output) followed by the outputs alone.
	chain := append([]Item{{Type: "message", ID: "msg_0", Role: "user", Content: []ItemPart{{Type: "input_text", Text: "Weather?"}}}}, a.OutputItems()...)
	follow := mustDecodeResponses(t, []byte(`{"model":"m","previous_response_id":"resp_1","input":[
		{"type":"function_call_output","call_id":"call_A","output":"sunny"},{"type":"function_call_output","call_id":"call_B","output":"rain"}]}`))
	all := append(chain, follow.InputItems(seqIDs())...)
	if err := ValidateToolOutputs(all); err != nil {
		t.Fatal(err)
	}
	if err := ValidateToolOutputs(append(chain, mustDecodeResponses(t, []byte(`{"model":"m","input":"next"}`)).InputItems(seqIDs())...)); err == nil ||
		!strings.Contains(err.Message, "call_A") {
		t.Errorf("a chain moving on past its calls: %v", err)
	}
	// Re-sending the chain's items beside previous_response_id duplicates them.
	if err := ValidateToolOutputs(append(chain, items[1:]...)); err == nil || !strings.HasPrefix(err.Message, "Duplicate item found with id msg_1") {
		t.Errorf("re-sent items: %v", err)
	}
}
