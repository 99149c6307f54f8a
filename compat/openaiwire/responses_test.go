package openaiwire_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"strconv"
	"testing"

	. "github.com/llmtestserver/llmtestserver/internal/openai"
	"github.com/llmtestserver/llmtestserver/scenario"
	oai "github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
	"github.com/openai/openai-go/v3/responses"
	goai "github.com/sashabaranov/go-openai"
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

const responsesWeatherSchema = `{"type":"object","properties":{"city":{"type":"string"}},"required":["city"],"additionalProperties":false}`

// go-openai's CreateResponseRequest: any-typed input, conversation and
// tool_choice, tools from NewResponseFunctionTool, and its text format.
func TestResponsesDecodeGoOpenAI(t *testing.T) {
	parallel, store := true, true
	temp := float32(0.5)
	body := marshal(t, goai.CreateResponseRequest{
		Model: "gpt-4o",
		Input: []any{
			goai.ResponseInputMessage{Role: "system", Content: "Answer in JSON."},
			goai.ResponseInputMessage{Type: "message", Role: "user", Content: []any{
				goai.ResponseInputText{Type: "input_text", Text: "Weather?"},
				goai.ResponseInputFile{Type: "input_file", FileID: "file-1", Filename: "a.pdf"}}},
			map[string]any{"type": "function_call", "call_id": "call_9", "name": "get_weather", "arguments": `{"city":"Oslo"}`},
			goai.ResponseFunctionCallOutput{Type: "function_call_output", CallID: "call_9", Output: "-3C"},
		},
		Instructions: "Be terse.",
		Tools: []goai.ResponseTool{goai.NewResponseFunctionTool(goai.FunctionDefinition{
			Name: "get_weather", Description: "Weather", Parameters: json.RawMessage(responsesWeatherSchema)})},
		ToolChoice:        "required",
		ParallelToolCalls: &parallel,
		Store:             &store,
		Temperature:       &temp,
		Text: &goai.ResponseTextConfig{Format: &goai.ResponseTextFormat{Type: "json_schema", Name: "weather",
			Schema: json.RawMessage(responsesWeatherSchema), Strict: true}, Verbosity: "low"},
		Conversation:     map[string]string{"id": "conv_abc"},
		SafetyIdentifier: "safe-9",
		Metadata:         map[string]any{"k": "v"},
	})
	req := mustDecodeResponses(t, body)
	items := req.InputItems(seqIDs())
	if err := ValidateToolOutputs(items); err != nil {
		t.Fatal(err)
	}
	if p := items[1].Content[1]; p.Type != "input_file" || p.FileID != "file-1" || p.Filename != "a.pdf" {
		t.Errorf("file part %+v", p)
	}
	n := NormalizeResponses(req.Model, req.Instructions, items, req)
	want := &scenario.Request{
		Endpoint: scenario.EndpointResponses, Model: "gpt-4o", System: "Be terse.\nAnswer in JSON.",
		Messages: []scenario.Message{
			{Role: "user", Content: "Weather?"},
			{Role: "assistant", ToolCalls: []scenario.ToolCall{{ID: "call_9", Name: "get_weather", Arguments: `{"city":"Oslo"}`}}},
			{Role: "tool", Content: "-3C", ToolCallID: "call_9"},
		},
		Tools:             []scenario.Tool{{Name: "get_weather", Description: "Weather", Parameters: n.Tools[0].Parameters}},
		ToolChoice:        "required",
		ParallelToolCalls: &parallel,
		ResponseFormat:    &scenario.ResponseFormat{Type: "json_schema", Name: "weather", Schema: n.ResponseFormat.Schema, Strict: true},
		User:              "safe-9",
		Metadata:          map[string]string{"k": "v"},
		Conversation:      "conv_abc",
		ConversationID:    "conv_abc",
		Temperature:       new(0.5),
	}
	equal(t, "normalized", n, want)

	// A plain string input and previous_response_id, as a follow-up turn.
	req = mustDecodeResponses(t, marshal(t, goai.CreateResponseRequest{Model: "gpt-4o", Input: "And tomorrow?", PreviousResponseID: "resp_1"}))
	if req.PreviousResponseID != "resp_1" || len(req.InputItems(nil)) != 1 || req.Normalize().LastUserText() != "And tomorrow?" {
		t.Errorf("follow-up %+v", req)
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

// Object decodes in both SDKs, through their clients: openai-go's
// OutputText and go-openai's GetOutputText see the text, calls and usage.
func TestResponseObjectDecodesInBothSDKs(t *testing.T) {
	for _, tt := range []struct {
		name string
		edit func(*ResponseAnswer)
		text string
	}{
		{"text", func(a *ResponseAnswer) { a.Text = "Hello <b> & ✓" }, "Hello <b> & ✓"},
		{"empty", func(*ResponseAnswer) {}, ""},
		{"tool calls", func(a *ResponseAnswer) { a.ToolCalls = weatherCalls }, ""},
		{"text and tool calls", func(a *ResponseAnswer) { a.Text, a.ToolCalls = "Checking.", weatherCalls }, "Checking."},
		{"refusal", func(a *ResponseAnswer) { a.Refusal = "I can't help." }, ""},
		{"incomplete", func(a *ResponseAnswer) { a.Text, a.FinishReason = "cut", "length" }, "cut"},
		{"failed", func(a *ResponseAnswer) { a.Failure = &ResponseError{Code: "server_error", Message: "boom"} }, ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			a := testAnswer(nil)
			a.Conversation = "conv_1"
			tt.edit(a)
			body := marshal(t, a.Object())
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", "application/json")
				w.Write(body)
			}))
			defer srv.Close()

			client := oai.NewClient(option.WithBaseURL(srv.URL+"/v1"), option.WithAPIKey("sk-test"), option.WithMaxRetries(0))
			got, err := client.Responses.New(context.Background(), responses.ResponseNewParams{Model: "gpt-4.1",
				Input: responses.ResponseNewParamsInputUnion{OfString: oai.String("x")}})
			if err != nil {
				t.Fatal(err)
			}
			if got.OutputText() != tt.text || got.ID != "resp_1" || int64(got.CreatedAt) != 1741476542 || string(got.Status) != a.Status() ||
				got.Conversation.ID != "conv_1" || got.Usage.InputTokensDetails.CachedTokens != 1024 || got.Usage.OutputTokensDetails.ReasoningTokens != 3 {
				t.Errorf("openai-go decoded %+v", got)
			}
			calls := 0
			for _, item := range got.Output {
				switch v := item.AsAny().(type) {
				case responses.ResponseFunctionToolCall:
					c := a.ToolCalls[calls]
					if v.ID != c.ID || v.CallID != c.CallID || v.Name != c.Name || v.Arguments != c.Arguments || v.Status != "completed" {
						t.Errorf("openai-go call %+v", v)
					}
					calls++
				case responses.ResponseOutputMessage:
					if v.ID != "msg_1" || len(v.Content) != 1 {
						t.Errorf("openai-go message %+v", v)
					}
					if a.Refusal != "" && v.Content[0].AsRefusal().Refusal != a.Refusal {
						t.Errorf("openai-go refusal %+v", v.Content[0])
					}
				default:
					t.Errorf("openai-go output item %T", v)
				}
			}
			if calls != len(a.ToolCalls) && a.Failure == nil {
				t.Errorf("openai-go saw %d calls", calls)
			}
			if a.Failure != nil && (got.Error.Code != "server_error" || got.Error.Message != "boom") {
				t.Errorf("openai-go error %+v", got.Error)
			}

			g, err := goOpenAIClient(srv.URL).CreateResponse(context.Background(), goai.CreateResponseRequest{Model: "gpt-4.1", Input: "x"})
			if err != nil {
				t.Fatal(err)
			}
			if g.GetOutputText() != tt.text || g.Created != 1741476542 || string(g.Status) != a.Status() || g.Conversation.ID != "conv_1" ||
				g.Usage.TotalTokens != 1107 || g.Usage.InputTokensDetails.CachedTokens != 1024 {
				t.Errorf("go-openai decoded %+v", g)
			}
		})
	}
}

