package goopenai_test

import (
	"net/http"
	"testing"

	"github.com/llmtestserver/llmtestserver/internal/e2e"
	"github.com/llmtestserver/llmtestserver/llmtest"
	"github.com/openai/openai-go/v3/conversations"
	"github.com/openai/openai-go/v3/responses"
	goopenai "github.com/sashabaranov/go-openai"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// go-openai has no Conversations API, but its CreateResponse takes a
// conversation: with a conversation openai-go created, the response reads
// its items, echoes it as go-openai's ResponseConversation, and the
// conversation takes the turn; an unknown one is the API's 404.
func TestGoOpenAIResponseWithConversation(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t)
	sess := srv.NewSession(t)
	sess.Chat("any").Responds("Hello, Ada.").Times(2)
	client, goClient := e2e.ClientFor(sess, "k"), rsGoClient(sess)
	ctx := t.Context()

	conv, err := client.Conversations.New(ctx, conversations.ConversationNewParams{
		Items: []responses.ResponseInputItemUnionParam{
			responses.ResponseInputItemParamOfMessage("My name is Ada.", responses.EasyInputMessageRoleUser)}})
	require.NoError(t, err)
	for _, ref := range []any{conv.ID, map[string]string{"id": conv.ID}} {
		resp, err := goClient.CreateResponse(ctx, goopenai.CreateResponseRequest{Model: e2e.ResponsesModel, Input: "Hi", Conversation: ref})
		require.NoError(t, err)
		assert.Equal(t, "Hello, Ada.", resp.GetOutputText())
		require.NotNil(t, resp.Conversation)
		assert.Equal(t, conv.ID, resp.Conversation.ID)
	}
	items, err := client.Conversations.Items.List(ctx, conv.ID, conversations.ItemListParams{Order: conversations.ItemListParamsOrderAsc})
	require.NoError(t, err)
	require.Len(t, items.Data, 5)
	assert.Equal(t, "Hello, Ada.", items.Data[4].AsMessage().Content[0].Text)

	_, err = goClient.CreateResponse(ctx, goopenai.CreateResponseRequest{Model: e2e.ResponsesModel, Input: "Hi", Conversation: "conv_x"})
	apiErr := rsWantGoError(t, "an unknown conversation", err, http.StatusNotFound, "", "")
	assert.Equal(t, "Conversation with id 'conv_x' not found.", apiErr.Message)
}
