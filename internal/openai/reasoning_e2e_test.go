package openai_test

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/llmtestserver/llmtestserver/internal/e2e"
	"github.com/llmtestserver/llmtestserver/llmtest"
	"github.com/llmtestserver/llmtestserver/scenario"
	"github.com/llmtestserver/llmtestserver/session"
	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/packages/param"
	"github.com/openai/openai-go/v3/responses"
	"github.com/openai/openai-go/v3/shared"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// rsReasoningModel is the reasoning model the reasoning tests talk to.
const rsReasoningModel = "o4-mini"

// reasoningSession is a session whose chat scenario answers every request
// with reply.
func reasoningSession(t *testing.T, reply scenario.Reply) (*session.Session, openai.Client) {
	t.Helper()
	sess := llmtest.NewServer(t).NewSession(t)
	sess.Chat("any").Reply(reply).Repeat()
	return sess, e2e.ClientFor(sess, "k")
}

// visibleTokens is the output tokens of the answer's visible part: what
// the usage reports beyond the reasoning.
func visibleTokens(u responses.ResponseUsage) int64 {
	return u.OutputTokens - u.OutputTokensDetails.ReasoningTokens
}

// A reasoning model's output starts with a reasoning item (rs_ and the
// same ID length as the other items, an empty summary, no
// encrypted_content unless asked for), reasoning.effort echoes the
// model's default, and the usage counts reasoning tokens inside the output
// tokens by the documented rule (medium: 4 per visible token, at least
// 64). A chat model answers as before.
func TestReasoningModelResponse(t *testing.T) {
	t.Parallel()
	_, client := reasoningSession(t, scenario.Text("The answer is 4."))

	resp, err := client.Responses.New(t.Context(), responses.ResponseNewParams{Model: rsReasoningModel, Input: e2e.InputText("2+2?")})
	require.NoError(t, err)
	require.Len(t, resp.Output, 2)
	rs, ok := resp.Output[0].AsAny().(responses.ResponseReasoningItem)
	require.True(t, ok, "output[0] is %q, want a reasoning item", resp.Output[0].Type)
	msg := resp.Output[1].AsMessage()
	assert.True(t, strings.HasPrefix(rs.ID, "rs_"), rs.ID)
	assert.Len(t, strings.TrimPrefix(rs.ID, "rs_"), len(strings.TrimPrefix(msg.ID, "msg_")), "rs_ and msg_ IDs have one length")
	assert.True(t, rs.JSON.Summary.Valid())
	assert.Empty(t, rs.Summary)
	assert.False(t, rs.JSON.EncryptedContent.Valid(), "encrypted_content is sent only when include asks for it")
	assert.Equal(t, "The answer is 4.", resp.OutputText())
	assert.Equal(t, shared.ReasoningEffortMedium, resp.Reasoning.Effort, "the model's default effort is echoed")
	assert.False(t, resp.Reasoning.JSON.Summary.Valid(), "no summary asked: null")

	u := resp.Usage
	visible := visibleTokens(u)
	require.Positive(t, visible)
	assert.Equal(t, max(4*visible, 64), u.OutputTokensDetails.ReasoningTokens)
	assert.Equal(t, u.InputTokens+u.OutputTokens, u.TotalTokens)

	low, err := client.Responses.New(t.Context(), responses.ResponseNewParams{Model: rsReasoningModel, Input: e2e.InputText("2+2?"),
		Reasoning: shared.ReasoningParam{Effort: shared.ReasoningEffortHigh}})
	require.NoError(t, err)
	assert.Equal(t, shared.ReasoningEffortHigh, low.Reasoning.Effort)
	assert.Equal(t, max(8*visibleTokens(low.Usage), 256), low.Usage.OutputTokensDetails.ReasoningTokens)

	chat, err := client.Responses.New(t.Context(), responses.ResponseNewParams{Model: e2e.ResponsesModel, Input: e2e.InputText("2+2?")})
	require.NoError(t, err)
	require.Len(t, chat.Output, 1)
	assert.Equal(t, "message", chat.Output[0].Type)
	assert.False(t, chat.Reasoning.JSON.Effort.Valid(), "a chat model echoes effort null")
	assert.Zero(t, chat.Usage.OutputTokensDetails.ReasoningTokens)
}

