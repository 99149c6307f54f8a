package openai_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/llmtestserver/llmtestserver/internal/e2e"
	"github.com/llmtestserver/llmtestserver/journal"
	"github.com/llmtestserver/llmtestserver/llmtest"
	"github.com/llmtestserver/llmtestserver/scenario"
	"github.com/llmtestserver/llmtestserver/session"
	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/responses"
)

// rsItem is an output item without its IDs.
type rsItem struct {
	Type, Role, Status, Text, Name, Arguments string
}

// rsShape is a response without IDs and timestamps: what a streamed and a
// non-streamed answer to the same conversation must agree on.
type rsShape struct {
	Object, Status, Model              string
	Items                              []rsItem
	InputTokens, OutputTokens, Total   int64
	Chained                            bool
	Tools                              []string
	Format                             string
	HasCompletedAt, HasConversationRef bool
}

func rsShapeOf(r *responses.Response) rsShape {
	s := rsShape{Object: string(r.Object), Status: string(r.Status), Model: r.Model,
		InputTokens: r.Usage.InputTokens, OutputTokens: r.Usage.OutputTokens, Total: r.Usage.TotalTokens,
		Chained: r.PreviousResponseID != "", Format: r.Text.Format.Type,
		HasCompletedAt: r.CompletedAt > 0, HasConversationRef: r.Conversation.ID != ""}
	for _, tool := range r.Tools {
		s.Tools = append(s.Tools, tool.Type+":"+tool.Name)
	}
	for _, it := range r.Output {
		item := rsItem{Type: it.Type, Role: it.Role, Status: it.Status}
		switch it.Type {
		case "message":
			for _, c := range it.AsMessage().Content {
				item.Text += c.Text + c.Refusal
			}
		case "function_call":
			fc := it.AsFunctionCall()
			item.Name, item.Arguments = fc.Name, fc.Arguments
		}
		s.Items = append(s.Items, item)
	}
	return s
}

// rsToolLoop runs a three-request tool loop over the Responses API on a
// fresh session, chained with previous_response_id: the question gets a
// function_call, its function_call_output gets the answer, and a follow-up
// question gets another answer. It checks each response and the journal and
// returns the shapes of the three responses.
func rsToolLoop(t *testing.T, srv *llmtest.Server, stream bool) []rsShape {
	t.Helper()
	sess := srv.NewSession(t, session.OnlyModels(e2e.ResponsesModel))
	sess.Chat("weather-followup").When(scenario.UserContains("tomorrow")).Responds("Tomorrow looks rainy.")
	sess.Chat("weather-answer").When(scenario.HasToolResult("get_weather")).Responds("It is 18°C and sunny in Paris.")
	sess.Chat("weather-ask").When(scenario.ToolOffered("get_weather")).CallsTool("get_weather", `{"city":"Paris","unit":"celsius"}`)
	client := e2e.ClientFor(sess, "k")

	r1 := e2e.Respond(t, client, responses.ResponseNewParams{Model: e2e.ResponsesModel, Tools: e2e.WeatherTools(),
		Input: e2e.InputText("What is the weather in Paris?")}, stream)
	if len(r1.Output) != 1 || r1.Output[0].Type != "function_call" {
		t.Fatalf("first answer output = %s, want one function_call", r1.RawJSON())
	}
	call := r1.Output[0].AsFunctionCall()
	if !strings.HasPrefix(call.CallID, "call_") || !strings.HasPrefix(call.ID, "fc_") ||
		call.Name != "get_weather" || call.Arguments != `{"city":"Paris","unit":"celsius"}` || call.Status != "completed" {
		t.Errorf("function call = %+v, want call_… fc_… get_weather with the scripted arguments", call)
	}
	if !strings.HasPrefix(r1.ID, "resp_") || r1.PreviousResponseID != "" || r1.OutputText() != "" {
		t.Errorf("first response id %q previous %q text %q", r1.ID, r1.PreviousResponseID, r1.OutputText())
	}

	r2 := e2e.Respond(t, client, responses.ResponseNewParams{Model: e2e.ResponsesModel, Tools: e2e.WeatherTools(),
		PreviousResponseID: openai.String(r1.ID), Input: e2e.InputItems(e2e.CallOutput(call.CallID, "18C, sunny"))}, stream)
	if r2.OutputText() != "It is 18°C and sunny in Paris." || r2.PreviousResponseID != r1.ID || r2.ID == r1.ID {
		t.Errorf("second response: text %q previous %q id %q, want the answer chained to %q", r2.OutputText(), r2.PreviousResponseID, r2.ID, r1.ID)
	}

	r3 := e2e.Respond(t, client, responses.ResponseNewParams{Model: e2e.ResponsesModel,
		PreviousResponseID: openai.String(r2.ID), Input: e2e.InputText("And tomorrow?")}, stream)
	if r3.OutputText() != "Tomorrow looks rainy." || r3.PreviousResponseID != r2.ID {
		t.Errorf("third response: text %q previous %q, want the follow-up chained to %q", r3.OutputText(), r3.PreviousResponseID, r2.ID)
	}

	entries := e2e.JournalOf(t, sess, 3)
	if len(entries) != 3 {
		t.Fatalf("journal holds %d entries, want 3", len(entries))
	}
	conv := entries[0].Conversation
	wantScenarios := []string{"weather-ask", "weather-answer", "weather-followup"}
	for i, e := range entries {
		if e.Status != http.StatusOK || e.Path != "/v1/responses" || e.Stream != stream || e.Scenario != wantScenarios[i] {
			t.Errorf("entry %d: %d %s stream %v scenario %q, want 200 /v1/responses stream %v %q",
				i+1, e.Status, e.Path, e.Stream, e.Scenario, stream, wantScenarios[i])
		}
		if conv == "" || e.Conversation != conv || e.Generation != 1 {
			t.Errorf("entry %d: conversation %q generation %d, want the chain's %q generation 1", i+1, e.Conversation, e.Generation, conv)
		}
		if want := []int{1, 1, 2}[i]; e.Turn != want {
			t.Errorf("entry %d: turn %d, want %d (a tool result is no new user turn)", i+1, e.Turn, want)
		}
	}
	if tc := entries[0].ToolCalls; len(tc) != 1 || tc[0].ID != call.CallID || tc[0].Name != "get_weather" {
		t.Errorf("journaled tool calls %+v, want the call %s", tc, call.CallID)
	}
	wantResult := []journal.ToolResult{{CallID: call.CallID, Name: "get_weather", Content: "18C, sunny"}}
	if !reflect.DeepEqual(entries[1].ToolResults, wantResult) {
		t.Errorf("journaled tool results %+v, want %+v", entries[1].ToolResults, wantResult)
	}
	if entries[1].UserText != "What is the weather in Paris?" || entries[2].UserText != "And tomorrow?" {
		t.Errorf("user texts %q, %q: the chain's user messages are the request's", entries[1].UserText, entries[2].UserText)
	}
	if sess.Pending() != 0 {
		t.Errorf("%d scripted replies unused", sess.Pending())
	}
	return []rsShape{rsShapeOf(r1), rsShapeOf(r2), rsShapeOf(r3)}
}

