package openai_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/conversations"
	"github.com/openai/openai-go/v3/responses"
	"github.com/openai/openai-go/v3/shared"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/llmtestserver/llmtestserver/internal/e2e"
	"github.com/llmtestserver/llmtestserver/llmtest"
	"github.com/llmtestserver/llmtestserver/scenario"
	"github.com/llmtestserver/llmtestserver/session"
)

// convMessage is an easy user or assistant message item.
func convMessage(text string, role responses.EasyInputMessageRole) responses.ResponseInputItemUnionParam {
	return responses.ResponseInputItemParamOfMessage(text, role)
}

// convItemTexts lists the items of conversation id, oldest first, as
// "role: text" (or the item's type for other items), paging through them
// with the SDK's auto-pager.
func convItemTexts(t *testing.T, client openai.Client, id string) []string {
	t.Helper()
	var out []string
	pager := client.Conversations.Items.ListAutoPaging(t.Context(), id, conversations.ItemListParams{
		Order: conversations.ItemListParamsOrderAsc, Limit: openai.Int(2)})
	for pager.Next() {
		it := pager.Current()
		if it.Type != "message" {
			out = append(out, it.Type)
			continue
		}
		m := it.AsMessage()
		var texts []string
		for _, c := range m.Content {
			texts = append(texts, c.Text)
		}
		out = append(out, string(m.Role)+": "+strings.Join(texts, " "))
	}
	require.NoError(t, pager.Err())
	return out
}

// The whole Conversations API through openai-go: create with items and
// metadata, retrieve, update, list, add, retrieve and delete items, delete.
func TestConversationsLifecycle(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t)
	sess := srv.NewSession(t)
	client := e2e.ClientFor(sess, "k")
	ctx := t.Context()

	conv, err := client.Conversations.New(ctx, conversations.ConversationNewParams{
		Items: []responses.ResponseInputItemUnionParam{
			convMessage("You speak like a pirate.", responses.EasyInputMessageRoleDeveloper),
			convMessage("Hello!", responses.EasyInputMessageRoleUser),
		},
		Metadata: shared.Metadata{"topic": "greetings"},
	})
	require.NoError(t, err)
	assert.Regexp(t, regexp.MustCompile(`^conv_[0-9a-f]{48}$`), conv.ID)
	assert.Equal(t, "conversation", string(conv.Object))
	assert.NotZero(t, conv.CreatedAt)
	assert.Equal(t, map[string]any{"topic": "greetings"}, conv.Metadata)

	got, err := client.Conversations.Get(ctx, conv.ID)
	require.NoError(t, err)
	assert.Equal(t, conv.ID, got.ID)
	assert.Equal(t, conv.CreatedAt, got.CreatedAt)

	updated, err := client.Conversations.Update(ctx, conv.ID, conversations.ConversationUpdateParams{
		Metadata: shared.Metadata{"topic": "farewells", "lang": "en"}})
	require.NoError(t, err)
	assert.Equal(t, map[string]any{"topic": "farewells", "lang": "en"}, updated.Metadata)

	added, err := client.Conversations.Items.New(ctx, conv.ID, conversations.ItemNewParams{
		Items: []responses.ResponseInputItemUnionParam{
			convMessage("Ahoy!", responses.EasyInputMessageRoleAssistant),
			convMessage("Goodbye!", responses.EasyInputMessageRoleUser),
		}})
	require.NoError(t, err)
	require.Len(t, added.Data, 2)
	assert.Equal(t, "list", string(added.Object))
	assert.False(t, added.HasMore)
	assert.Equal(t, added.Data[0].ID, added.FirstID)
	assert.Equal(t, added.Data[1].ID, added.LastID)
	assert.True(t, strings.HasPrefix(added.Data[0].ID, "msg_"), added.Data[0].ID)

	assert.Equal(t, []string{"developer: You speak like a pirate.", "user: Hello!", "assistant: Ahoy!", "user: Goodbye!"},
		convItemTexts(t, client, conv.ID))

	// The default order is newest first.
	page, err := client.Conversations.Items.List(ctx, conv.ID, conversations.ItemListParams{Limit: openai.Int(1)})
	require.NoError(t, err)
	require.Len(t, page.Data, 1)
	assert.Equal(t, added.Data[1].ID, page.Data[0].ID)
	assert.True(t, page.HasMore)
	assert.Equal(t, added.Data[1].ID, page.LastID)

	item, err := client.Conversations.Items.Get(ctx, conv.ID, added.Data[0].ID, conversations.ItemGetParams{})
	require.NoError(t, err)
	assert.Equal(t, "message", item.Type)
	assert.Equal(t, "assistant", item.Role)
	assert.Equal(t, "Ahoy!", item.AsMessage().Content[0].Text)
	assert.Equal(t, "output_text", item.AsMessage().Content[0].Type)

	after, err := client.Conversations.Items.Delete(ctx, conv.ID, added.Data[0].ID)
	require.NoError(t, err)
	assert.Equal(t, conv.ID, after.ID)
	assert.Equal(t, "conversation", string(after.Object))
	assert.Equal(t, []string{"developer: You speak like a pirate.", "user: Hello!", "user: Goodbye!"},
		convItemTexts(t, client, conv.ID))
	_, err = client.Conversations.Items.Get(ctx, conv.ID, added.Data[0].ID, conversations.ItemGetParams{})
	e2e.WantInvalidRequest(t, "a deleted item", err, http.StatusNotFound, "", "")

	deleted, err := client.Conversations.Delete(ctx, conv.ID)
	require.NoError(t, err)
	assert.Equal(t, conv.ID, deleted.ID)
	assert.True(t, deleted.Deleted)
	assert.Equal(t, "conversation.deleted", string(deleted.Object))
	_, err = client.Conversations.Get(ctx, conv.ID)
	apiErr := e2e.WantInvalidRequest(t, "a deleted conversation", err, http.StatusNotFound, "", "")
	assert.Equal(t, "Conversation with id '"+conv.ID+"' not found.", apiErr.Message)
}