// With reasoning.summary, the reply's Thinking is the summary: one part
// per section, in the object and in the stream, whose events come in the
// real order with item_id, output_index and summary_index; every delta
// carries obfuscation padding; service_tier is "auto" until the end.
func TestReasoningSummaryStream(t *testing.T) {
	t.Parallel()
	thinking := "**Adding**\n\nTwo and two.\n\n**Checking**\n\nIt is four."
	_, client := reasoningSession(t, scenario.Think(thinking, "4"))
	params := responses.ResponseNewParams{Model: rsReasoningModel, Input: e2e.InputText("2+2?"),
		Reasoning: shared.ReasoningParam{Summary: shared.ReasoningSummaryAuto}}

	stream := client.Responses.NewStreaming(t.Context(), params)
	var names []string
	var rsID string
	summary := map[int64]string{}
	var final responses.Response
	for stream.Next() {
		ev := stream.Current()
		names = append(names, ev.Type)
		switch e := ev.AsAny().(type) {
		case responses.ResponseCreatedEvent:
			assert.Equal(t, responses.ResponseServiceTier("auto"), e.Response.ServiceTier)
		case responses.ResponseOutputItemAddedEvent:
			if e.Item.Type == "reasoning" {
				rsID = e.Item.ID
				assert.Zero(t, e.OutputIndex)
				assert.Empty(t, e.Item.Summary, "the item opens with an empty summary")
			} else {
				assert.EqualValues(t, 1, e.OutputIndex, "the message follows the reasoning item")
			}
		case responses.ResponseReasoningSummaryPartAddedEvent:
			assert.Equal(t, rsID, e.ItemID)
			assert.Zero(t, e.OutputIndex)
			assert.Equal(t, "summary_text", string(e.Part.Type))
			assert.Empty(t, e.Part.Text)
		case responses.ResponseReasoningSummaryTextDeltaEvent:
			assert.Equal(t, rsID, e.ItemID)
			summary[e.SummaryIndex] += e.Delta
			assert.NotEmpty(t, rawString(t, e.RawJSON(), "obfuscation"), "summary delta without obfuscation: %s", e.RawJSON())
		case responses.ResponseReasoningSummaryTextDoneEvent:
			assert.Equal(t, summary[e.SummaryIndex], e.Text)
		case responses.ResponseReasoningSummaryPartDoneEvent:
			assert.Equal(t, summary[e.SummaryIndex], e.Part.Text)
		case responses.ResponseTextDeltaEvent:
			assert.EqualValues(t, 1, e.OutputIndex)
			obf := rawString(t, e.RawJSON(), "obfuscation")
			require.NotEmpty(t, obf, "text delta without obfuscation: %s", e.RawJSON())
			assert.Len(t, []rune(e.Delta+obf), 16, "delta and padding make 16 characters")
		case responses.ResponseCompletedEvent:
			final = e.Response
		}
	}
	require.NoError(t, stream.Err())
	require.NoError(t, stream.Close())
	assert.Equal(t, []string{"response.created", "response.in_progress",
		"response.output_item.added",
		"response.reasoning_summary_part.added", "response.reasoning_summary_text.delta", "response.reasoning_summary_text.done", "response.reasoning_summary_part.done",
		"response.reasoning_summary_part.added", "response.reasoning_summary_text.delta", "response.reasoning_summary_text.done", "response.reasoning_summary_part.done",
		"response.output_item.done",
		"response.output_item.added", "response.content_part.added", "response.output_text.delta", "response.output_text.done",
		"response.content_part.done", "response.output_item.done", "response.completed"}, compact(names))
	assert.Equal(t, map[int64]string{0: "**Adding**\n\nTwo and two.", 1: "**Checking**\n\nIt is four."}, summary)
	assert.Equal(t, responses.ResponseServiceTier("default"), final.ServiceTier, "the resolved tier at completion")
	assert.Equal(t, shared.ReasoningSummaryAuto, final.Reasoning.Summary, "the summary asked for is echoed")

	plain, err := client.Responses.New(t.Context(), params)
	require.NoError(t, err)
	rs := plain.Output[0].AsReasoning()
	require.Len(t, rs.Summary, 2)
	assert.Equal(t, "**Checking**\n\nIt is four.", rs.Summary[1].Text)
	assert.Equal(t, "summary_text", string(rs.Summary[0].Type))
	assert.Positive(t, plain.Usage.OutputTokensDetails.ReasoningTokens)
}