// The input_items list envelope and its paging, through openai-go's
// auto-pager and go-openai's list call.
func TestResponsesInputItemsPaging(t *testing.T) {
	var items []Item
	for i := 1; i <= 45; i++ {
		items = append(items, Item{Type: "message", ID: fmt.Sprintf("msg_%02d", i), Role: "user",
			Content: []ItemPart{{Type: "input_text", Text: strconv.Itoa(i)}}})
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		q := r.URL.Query()
		limit, _ := strconv.Atoi(q.Get("limit"))
		page, more := pageOfItems(items, q.Get("after"), limit, q.Get("order"))
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(NewItemList(page, more))
	}))
	defer srv.Close()
	client := oai.NewClient(option.WithBaseURL(srv.URL+"/v1"), option.WithAPIKey("sk-test"), option.WithMaxRetries(0))
	for _, tt := range []struct {
		order string
		limit int64
		first string
	}{{"", 0, "msg_45"}, {"asc", 7, "msg_01"}, {"desc", 100, "msg_45"}} {
		params := responses.InputItemListParams{Order: responses.InputItemListParamsOrder(tt.order)}
		if tt.limit > 0 {
			params.Limit = oai.Int(tt.limit)
		}
		pager := client.Responses.InputItems.ListAutoPaging(context.Background(), "resp_1", params)
		var got []string
		for pager.Next() {
			got = append(got, pager.Current().AsMessage().ID)
		}
		if err := pager.Err(); err != nil || len(got) != 45 || got[0] != tt.first {
			t.Errorf("order %q limit %d: %d items from %v, err %v", tt.order, tt.limit, len(got), got, err)
		}
	}
	list, err := goOpenAIClient(srv.URL).ListResponseInputItems(context.Background(), "resp_1", goai.ResponseInputItemsListOptions{Limit: 5, Order: "asc"})
	if err != nil || len(list.Data) != 5 || list.FirstID != "msg_01" || list.LastID != "msg_05" || !list.HasMore {
		t.Errorf("go-openai list %+v, %v", list, err)
	}
	empty := marshal(t, NewItemList(nil, false))
	jsonEqual(t, "empty list", empty, `{"object":"list","data":[],"first_id":null,"last_id":null,"has_more":false}`)

}