// An unknown conversation is the API's 404 on every route and as the
// conversation of a Responses request, which uses no reply; the other
// refusals leave the conversation as it was.
func TestConversationsRefusals(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t)
	sess := srv.NewSession(t)
	sess.Chat("any").Responds("unused").Repeat()
	client := e2e.ClientFor(sess, "k")
	ctx := t.Context()
	const unknown = "conv_x"
	want404 := func(what string, err error) {
		t.Helper()
		apiErr := e2e.WantInvalidRequest(t, what, err, http.StatusNotFound, "", "")
		assert.Equal(t, "Conversation with id 'conv_x' not found.", apiErr.Message, what)
	}
	_, err := client.Conversations.Get(ctx, unknown)
	want404("Get", err)
	_, err = client.Conversations.Update(ctx, unknown, conversations.ConversationUpdateParams{Metadata: shared.Metadata{"a": "b"}})
	want404("Update", err)
	_, err = client.Conversations.Delete(ctx, unknown)
	want404("Delete", err)
	_, err = client.Conversations.Items.List(ctx, unknown, conversations.ItemListParams{})
	want404("Items.List", err)
	_, err = client.Conversations.Items.New(ctx, unknown, conversations.ItemNewParams{
		Items: []responses.ResponseInputItemUnionParam{convMessage("Hi", responses.EasyInputMessageRoleUser)}})
	want404("Items.New", err)
	_, err = client.Conversations.Items.Get(ctx, unknown, "msg_1", conversations.ItemGetParams{})
	want404("Items.Get", err)
	_, err = client.Conversations.Items.Delete(ctx, unknown, "msg_1")
	want404("Items.Delete", err)
	for _, conversation := range []responses.ResponseNewParamsConversationUnion{
		{OfString: openai.String(unknown)},
		{OfConversationObject: &responses.ResponseConversationParam{ID: unknown}},
	} {
		_, err = client.Responses.New(ctx, responses.ResponseNewParams{Model: e2e.ResponsesModel, Input: e2e.InputText("Hi"), Conversation: conversation})
		want404("Responses.New", err)
	}

	conv, err := client.Conversations.New(ctx, conversations.ConversationNewParams{})
	require.NoError(t, err)
	assert.Equal(t, map[string]any{}, conv.Metadata)
	tooMany := make([]responses.ResponseInputItemUnionParam, 21)
	for i := range tooMany {
		tooMany[i] = convMessage("Hi", responses.EasyInputMessageRoleUser)
	}
	_, err = client.Conversations.New(ctx, conversations.ConversationNewParams{Items: tooMany})
	e2e.WantInvalidRequest(t, "21 items at creation", err, http.StatusBadRequest, "array_above_max_length", "items")
	_, err = client.Conversations.Items.New(ctx, conv.ID, conversations.ItemNewParams{Items: tooMany})
	e2e.WantInvalidRequest(t, "21 items added", err, http.StatusBadRequest, "array_above_max_length", "items")
	_, err = client.Conversations.Items.New(ctx, conv.ID, conversations.ItemNewParams{
		Items: []responses.ResponseInputItemUnionParam{responses.ResponseInputItemParamOfItemReference("msg_nowhere")}})
	e2e.WantInvalidRequest(t, "a reference to no item", err, http.StatusNotFound, "", "input")
	_, err = client.Conversations.Items.Get(ctx, conv.ID, "msg_nowhere", conversations.ItemGetParams{})
	e2e.WantInvalidRequest(t, "an unknown item", err, http.StatusNotFound, "", "")

	_, err = client.Responses.New(ctx, responses.ResponseNewParams{Model: e2e.ResponsesModel, Input: e2e.InputText("Hi"),
		Conversation:       responses.ResponseNewParamsConversationUnion{OfString: openai.String(conv.ID)},
		PreviousResponseID: openai.String("resp_1")})
	e2e.WantInvalidRequest(t, "conversation and previous_response_id", err, http.StatusBadRequest, "mutually_exclusive_parameters", "")

	assert.Empty(t, convItemTexts(t, client, conv.ID))
	assert.Equal(t, 1, sess.Pending(), "refused requests used no reply")
	_, err = client.Responses.Get(ctx, conv.ID, responses.ResponseGetParams{})
	e2e.WantInvalidRequest(t, "a conversation retrieved as a response", err, http.StatusNotFound, "", "")
	err = client.Responses.Delete(ctx, conv.ID)
	e2e.WantInvalidRequest(t, "a conversation deleted as a response", err, http.StatusNotFound, "", "")
	_, err = client.Responses.New(ctx, responses.ResponseNewParams{Model: e2e.ResponsesModel, Input: e2e.InputText("Hi"),
		PreviousResponseID: openai.String(conv.ID)})
	e2e.WantInvalidRequest(t, "a conversation as previous_response_id", err, http.StatusBadRequest, "previous_response_not_found", "previous_response_id")
	_, err = client.Conversations.Get(ctx, conv.ID)
	require.NoError(t, err, "the conversation outlives the refusals")
}

