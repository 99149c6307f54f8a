package goopenai_test

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"testing"

	"github.com/llmtestserver/llmtestserver/llmtest"
	goopenai "github.com/sashabaranov/go-openai"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// requireGoRefused requires err to be go-openai's APIError for the real
// API's 400 with code, param and message.
func requireGoRefused(t *testing.T, err error, code, param, message string) {
	t.Helper()
	var apiErr *goopenai.APIError
	require.True(t, errors.As(err, &apiErr), "err = %v", err)
	assert.Equal(t, http.StatusBadRequest, apiErr.HTTPStatusCode)
	got := ""
	if apiErr.Code != nil {
		got, _ = apiErr.Code.(string)
	}
	assert.Equal(t, code, got)
	gotParam := ""
	if apiErr.Param != nil {
		gotParam = *apiErr.Param
	}
	assert.Equal(t, param, gotParam)
	assert.Equal(t, message, apiErr.Message)
}

// What go-openai sends is checked as the real API checks it: stream
// options without stream, reasoning_effort on a model that does not
// reason, a strict tool whose schema breaks the rules of strict mode. A
// refused request uses no reply.
func TestValidateWithGoOpenAI(t *testing.T) {
	t.Parallel()
	sess := llmtest.NewServer(t).NewSession(t)
	sess.Chat("any").Responds("ok")
	client := goOpenAIClient(sess)
	user := []goopenai.ChatCompletionMessage{{Role: "user", Content: "Hi"}}
	ctx := context.Background()

	_, err := client.CreateChatCompletion(ctx, goopenai.ChatCompletionRequest{Model: "gpt-4.1-mini", Messages: user,
		StreamOptions: &goopenai.StreamOptions{IncludeUsage: true}})
	requireGoRefused(t, err, "", "stream_options", "The 'stream_options' parameter is only allowed when 'stream' is enabled.")

	_, err = client.CreateChatCompletion(ctx, goopenai.ChatCompletionRequest{Model: "gpt-4o-mini", Messages: user, ReasoningEffort: "low"})
	requireGoRefused(t, err, "", "", "Unrecognized request argument supplied: reasoning_effort")

	schema := json.RawMessage(`{"type":"object","properties":{"city":{"type":"string"},"unit":{"type":"string"}},"required":["city"],"additionalProperties":false}`)
	_, err = client.CreateChatCompletion(ctx, goopenai.ChatCompletionRequest{Model: "gpt-4.1-mini", Messages: user,
		Tools: []goopenai.Tool{{Type: goopenai.ToolTypeFunction, Function: &goopenai.FunctionDefinition{Name: "get_weather", Strict: true, Parameters: schema}}}})
	requireGoRefused(t, err, "invalid_function_parameters", "tools[0].function.parameters",
		"Invalid schema for function 'get_weather': In context=(), 'required' is required to be supplied and to be an array including every key in properties. Missing 'unit'.")
	assert.Equal(t, 1, sess.Pending())

	got, err := client.CreateChatCompletion(ctx, goopenai.ChatCompletionRequest{Model: "gpt-4.1-mini", Messages: user,
		Temperature: 0.4, TopP: 0.9, PresencePenalty: 0.5, Stop: []string{"END"}})
	require.NoError(t, err)
	assert.Equal(t, "ok", got.Choices[0].Message.Content)
}