// pageOfItems pages items as input_items does for a valid query: newest
// first unless order is asc, limit 20 unless given, after the item named.
// The route's own paging, and its refusals, are tested through the server
// (internal/openai's input_items tests); this one serves the SDKs' pagers
// the list envelope NewItemList renders.
func pageOfItems(items []Item, after string, limit int, order string) ([]Item, bool) {
	if order != "asc" {
		items = slices.Clone(items)
		slices.Reverse(items)
	}
	if limit == 0 {
		limit = 20
	}
	start := 0
	if after != "" {
		start = slices.IndexFunc(items, func(it Item) bool { return it.ID == after }) + 1
	}
	end := min(start+limit, len(items))
	return items[start:end], end < len(items)
}

func TestResponseDeletedDecodes(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(NewResponseDeleted("resp_1"))
	}))
	defer srv.Close()
	got, err := goOpenAIClient(srv.URL).DeleteResponse(context.Background(), "resp_1")
	if err != nil || got.ID != "resp_1" || got.Object != "response" || !got.Deleted {
		t.Errorf("go-openai delete %+v, %v", got, err)
	}
	client := oai.NewClient(option.WithBaseURL(srv.URL+"/v1"), option.WithAPIKey("sk-test"), option.WithMaxRetries(0))
	if err := client.Responses.Delete(context.Background(), "resp_1"); err != nil {
		t.Errorf("openai-go delete: %v", err)
	}
}