// A Responses request that names a conversation sees its items before its
// input (matchers and usage), and the conversation takes the request's
// input and the response's output, turn after turn, streamed or not.
func TestResponsesConversationReadsAndAppends(t *testing.T) {
	t.Parallel()
	for _, stream := range []bool{false, true} {
		srv := llmtest.NewServer(t)
		sess := srv.NewSession(t)
		var mu sync.Mutex
		var seen []scenario.Message // the messages of the last conversation request
		sess.Chat("alone").When(scenario.Func(func(r *scenario.Request) bool { return r.Metadata["alone"] == "yes" })).
			Responds("Nice to meet you.").Repeat()
		sess.Chat("remembers").When(scenario.Func(func(r *scenario.Request) bool {
			mu.Lock()
			defer mu.Unlock()
			seen = slices.Clone(r.Messages)
			return r.System == "Be brief." && len(r.Messages) > 1 && r.Messages[0].Content == "My name is Ada."
		})).Responds("Nice to meet you.").Then("Your name is Ada.")
		client := e2e.ClientFor(sess, "k")
		ctx := t.Context()

		conv, err := client.Conversations.New(ctx, conversations.ConversationNewParams{
			Items: []responses.ResponseInputItemUnionParam{
				convMessage("Be brief.", responses.EasyInputMessageRoleDeveloper),
				convMessage("My name is Ada.", responses.EasyInputMessageRoleUser),
			}})
		require.NoError(t, err)
		byID := responses.ResponseNewParamsConversationUnion{OfString: openai.String(conv.ID)}
		r1 := e2e.Respond(t, client, responses.ResponseNewParams{Model: e2e.ResponsesModel, Input: e2e.InputText("Hello."), Conversation: byID}, stream)
		assert.Equal(t, "Nice to meet you.", r1.OutputText())
		assert.Equal(t, conv.ID, r1.Conversation.ID)

		// The same prompt without the conversation: the conversation's
		// items are counted in the usage.
		alone := e2e.Respond(t, client, responses.ResponseNewParams{Model: e2e.ResponsesModel, Instructions: openai.String("Be brief."),
			Input: e2e.InputItems(convMessage("My name is Ada.", responses.EasyInputMessageRoleUser),
				convMessage("Hello.", responses.EasyInputMessageRoleUser)), Store: openai.Bool(false),
			Metadata: shared.Metadata{"alone": "yes"}}, stream)
		assert.Equal(t, alone.Usage.InputTokens, r1.Usage.InputTokens)

		byObject := responses.ResponseNewParamsConversationUnion{OfConversationObject: &responses.ResponseConversationParam{ID: conv.ID}}
		r2 := e2e.Respond(t, client, responses.ResponseNewParams{Model: e2e.ResponsesModel, Input: e2e.InputText("What is my name?"), Conversation: byObject}, stream)
		assert.Equal(t, "Your name is Ada.", r2.OutputText())
		assert.Greater(t, r2.Usage.InputTokens, r1.Usage.InputTokens)
		mu.Lock()
		assert.Equal(t, []string{"user", "user", "assistant", "user"}, rolesOf(seen))
		assert.Equal(t, "Nice to meet you.", seen[2].Content)
		mu.Unlock()

		assert.Equal(t, []string{"developer: Be brief.", "user: My name is Ada.", "user: Hello.",
			"assistant: Nice to meet you.", "user: What is my name?", "assistant: Your name is Ada."},
			convItemTexts(t, client, conv.ID), "stream %v", stream)
		// The output items keep the IDs the response gave them.
		last, err := client.Conversations.Items.Get(ctx, conv.ID, r2.Output[len(r2.Output)-1].ID, conversations.ItemGetParams{})
		require.NoError(t, err)
		assert.Equal(t, "Your name is Ada.", last.AsMessage().Content[0].Text)

		// Every request of the conversation has the conversation's
		// identity, and its turns count on.
		entries := e2e.JournalOf(t, sess, 4) // the conversation's creation, r1, alone, r2
		assert.Equal(t, conv.ID, entries[1].Conversation)
		assert.Equal(t, conv.ID, entries[3].Conversation)
		assert.Equal(t, 3, entries[3].Turn)
		assert.Equal(t, 1, sess.Pending(), "the repeated reply of the request alone")
	}
}