// rawString is the string member key of the JSON object raw, "" when it
// has none.
func rawString(t *testing.T, raw, key string) string {
	t.Helper()
	var m map[string]any
	require.NoError(t, json.Unmarshal([]byte(raw), &m))
	s, _ := m[key].(string)
	return s
}

// compact drops repeated delta events, so that the order of the kinds of
// events can be compared whatever the chunking.
func compact(names []string) []string {
	var out []string
	for _, n := range names {
		if len(out) > 0 && out[len(out)-1] == n && strings.HasSuffix(n, ".delta") {
			continue
		}
		out = append(out, n)
	}
	return out
}

// A client that stores nothing asks for the encrypted reasoning and passes
// the previous output back as input, reasoning item included (openai-go's
// ToParam): the server accepts it, keeps it in the stored response's input
// items, and refuses a reasoning item without its summary.
func TestReasoningItemsPassedBack(t *testing.T) {
	t.Parallel()
	sess, client := reasoningSession(t, scenario.Text("Paris."))
	first, err := client.Responses.New(t.Context(), responses.ResponseNewParams{Model: rsReasoningModel, Input: e2e.InputText("Capital of France?"),
		Store: param.NewOpt(false), Include: []responses.ResponseIncludable{responses.ResponseIncludableReasoningEncryptedContent}})
	require.NoError(t, err)
	rs := first.Output[0].AsReasoning()
	require.True(t, strings.HasPrefix(rs.EncryptedContent, "gAAAAAB"), "encrypted_content %q", rs.EncryptedContent)
	assert.Contains(t, first.RawJSON(), `"store":false`)

	input := []responses.ResponseInputItemUnionParam{responses.ResponseInputItemParamOfMessage("Capital of France?", responses.EasyInputMessageRoleUser)}
	for _, item := range first.Output {
		switch v := item.AsAny().(type) {
		case responses.ResponseReasoningItem:
			p := v.ToParam()
			input = append(input, responses.ResponseInputItemUnionParam{OfReasoning: &p})
		case responses.ResponseOutputMessage:
			p := v.ToParam()
			input = append(input, responses.ResponseInputItemUnionParam{OfOutputMessage: &p})
		}
	}
	input = append(input, responses.ResponseInputItemParamOfMessage("And of Italy?", responses.EasyInputMessageRoleUser))
	second, err := client.Responses.New(t.Context(), responses.ResponseNewParams{Model: rsReasoningModel, Input: e2e.InputItems(input...)})
	require.NoError(t, err)
	entries := e2e.JournalOf(t, sess, 2)
	assert.Equal(t, "And of Italy?", entries[1].UserText, "the conversation around the reasoning item reaches the scenarios")

	page, err := client.Responses.InputItems.List(t.Context(), second.ID, responses.InputItemListParams{Order: responses.InputItemListParamsOrderAsc})
	require.NoError(t, err)
	require.Len(t, page.Data, 4)
	kept := page.Data[1]
	assert.Equal(t, "reasoning", kept.Type)
	assert.Equal(t, rs.ID, kept.ID)
	assert.Contains(t, kept.RawJSON(), rs.EncryptedContent, "the item is kept as sent")

	_, err = client.Responses.New(t.Context(), responses.ResponseNewParams{Model: rsReasoningModel,
		Input: e2e.InputItems(responses.ResponseInputItemUnionParam{OfReasoning: &responses.ResponseReasoningItemParam{ID: rs.ID}},
			responses.ResponseInputItemParamOfMessage("Hi", responses.EasyInputMessageRoleUser))})
	apiErr := e2e.WantInvalidRequest(t, "reasoning item without summary", err, 400, "missing_required_parameter", "input[0].summary")
	assert.Contains(t, apiErr.Message, "input[0].summary")
}

