package goopenai_test

import (
	"errors"
	"net/http"
	"testing"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/responses"
	goopenai "github.com/sashabaranov/go-openai"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/llmtestserver/llmtestserver/internal/e2e"
	"github.com/llmtestserver/llmtestserver/llmtest"
)

// go-openai's CountResponseInputTokens gets the input tokens the response
// to the same request reports, through a previous_response_id chain too.
func TestCountResponseInputTokensWithGoOpenAI(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t)
	sess := srv.NewSession(t)
	sess.Chat("any").Responds("Lyon is two hours from Paris by train.").Repeat()
	client := goOpenAIClient(sess)
	ctx := t.Context()

	req := goopenai.CreateResponseRequest{Model: e2e.ConversationModel, Input: "How far is Lyon?", Instructions: e2e.ConversationSystem}
	count, err := client.CountResponseInputTokens(ctx, req)
	require.NoError(t, err)
	assert.Equal(t, "response.input_tokens", count.Object)
	r1, err := client.CreateResponse(ctx, req)
	require.NoError(t, err)
	require.NotNil(t, r1.Usage)
	assert.Equal(t, r1.Usage.InputTokens, count.InputTokens)

	next := goopenai.CreateResponseRequest{Model: e2e.ConversationModel, Input: "And Marseille?", Instructions: e2e.ConversationSystem,
		PreviousResponseID: r1.ID}
	count, err = client.CountResponseInputTokens(ctx, next)
	require.NoError(t, err)
	r2, err := client.CreateResponse(ctx, next)
	require.NoError(t, err)
	assert.Equal(t, r2.Usage.InputTokens, count.InputTokens)

	_, err = client.CountResponseInputTokens(ctx, goopenai.CreateResponseRequest{Model: "gpt-nonexistent", Input: "Hi"})
	var apiErr *goopenai.APIError
	require.True(t, errors.As(err, &apiErr), "err = %v", err)
	// The Responses API's words for an unknown model: 400 with param model.
	assert.Equal(t, http.StatusBadRequest, apiErr.HTTPStatusCode)
	assert.Equal(t, "model_not_found", apiErr.Code)

	// The count is the same whichever SDK asks.
	oaiClient := e2e.ClientFor(sess, "k")
	oc, err := oaiClient.Responses.InputTokens.Count(ctx, responses.InputTokenCountParams{
		Model: openai.String(e2e.ConversationModel), Input: responses.InputTokenCountParamsInputUnion{OfString: openai.String("How far is Lyon?")},
		Instructions: openai.String(e2e.ConversationSystem)})
	require.NoError(t, err)
	assert.Equal(t, int64(r1.Usage.InputTokens), oc.InputTokens)
}

// go-openai has no calls for stored chat completions, but its store and
// metadata fields store one: openai-go retrieves it, with its messages.
func TestChatStoredFromGoOpenAI(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t)
	sess := srv.NewSession(t)
	sess.Chat("any").Responds("Take the TGV.").Repeat()
	ctx := t.Context()

	c, err := goOpenAIClient(sess).CreateChatCompletion(ctx, goopenai.ChatCompletionRequest{
		Model: e2e.ConversationModel, Store: true, Metadata: map[string]string{"sdk": "go-openai"},
		Messages: []goopenai.ChatCompletionMessage{
			{Role: goopenai.ChatMessageRoleSystem, Content: e2e.ConversationSystem},
			{Role: goopenai.ChatMessageRoleUser, Content: "How do I get to Lyon?"},
		}})
	require.NoError(t, err)
	unstored, err := goOpenAIClient(sess).CreateChatCompletion(ctx, goopenai.ChatCompletionRequest{
		Model: e2e.ConversationModel, Messages: []goopenai.ChatCompletionMessage{{Role: goopenai.ChatMessageRoleUser, Content: "Not kept"}}})
	require.NoError(t, err)

	client := e2e.ClientFor(sess, "k")
	got, err := client.Chat.Completions.Get(ctx, c.ID)
	require.NoError(t, err)
	assert.Equal(t, "Take the TGV.", got.Choices[0].Message.Content)
	assert.Equal(t, "go-openai", got.Metadata["sdk"])
	msgs, err := client.Chat.Completions.Messages.List(ctx, c.ID, openai.ChatCompletionMessageListParams{})
	require.NoError(t, err)
	require.Len(t, msgs.Data, 2)
	assert.Equal(t, "How do I get to Lyon?", msgs.Data[1].Content)
	_, err = client.Chat.Completions.Get(ctx, unstored.ID)
	assert.Equal(t, http.StatusNotFound, e2e.OpenAIError(t, err).StatusCode)
}