func rolesOf(ms []scenario.Message) []string {
	var out []string
	for _, m := range ms {
		out = append(out, m.Role)
	}
	return out
}

// A conversation counts against the session's history bound with every
// item it keeps: items that could never fit (alone past history.max_bytes)
// are refused, on the items routes and as a Responses input, before any
// reply is used, and nothing changes; items that fit only without the
// conversation's oldest ones push those out, as the history evicts its
// oldest records.
func TestConversationsAreBoundedByTheHistory(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t)
	sess := srv.NewSession(t, session.WithHistoryMaxBytes(16<<10))
	sess.Chat("any").Responds("ok").Repeat()
	client := e2e.ClientFor(sess, "k")
	ctx := t.Context()
	item := func(text string) []responses.ResponseInputItemUnionParam {
		return []responses.ResponseInputItemUnionParam{convMessage(text, responses.EasyInputMessageRoleUser)}
	}
	a, b, tooBig := "A"+strings.Repeat("x", 10<<10), "B"+strings.Repeat("x", 10<<10), strings.Repeat("x", 20<<10)

	conv, err := client.Conversations.New(ctx, conversations.ConversationNewParams{Items: item(a)})
	require.NoError(t, err)
	_, err = client.Conversations.Items.New(ctx, conv.ID, conversations.ItemNewParams{Items: item(b)})
	require.NoError(t, err)
	assert.Equal(t, []string{"user: " + b}, convItemTexts(t, client, conv.ID), "the oldest item made room")

	_, err = client.Conversations.Items.New(ctx, conv.ID, conversations.ItemNewParams{Items: item(tooBig)})
	e2e.WantInvalidRequest(t, "items that never fit", err, http.StatusBadRequest, "", "items")
	_, err = client.Responses.New(ctx, responses.ResponseNewParams{Model: e2e.ResponsesModel, Input: e2e.InputText(tooBig),
		Conversation: responses.ResponseNewParamsConversationUnion{OfString: openai.String(conv.ID)}})
	e2e.WantInvalidRequest(t, "input that never fits", err, http.StatusBadRequest, "", "input")
	_, err = client.Conversations.New(ctx, conversations.ConversationNewParams{Items: item(tooBig)})
	e2e.WantInvalidRequest(t, "a conversation that never fits", err, http.StatusBadRequest, "", "items")
	assert.Equal(t, []string{"user: " + b}, convItemTexts(t, client, conv.ID), "refusals change nothing")

	r := e2e.Respond(t, client, responses.ResponseNewParams{Model: e2e.ResponsesModel, Input: e2e.InputText("short"),
		Conversation: responses.ResponseNewParamsConversationUnion{OfString: openai.String(conv.ID)}}, false)
	assert.Equal(t, "ok", r.OutputText())
	assert.Equal(t, []string{"user: " + b, "user: short", "assistant: ok"}, convItemTexts(t, client, conv.ID))
}

