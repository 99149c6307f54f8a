package llmtest_test

import (
	"errors"
	"testing"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/llmtestserver/llmtestserver/llmtest"
	"github.com/llmtestserver/llmtestserver/session"
)

// hello sends one chat completion saying "Hello".
func hello(t *testing.T, client openai.Client) (*openai.ChatCompletion, error) {
	t.Helper()
	return client.Chat.Completions.New(t.Context(), openai.ChatCompletionNewParams{
		Model:    "gpt-4.1-mini",
		Messages: []openai.ChatCompletionMessageParamUnion{openai.UserMessage("Hello")},
	})
}

// A session that requires a bearer token answers the one-line client,
// which sends that token; the same client with another key gets the 401.
func TestOpenAIClientSendsTheAPIKey(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t)
	sess := srv.NewSession(t, session.RequireAPIKey("provider-key-1"))
	sess.Chat("greeting").Responds("Hello from this test").Repeat()

	out, err := hello(t, llmtest.OpenAIClient(sess))
	require.NoError(t, err)
	assert.Equal(t, "Hello from this test", out.Choices[0].Message.Content)

	_, err = hello(t, llmtest.OpenAIClient(sess, option.WithAPIKey("wrong-key"), option.WithMaxRetries(0)))
	var apiErr *openai.Error
	require.True(t, errors.As(err, &apiErr), "want an API error, got %v", err)
	assert.Equal(t, 401, apiErr.StatusCode)
	assert.Equal(t, "invalid_api_key", apiErr.Code)

	entries := sess.Journal().Entries()
	require.Len(t, entries, 2)
	assert.Equal(t, []int{200, 401}, []int{entries[0].Status, entries[1].Status})
}

// A session that requires no key takes the placeholder, whatever key and
// base URL the environment holds for openai-go.
func TestOpenAIClientIgnoresTheEnvironment(t *testing.T) {
	t.Setenv("OPENAI_API_KEY", "sk-real-key-of-a-developer")
	t.Setenv("OPENAI_BASE_URL", "http://127.0.0.1:1/v1")
	srv := llmtest.NewServer(t)
	sess := srv.NewSession(t)
	sess.Chat("greeting").Responds("Hello")

	out, err := hello(t, llmtest.OpenAIClient(sess, option.WithMaxRetries(0)))
	require.NoError(t, err)
	assert.Equal(t, "Hello", out.Choices[0].Message.Content)
	require.Equal(t, 1, sess.Journal().Len())
}

// Options appended to the one-liner win over its own: WithMaxRetries(0)
// makes a 500 final after one attempt, where openai-go would retry it.
func TestOpenAIClientAppendedOptionsWin(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t)
	sess := srv.NewSession(t)
	sess.Chat("broken").Fails(500, "server_error", "boom").Responds("too late")

	_, err := hello(t, llmtest.OpenAIClient(sess, option.WithMaxRetries(0)))
	var apiErr *openai.Error
	require.True(t, errors.As(err, &apiErr), "want an API error, got %v", err)
	assert.Equal(t, 500, apiErr.StatusCode)
	assert.Equal(t, 1, sess.Journal().Len(), "one attempt, no retry")
	assert.Equal(t, 1, sess.Pending(), "the retry's reply is left")
}

// The HTTP client can be replaced too: a declared conversation's client
// files the request under that conversation.
func TestOpenAIClientWithAConversationClient(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t)
	sess := srv.NewSession(t, session.RequireAPIKey("provider-key-2"))
	sess.Chat("greeting").Responds("Hello, Alice")

	out, err := hello(t, llmtest.OpenAIClient(sess, option.WithHTTPClient(sess.Conversation("alice").HTTPClient())))
	require.NoError(t, err)
	assert.Equal(t, "Hello, Alice", out.Choices[0].Message.Content)
	last, ok := sess.Journal().Last()
	require.True(t, ok)
	assert.Equal(t, "alice", last.Conversation)
}
