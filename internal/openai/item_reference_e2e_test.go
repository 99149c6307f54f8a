package openai_test

import (
	"net/http"
	"slices"
	"sync"
	"testing"

	"github.com/llmtestserver/llmtestserver/internal/e2e"
	"github.com/llmtestserver/llmtestserver/llmtest"
	"github.com/llmtestserver/llmtestserver/scenario"
	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/conversations"
	"github.com/openai/openai-go/v3/responses"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// An item_reference, with or without its type (openai-go's
// ResponseInputItemParamOfItemReference sends none), stands for the stored
// item it names: an output or input item of a stored response, or an item
// of a conversation. Matchers see the item, usage counts it, and
// input_items lists it in place of the reference.
func TestResponsesItemReferenceResolvesToTheStoredItem(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t)
	sess := srv.NewSession(t)
	var mu sync.Mutex
	var seen []scenario.Message // the messages of the last request
	sess.Chat("any").When(scenario.Func(func(r *scenario.Request) bool {
		mu.Lock()
		defer mu.Unlock()
		seen = slices.Clone(r.Messages)
		return true
	})).Responds("Four.").Repeat()
	client := e2e.ClientFor(sess, "k")
	ctx := t.Context()
	lastSeen := func() []scenario.Message {
		mu.Lock()
		defer mu.Unlock()
		return seen
	}

	r1 := e2e.Respond(t, client, responses.ResponseNewParams{Model: e2e.ResponsesModel, Input: e2e.InputText("What is 2+2?")}, false)
	question, err := client.Responses.InputItems.List(ctx, r1.ID, responses.InputItemListParams{})
	require.NoError(t, err)
	require.Len(t, question.Data, 1)
	conv, err := client.Conversations.New(ctx, conversations.ConversationNewParams{
		Items: []responses.ResponseInputItemUnionParam{convMessage("Answer in words.", responses.EasyInputMessageRoleUser)}})
	require.NoError(t, err)
	convItems, err := client.Conversations.Items.List(ctx, conv.ID, conversations.ItemListParams{})
	require.NoError(t, err)
	require.Len(t, convItems.Data, 1)

	typed := responses.ResponseInputItemUnionParam{OfItemReference: &responses.ResponseInputItemItemReferenceParam{
		ID: r1.Output[0].ID, Type: "item_reference"}}
	for name, input := range map[string][]responses.ResponseInputItemUnionParam{
		"without type": {
			responses.ResponseInputItemParamOfItemReference(convItems.Data[0].ID),
			responses.ResponseInputItemParamOfItemReference(question.Data[0].ID),
			responses.ResponseInputItemParamOfItemReference(r1.Output[0].ID),
			convMessage("And 3+3?", responses.EasyInputMessageRoleUser),
		},
		"with type": {
			responses.ResponseInputItemParamOfItemReference(convItems.Data[0].ID),
			responses.ResponseInputItemParamOfItemReference(question.Data[0].ID),
			typed,
			convMessage("And 3+3?", responses.EasyInputMessageRoleUser),
		},
	} {
		r2 := e2e.Respond(t, client, responses.ResponseNewParams{Model: e2e.ResponsesModel, Input: e2e.InputItems(input...)}, false)
		got := lastSeen()
		require.Len(t, got, 4, name)
		assert.Equal(t, []string{"user", "user", "assistant", "user"}, rolesOf(got), name)
		assert.Equal(t, "Answer in words.", got[0].Content, name)
		assert.Equal(t, "What is 2+2?", got[1].Content, name)
		assert.Equal(t, "Four.", got[2].Content, name)

		spelled := e2e.Respond(t, client, responses.ResponseNewParams{Model: e2e.ResponsesModel, Store: openai.Bool(false), Input: e2e.InputItems(
			convMessage("Answer in words.", responses.EasyInputMessageRoleUser),
			convMessage("What is 2+2?", responses.EasyInputMessageRoleUser),
			convMessage("Four.", responses.EasyInputMessageRoleAssistant),
			convMessage("And 3+3?", responses.EasyInputMessageRoleUser))}, false)
		assert.Equal(t, spelled.Usage.InputTokens, r2.Usage.InputTokens, "%s: the references are counted", name)

		listed, err := client.Responses.InputItems.List(ctx, r2.ID, responses.InputItemListParams{Order: responses.InputItemListParamsOrderAsc})
		require.NoError(t, err)
		require.Len(t, listed.Data, 4, name)
		assert.Equal(t, convItems.Data[0].ID, listed.Data[0].ID, name)
		assert.Equal(t, r1.Output[0].ID, listed.Data[2].ID, name)
		for _, it := range listed.Data[:3] {
			assert.Equal(t, "message", it.Type, "%s: input_items lists the item, not the reference", name)
		}
		assert.Equal(t, "assistant", string(listed.Data[2].Role), name)
		assert.Equal(t, "Four.", listed.Data[2].AsOutputMessage().Content[0].Text, name)
	}
}

// A reference to no stored item is the API's 404, worded for store:false
// as the live API words it; it uses no reply.
func TestResponsesItemReferenceUnknown(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t)
	sess := srv.NewSession(t)
	sess.Chat("any").Responds("unused")
	client := e2e.ClientFor(sess, "k")
	ctx := t.Context()
	ref := e2e.InputItems(responses.ResponseInputItemParamOfItemReference("msg_nowhere"))

	_, err := client.Responses.New(ctx, responses.ResponseNewParams{Model: e2e.ResponsesModel, Input: ref})
	apiErr := e2e.WantInvalidRequest(t, "an unknown reference", err, http.StatusNotFound, "", "input")
	assert.Equal(t, "Item with id 'msg_nowhere' not found.", apiErr.Message)
	_, err = client.Responses.New(ctx, responses.ResponseNewParams{Model: e2e.ResponsesModel, Input: ref, Store: openai.Bool(false)})
	apiErr = e2e.WantInvalidRequest(t, "an unknown reference with store:false", err, http.StatusNotFound, "", "input")
	assert.Equal(t, "Item with id 'msg_nowhere' not found. Items are not persisted when `store` is set to false. "+
		"Try again with `store` set to true, or remove this item from your input.", apiErr.Message)
	assert.Equal(t, 1, sess.Pending())
}