// Bad bodies and routes of the Conversations API are 4xx in the API's
// envelope, and change nothing.
func TestConversationsBadInput(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t)
	sess := srv.NewSession(t)
	client := e2e.ClientFor(sess, "k")
	conv, err := client.Conversations.New(t.Context(), conversations.ConversationNewParams{
		Items: []responses.ResponseInputItemUnionParam{convMessage("Hi", responses.EasyInputMessageRoleUser)}})
	require.NoError(t, err)
	base := sess.BaseURL() + "/conversations"
	headers := e2e.Join(e2e.SelectorOf(sess), e2e.Bearer("k"))
	many := make([]string, 17)
	for i := range many {
		many[i] = fmt.Sprintf(`"k%d":"v"`, i)
	}
	for _, tt := range []struct {
		name, method, url, body string
		status                  int
		code, param             string
	}{
		{"not JSON", "POST", base, "{", 400, "", ""},
		{"items not an array", "POST", base, `{"items":{}}`, 400, "invalid_type", "items"},
		{"an item without role", "POST", base, `{"items":[{"content":"Hi"}]}`, 400, "invalid_value", "items[0]"},
		{"metadata of 17 pairs", "POST", base, `{"metadata":{` + strings.Join(many, ",") + `}}`, 400, "object_above_max_properties", "metadata"},
		{"a metadata value too long", "POST", base, `{"metadata":{"k":"` + strings.Repeat("v", 513) + `"}}`, 400, "string_above_max_length", "metadata.k"},
		{"an update without metadata", "POST", base + "/" + conv.ID, `{}`, 400, "missing_required_parameter", "metadata"},
		{"items added without items", "POST", base + "/" + conv.ID + "/items", `{}`, 400, "missing_required_parameter", "items"},
		{"a bad limit", "GET", base + "/" + conv.ID + "/items?limit=0", "", 400, "integer_below_min_value", "limit"},
		{"a bad order", "GET", base + "/" + conv.ID + "/items?order=up", "", 400, "invalid_value", "order"},
		{"an unknown after", "GET", base + "/" + conv.ID + "/items?after=msg_x", "", 400, "", "after"},
		{"PUT", "PUT", base + "/" + conv.ID, `{}`, 405, "", ""},
		{"a deeper path", "GET", base + "/" + conv.ID + "/items/msg_1/more", "", 404, "", ""},
	} {
		r := e2e.Call(t, srv.Client(), tt.method, tt.url, tt.body, headers...)
		require.Equal(t, tt.status, r.Status, "%s: %s", tt.name, r.Body)
		code, typ, param, _ := r.APIError(t)
		if tt.status == 400 {
			assert.Equal(t, "invalid_request_error", typ, tt.name)
			assert.Equal(t, tt.code, code, tt.name)
			assert.Equal(t, tt.param, param, tt.name)
		}
	}
	got, err := client.Conversations.Get(t.Context(), conv.ID)
	require.NoError(t, err)
	assert.Equal(t, map[string]any{}, got.Metadata)
	assert.Equal(t, []string{"user: Hi"}, convItemTexts(t, client, conv.ID))
}