// Chat Completions shows a reasoning model's reasoning only as
// reasoning_tokens, counted inside completion_tokens, by the effort
// (reasoning_effort, else the model's default) and once per choice; a
// chat model reports none.
func TestReasoningChatTokens(t *testing.T) {
	t.Parallel()
	_, client := reasoningSession(t, scenario.Think("Two and two.", "4"))
	const thinking = 4 // "Two", " and", " two", "."

	got, err := client.Chat.Completions.New(t.Context(), e2e.UserTurn("o3", "2+2?"))
	require.NoError(t, err)
	u := got.Usage
	assert.Equal(t, "4", got.Choices[0].Message.Content)
	visible := u.CompletionTokens - u.CompletionTokensDetails.ReasoningTokens
	require.Positive(t, visible)
	assert.Equal(t, thinking+max(4*visible, 64), u.CompletionTokensDetails.ReasoningTokens, "the thinking and the hidden reasoning")
	assert.NotContains(t, got.Choices[0].Message.RawJSON(), "Two and two", "chat shows no reasoning")

	p := e2e.UserTurn("o3", "2+2?")
	p.ReasoningEffort = shared.ReasoningEffortLow
	p.N = openai.Int(2)
	low, err := client.Chat.Completions.New(t.Context(), p)
	require.NoError(t, err)
	assert.Equal(t, 2*(thinking+max(visible, 16)), low.Usage.CompletionTokensDetails.ReasoningTokens)

	plain, err := client.Chat.Completions.New(t.Context(), e2e.UserTurn("gpt-4.1-mini", "2+2?"))
	require.NoError(t, err)
	assert.EqualValues(t, thinking, plain.Usage.CompletionTokensDetails.ReasoningTokens, "a chat model counts only the scripted thinking")
}

// A reply scripts reasoning and cached tokens: both APIs and the journal
// report exactly those counts.
func TestScriptedReasoningAndCachedTokens(t *testing.T) {
	t.Parallel()
	sess, client := reasoningSession(t, scenario.Reply{Text: "ok",
		Usage: &scenario.Usage{Input: 2000, Output: 300, Reasoning: 200, CacheRead: 1024}})

	resp, err := client.Responses.New(t.Context(), responses.ResponseNewParams{Model: rsReasoningModel, Input: e2e.InputText("hi")})
	require.NoError(t, err)
	assert.EqualValues(t, 2000, resp.Usage.InputTokens)
	assert.EqualValues(t, 1024, resp.Usage.InputTokensDetails.CachedTokens)
	assert.EqualValues(t, 300, resp.Usage.OutputTokens)
	assert.EqualValues(t, 200, resp.Usage.OutputTokensDetails.ReasoningTokens)

	chat, err := client.Chat.Completions.New(t.Context(), e2e.UserTurn("gpt-4.1-mini", "hi"))
	require.NoError(t, err)
	assert.EqualValues(t, 1024, chat.Usage.PromptTokensDetails.CachedTokens)
	assert.EqualValues(t, 200, chat.Usage.CompletionTokensDetails.ReasoningTokens)
	assert.EqualValues(t, 2300, chat.Usage.TotalTokens)

	u := e2e.JournalOf(t, sess, 2)[1].Usage
	assert.Equal(t, [4]int{2000, 1024, 300, 200}, [4]int{u.Input, u.CacheRead, u.Output, u.Reasoning})
}