// A tool-calling loop over the Responses API, chained with
// previous_response_id, streamed and not: both give the same responses but
// for IDs and timestamps.
func TestResponsesToolLoopChainedByPreviousResponseID(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t)
	plain := rsToolLoop(t, srv, false)
	streamed := rsToolLoop(t, srv, true)
	if !reflect.DeepEqual(plain, streamed) {
		t.Errorf("streamed responses differ from non-streamed ones:\n plain    %+v\n streamed %+v", plain, streamed)
	}
	if plain[0].Status != "completed" || plain[0].InputTokens == 0 || plain[0].OutputTokens == 0 ||
		plain[0].Total != plain[0].InputTokens+plain[0].OutputTokens || !plain[0].HasCompletedAt {
		t.Errorf("first response %+v: want completed with usage", plain[0])
	}
	if plain[1].InputTokens <= plain[0].InputTokens {
		t.Errorf("input tokens %d then %d: the chain's history must count", plain[0].InputTokens, plain[1].InputTokens)
	}
	if !slices.Equal(plain[0].Tools, []string{"function:get_weather"}) || plain[2].Tools != nil {
		t.Errorf("tools echoed %v and %v, want the offered function then none", plain[0].Tools, plain[2].Tools)
	}
}

// text.format json_schema with a JSON reply: the reply is the output text,
// the format is echoed, and a reply that fails the schema is recorded.
func TestResponsesStructuredOutput(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t)
	sess := srv.NewSession(t)
	type weather struct {
		City  string  `json:"city"`
		Temp  float64 `json:"temp"`
		Sunny bool    `json:"sunny"`
	}
	sess.Chat("weather").RespondsJSON(weather{City: "Paris", Temp: 21.5, Sunny: true}).
		RespondsJSON(map[string]any{"city": "Paris", "temp": "warm"})
	client := e2e.ClientFor(sess, "k")
	params := func(stream bool) responses.ResponseNewParams {
		return responses.ResponseNewParams{Model: e2e.ResponsesModel, Input: e2e.InputText(fmt.Sprint("Weather in Paris? stream=", stream)),
			Text: responses.ResponseTextConfigParam{Format: responses.ResponseFormatTextConfigUnionParam{
				OfJSONSchema: &responses.ResponseFormatTextJSONSchemaConfigParam{Name: "weather", Strict: openai.Bool(true),
					Schema: map[string]any{
						"type": "object",
						"properties": map[string]any{
							"city": map[string]any{"type": "string"}, "temp": map[string]any{"type": "number"}, "sunny": map[string]any{"type": "boolean"},
						},
						"required":             []string{"city", "temp", "sunny"},
						"additionalProperties": false,
					}}}}}
	}
	r := e2e.Respond(t, client, params(false), false)
	var got weather
	if err := json.Unmarshal([]byte(r.OutputText()), &got); err != nil || got != (weather{"Paris", 21.5, true}) {
		t.Errorf("output %q decodes to %+v (%v)", r.OutputText(), got, err)
	}
	if f := r.Text.Format; f.Type != "json_schema" || f.Name != "weather" || !f.Strict || f.Schema["type"] != "object" {
		t.Errorf("text.format echoed as %+v", f)
	}
	r = e2e.Respond(t, client, params(true), true)
	if r.OutputText() != `{"city":"Paris","temp":"warm"}` {
		t.Errorf("non-conforming reply changed: %q", r.OutputText())
	}
	entries := e2e.JournalOf(t, sess, 2)
	if len(entries[0].SchemaErrors) != 0 || len(entries[1].SchemaErrors) == 0 {
		t.Errorf("schema errors %q then %q, want none then some", entries[0].SchemaErrors, entries[1].SchemaErrors)
	}
	if rep := sess.Assertions(); rep.SchemaMismatchTotal != 1 || len(rep.SchemaMismatches) != 1 || rep.SchemaMismatches[0].Seq != entries[1].Seq {
		t.Errorf("report %+v, want the second request as the one schema mismatch", rep)
	}
}