// A tool loop in a conversation: the call the first response made is in
// the conversation, so the next request sends only its output.
func TestResponsesConversationToolLoop(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t)
	sess := srv.NewSession(t)
	sess.Chat("answer").When(scenario.HasToolResult("get_weather")).Responds("Sunny.")
	sess.Chat("ask").When(scenario.ToolOffered("get_weather")).CallsTool("get_weather", `{"city":"Paris"}`)
	client := e2e.ClientFor(sess, "k")
	conv, err := client.Conversations.New(t.Context(), conversations.ConversationNewParams{})
	require.NoError(t, err)
	inConv := responses.ResponseNewParamsConversationUnion{OfString: openai.String(conv.ID)}

	r1 := e2e.Respond(t, client, responses.ResponseNewParams{Model: e2e.ResponsesModel, Tools: e2e.WeatherTools(),
		Input: e2e.InputText("Weather in Paris?"), Conversation: inConv}, false)
	require.Len(t, r1.Output, 1)
	call := r1.Output[0].AsFunctionCall()
	r2 := e2e.Respond(t, client, responses.ResponseNewParams{Model: e2e.ResponsesModel, Tools: e2e.WeatherTools(),
		Input: e2e.InputItems(e2e.CallOutput(call.CallID, "18°C, sunny")), Conversation: inConv}, false)
	assert.Equal(t, "Sunny.", r2.OutputText())
	assert.Equal(t, []string{"user: Weather in Paris?", "function_call", "function_call_output", "assistant: Sunny."},
		convItemTexts(t, client, conv.ID))
}