// Every Response object and every event of its stream, decoded with
// openai-go, has each field the SDK marks required (JSON.Field.Valid),
// down through usage, output items and event payloads: for a chat and a
// reasoning model, with text, tool calls, a summary and a refusal,
// completed, incomplete and failed.
func TestResponsesRequiredFieldsPresent(t *testing.T) {
	t.Parallel()
	sess := llmtest.NewServer(t).NewSession(t)
	sess.Chat("tools").When(scenario.UserContains("weather")).
		Reply(scenario.Reply{Text: "Checking.", Thinking: "**Plan**\n\nAsk the tool.",
			ToolCalls: []scenario.ToolCall{{Name: "get_weather", Arguments: `{"city":"Paris"}`}}}).Repeat()
	sess.Chat("long").When(scenario.UserContains("long")).Responds(strings.Repeat("word ", 100)).Repeat()
	sess.Chat("refuse").When(scenario.UserContains("refuse")).Refuses("I can't help with that.").Repeat()
	sess.Chat("fail").When(scenario.UserContains("fail")).Reply(scenario.FailStream("server_error", "The server had an error.")).Repeat()
	sess.Chat("any").Reply(scenario.Think("**Hm**\n\nFine.", "Hello.")).Repeat()
	client := e2e.ClientFor(sess, "k")

	for _, tt := range []struct {
		name   string
		params responses.ResponseNewParams
	}{
		{"chat model", responses.ResponseNewParams{Model: e2e.ResponsesModel, Input: e2e.InputText("hi")}},
		{"reasoning with summary", responses.ResponseNewParams{Model: rsReasoningModel, Input: e2e.InputText("hi"),
			Reasoning: shared.ReasoningParam{Summary: shared.ReasoningSummaryDetailed},
			Include:   []responses.ResponseIncludable{responses.ResponseIncludableReasoningEncryptedContent}}},
		{"tool calls", responses.ResponseNewParams{Model: rsReasoningModel, Input: e2e.InputText("weather?"), Tools: e2e.WeatherTools(),
			Reasoning: shared.ReasoningParam{Summary: shared.ReasoningSummaryAuto}}},
		{"incomplete", responses.ResponseNewParams{Model: e2e.ResponsesModel, Input: e2e.InputText("long"), MaxOutputTokens: param.NewOpt[int64](16)}},
		{"refusal", responses.ResponseNewParams{Model: rsReasoningModel, Input: e2e.InputText("refuse")}},
		{"failed", responses.ResponseNewParams{Model: rsReasoningModel, Input: e2e.InputText("fail")}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if tt.name == "failed" {
				// Only a stream fails after its 200; the plain request
				// gets an HTTP error.
				stream := client.Responses.NewStreaming(t.Context(), tt.params)
				var last string
				for stream.Next() {
					ev := stream.Current()
					requireFields(t, ev.Type, reflect.ValueOf(ev.AsAny()))
					last = ev.Type
				}
				require.NoError(t, stream.Close())
				assert.Equal(t, "response.failed", last)
				return
			}
			resp, err := client.Responses.New(t.Context(), tt.params)
			require.NoError(t, err)
			requireFields(t, "response", reflect.ValueOf(resp))
			got, err := client.Responses.Get(t.Context(), resp.ID, responses.ResponseGetParams{})
			require.NoError(t, err)
			requireFields(t, "retrieved", reflect.ValueOf(got))

			stream := client.Responses.NewStreaming(t.Context(), tt.params)
			n := 0
			for stream.Next() {
				ev := stream.Current()
				requireFields(t, ev.Type, reflect.ValueOf(ev.AsAny()))
				n++
			}
			require.NoError(t, stream.Err())
			require.NoError(t, stream.Close())
			assert.Greater(t, n, 3)
		})
	}
}