// A stateless tool loop: with store:false nothing can be chained, so the
// client sends the whole conversation every time, echoing the output items
// it got; the conversation is still recognized from its opening.
func TestResponsesStatelessToolLoop(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t)
	sess := srv.NewSession(t)
	sess.Chat("more").When(scenario.UserContains("More")).Responds("More sun.")
	sess.Chat("answer").When(scenario.HasToolResult("get_weather")).Responds("Sunny.")
	sess.Chat("ask").When(scenario.ToolOffered("get_weather")).CallsTool("get_weather", `{"city":"Paris"}`)
	client := e2e.ClientFor(sess, "k")
	history := []responses.ResponseInputItemUnionParam{
		responses.ResponseInputItemParamOfMessage("Weather?", responses.EasyInputMessageRoleUser)}
	next := func(tools []responses.ToolUnionParam) *responses.Response {
		t.Helper()
		r := e2e.Respond(t, client, responses.ResponseNewParams{Model: e2e.ResponsesModel, Tools: tools, Store: openai.Bool(false),
			Input: e2e.InputItems(history...)}, false)
		for _, it := range r.Output {
			switch it.Type {
			case "function_call":
				fc := it.AsFunctionCall()
				item := responses.ResponseInputItemParamOfFunctionCall(fc.Arguments, fc.CallID, fc.Name)
				item.OfFunctionCall.ID = openai.String(fc.ID)
				history = append(history, item, e2e.CallOutput(fc.CallID, "sunny"))
			case "message":
				msg := it.AsMessage().ToParam()
				history = append(history, responses.ResponseInputItemUnionParam{OfOutputMessage: &msg})
			}
		}
		return r
	}
	if r := next(e2e.WeatherTools()); r.Output[0].Type != "function_call" {
		t.Fatalf("first answer %s, want a function call", r.RawJSON())
	}
	if r := next(e2e.WeatherTools()); r.OutputText() != "Sunny." {
		t.Errorf("second answer %q", r.OutputText())
	}
	history = append(history, responses.ResponseInputItemParamOfMessage("More?", responses.EasyInputMessageRoleUser))
	if r := next(nil); r.OutputText() != "More sun." {
		t.Errorf("third answer %q", r.OutputText())
	}
	entries := e2e.JournalOf(t, sess, 3)
	for i, e := range entries {
		if e.Conversation != entries[0].Conversation || e.Generation != 1 || e.Turn != []int{1, 1, 2}[i] {
			t.Errorf("entry %d: conversation %s/%d turn %d, want one conversation, turns 1, 1, 2", i+1, e.Conversation, e.Generation, e.Turn)
		}
	}
}