// Every item a conversation keeps has an ID, those of types the server
// keeps as sent too, so each can be listed, fetched and deleted.
func TestConversationItemsOfEveryTypeHaveIDs(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t)
	sess := srv.NewSession(t)
	client := e2e.ClientFor(sess, "k")
	r := e2e.Call(t, srv.Client(), "POST", sess.BaseURL()+"/conversations",
		`{"items":[{"type":"message","role":"user","content":"Hi"},{"type":"custom_tool_call_output","call_id":"c1","output":"x"}]}`,
		e2e.Join(e2e.SelectorOf(sess), e2e.Bearer("k"))...)
	require.Equal(t, 200, r.Status, r.Body)
	var conv conversations.Conversation
	require.NoError(t, json.Unmarshal([]byte(r.Body), &conv))
	page, err := client.Conversations.Items.List(t.Context(), conv.ID, conversations.ItemListParams{Order: conversations.ItemListParamsOrderAsc})
	require.NoError(t, err)
	require.Len(t, page.Data, 2)
	out := page.Data[1]
	assert.Equal(t, "custom_tool_call_output", out.Type)
	require.True(t, strings.HasPrefix(out.ID, "ctco_"), "id %q", out.ID)
	assert.Equal(t, out.ID, page.LastID)
	got, err := client.Conversations.Items.Get(t.Context(), conv.ID, out.ID, conversations.ItemGetParams{})
	require.NoError(t, err)
	assert.Equal(t, out.ID, got.ID)
	_, err = client.Conversations.Items.Delete(t.Context(), conv.ID, out.ID)
	require.NoError(t, err)
	assert.Equal(t, []string{"user: Hi"}, convItemTexts(t, client, conv.ID))
}

// An item sent again, by a request that continues the conversation holding
// it or by a reference to it, is the real API's duplicate: 400, param
// input (items for the Conversations API), and nothing changes.
func TestDuplicateItemsAreRefused(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t)
	sess := srv.NewSession(t)
	sess.Chat("any").Responds("ok").Repeat()
	client := e2e.ClientFor(sess, "k")
	ctx := t.Context()
	first, err := client.Responses.New(ctx, responses.ResponseNewParams{Model: "gpt-4.1-mini",
		Input: responses.ResponseNewParamsInputUnion{OfString: openai.String("Hi")}})
	require.NoError(t, err)
	again := responses.ResponseInputItemParamOfOutputMessage([]responses.ResponseOutputMessageContentUnionParam{{
		OfOutputText: &responses.ResponseOutputTextParam{Text: "ok", Annotations: []responses.ResponseOutputTextAnnotationUnionParam{}}}},
		first.Output[0].ID, responses.ResponseOutputMessageStatusCompleted)
	_, err = client.Responses.New(ctx, responses.ResponseNewParams{Model: "gpt-4.1-mini", PreviousResponseID: openai.String(first.ID),
		Input: responses.ResponseNewParamsInputUnion{OfInputItemList: responses.ResponseInputParam{again, convMessage("more", responses.EasyInputMessageRoleUser)}}})
	e2e.WantInvalidRequest(t, "an output item sent again", err, http.StatusBadRequest, "", "input")
	var apiErr *openai.Error
	require.ErrorAs(t, err, &apiErr)
	assert.Equal(t, "Duplicate item found with id "+first.Output[0].ID+". Remove duplicate items from your input and try again.", apiErr.Message)

	conv, err := client.Conversations.New(ctx, conversations.ConversationNewParams{
		Items: []responses.ResponseInputItemUnionParam{convMessage("Hi", responses.EasyInputMessageRoleUser)}})
	require.NoError(t, err)
	page, err := client.Conversations.Items.List(ctx, conv.ID, conversations.ItemListParams{})
	require.NoError(t, err)
	_, err = client.Conversations.Items.New(ctx, conv.ID, conversations.ItemNewParams{
		Items: []responses.ResponseInputItemUnionParam{responses.ResponseInputItemParamOfItemReference(page.Data[0].ID)}})
	e2e.WantInvalidRequest(t, "a reference to an item the conversation holds", err, http.StatusBadRequest, "", "items")
	assert.Equal(t, []string{"user: Hi"}, convItemTexts(t, client, conv.ID))
}