// requireFields fails the test for each field of v, an openai-go response
// type, that the SDK marks required (api:"required") and that the JSON it
// was decoded from lacked or sent with the wrong type (Field.Valid false
// for a value other than null), looking into nested objects,
// arrays and unions (through their AsAny) that were sent.
func requireFields(t *testing.T, path string, v reflect.Value) {
	t.Helper()
	for v.Kind() == reflect.Pointer || v.Kind() == reflect.Interface {
		if v.IsNil() {
			return
		}
		v = v.Elem()
	}
	switch v.Kind() {
	case reflect.Slice:
		for i := range v.Len() {
			requireFields(t, fmt.Sprintf("%s[%d]", path, i), v.Index(i))
		}
		return
	case reflect.Struct:
	default:
		return
	}
	if as := v.MethodByName("AsAny"); as.IsValid() && as.Type().NumIn() == 0 && as.Type().NumOut() == 1 {
		variant := as.Call(nil)[0]
		if !variant.IsNil() && variant.Elem().Type() != v.Type() {
			requireFields(t, path, variant)
			return
		}
	}
	meta := v.FieldByName("JSON")
	if !meta.IsValid() || meta.Kind() != reflect.Struct {
		return
	}
	typ := v.Type()
	for i := range typ.NumField() {
		f := typ.Field(i)
		field := meta.FieldByName(f.Name)
		if f.Name == "JSON" || !f.IsExported() || !field.IsValid() {
			continue
		}
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		valid := field.MethodByName("Valid").Call(nil)[0].Bool()
		raw := field.MethodByName("Raw").Call(nil)[0].String()
		// Required means present: the real API sends some required
		// fields (error, incomplete_details, instructions) as null.
		if strings.Contains(f.Tag.Get("api"), "required") && (raw == "" || !valid && raw != "null") {
			t.Errorf("%s.%s: required by openai-go, missing or of the wrong type (%s)", path, name, raw)
		}
		if valid {
			requireFields(t, path+"."+name, v.Field(i))
		}
	}
}

// stream_options.include_obfuscation false leaves the padding out of a
// stream, and include_obfuscation=false out of a stored response's
// replayed stream, which otherwise carries it.
func TestResponsesObfuscationOptOut(t *testing.T) {
	t.Parallel()
	_, client := reasoningSession(t, scenario.Text("one two three"))
	deltas := func(stream interface {
		Next() bool
		Current() responses.ResponseStreamEventUnion
		Err() error
		Close() error
	}) (n, padded int, id string) {
		for stream.Next() {
			ev := stream.Current()
			if ev.Type == "response.created" {
				id = ev.Response.ID
			}
			if ev.Type == "response.output_text.delta" {
				n++
				if rawString(t, ev.RawJSON(), "obfuscation") != "" {
					padded++
				}
			}
		}
		require.NoError(t, stream.Err())
		require.NoError(t, stream.Close())
		return n, padded, id
	}
	n, padded, id := deltas(client.Responses.NewStreaming(t.Context(), responses.ResponseNewParams{Model: e2e.ResponsesModel, Input: e2e.InputText("hi"),
		StreamOptions: responses.ResponseNewParamsStreamOptions{IncludeObfuscation: openai.Bool(false)}}))
	require.Positive(t, n)
	assert.Zero(t, padded, "include_obfuscation false")

	n, padded, _ = deltas(client.Responses.GetStreaming(t.Context(), id, responses.ResponseGetParams{}))
	assert.Equal(t, n, padded, "the replay pads by default")
	n, padded, _ = deltas(client.Responses.GetStreaming(t.Context(), id, responses.ResponseGetParams{IncludeObfuscation: openai.Bool(false)}))
	require.Positive(t, n)
	assert.Zero(t, padded, "include_obfuscation=false on the replay")
}
