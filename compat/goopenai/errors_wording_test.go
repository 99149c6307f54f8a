package goopenai_test

import (
	"net/http"
	"testing"

	"github.com/llmtestserver/llmtestserver/llmtest"
	"github.com/llmtestserver/llmtestserver/scenario"
	"github.com/llmtestserver/llmtestserver/session"
	goopenai "github.com/sashabaranov/go-openai"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// goOpenAIClientFor is goOpenAIClient with apiKey.
func goOpenAIClientFor(sess *session.Session, apiKey string) *goopenai.Client {
	cfg := goopenai.DefaultConfig(apiKey)
	cfg.BaseURL = sess.BaseURL()
	cfg.HTTPClient = sess.HTTPClient()
	return goopenai.NewClientWithConfig(cfg)
}

// go-openai reads the errors worded as the real API words them: the
// masked wrong key, a chat without a model, the tokens 429 of
// scenario.RateLimited, and the Responses API's unknown model.
func TestGoOpenAIReadsTheRealWording(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t)
	sess := srv.NewSession(t, session.RequireAPIKey("provider-key"), session.OnlyModels("gpt-4o-mini"))
	sess.Chat("limited").Reply(scenario.RateLimited())
	ctx := t.Context()
	hi := []goopenai.ChatCompletionMessage{{Role: "user", Content: "Hi"}}

	_, err := goOpenAIClientFor(sess, "sk-not-a-real-key").CreateChatCompletion(ctx,
		goopenai.ChatCompletionRequest{Model: "gpt-4o-mini", Messages: hi})
	apiErr := goAPIError(t, err)
	assert.Equal(t, http.StatusUnauthorized, apiErr.HTTPStatusCode)
	assert.Equal(t, "invalid_api_key", apiErr.Code)
	assert.Equal(t, "Incorrect API key provided: sk-not-a*****-key. You can find your API key at https://platform.openai.com/account/api-keys.", apiErr.Message)

	client := goOpenAIClientFor(sess, "provider-key")
	_, err = client.CreateChatCompletion(ctx, goopenai.ChatCompletionRequest{Messages: hi})
	apiErr = goAPIError(t, err)
	assert.Equal(t, http.StatusBadRequest, apiErr.HTTPStatusCode)
	assert.Equal(t, "you must provide a model parameter", apiErr.Message)
	assert.Equal(t, 0, apiErr.Code, "go-openai reads a null code as 0")
	assert.Nil(t, apiErr.Param)

	_, err = client.CreateChatCompletion(ctx, goopenai.ChatCompletionRequest{Model: "gpt-4o-mini", Messages: hi})
	apiErr = goAPIError(t, err)
	assert.Equal(t, http.StatusTooManyRequests, apiErr.HTTPStatusCode)
	assert.Equal(t, "tokens", apiErr.Type)
	assert.Contains(t, apiErr.Message, "tokens per min (TPM)")

	_, err = client.CreateResponse(ctx, goopenai.CreateResponseRequest{Model: "gpt-nope", Input: "Hi"})
	apiErr = goAPIError(t, err)
	assert.Equal(t, http.StatusBadRequest, apiErr.HTTPStatusCode)
	assert.Equal(t, "model_not_found", apiErr.Code)
	require.NotNil(t, apiErr.Param)
	assert.Equal(t, "model", *apiErr.Param)
	assert.Equal(t, "The requested model 'gpt-nope' does not exist. This session serves only: gpt-4o-mini.", apiErr.Message)
}
