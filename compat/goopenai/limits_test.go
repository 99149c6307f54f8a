package goopenai_test

import (
	"errors"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/llmtestserver/llmtestserver/llmtest"
	"github.com/llmtestserver/llmtestserver/session"
	goopenai "github.com/sashabaranov/go-openai"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// goAPIError requires err to be go-openai's *APIError and returns it.
func goAPIError(t *testing.T, err error) *goopenai.APIError {
	t.Helper()
	require.Error(t, err)
	var apiErr *goopenai.APIError
	require.True(t, errors.As(err, &apiErr), "error %v (%T) is not a *goopenai.APIError", err, err)
	return apiErr
}

func goTurn(model, text string) goopenai.ChatCompletionRequest {
	return goopenai.ChatCompletionRequest{Model: model, Messages: []goopenai.ChatCompletionMessage{{Role: "user", Content: text}}}
}

// go-openai sees a prompt plus max_tokens past gpt-4's 8192-token window as
// its APIError: 400 context_length_exceeded on messages; a session that
// ignores the window answers.
func TestGoOpenAIContextLengthExceeded(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t)
	sess := srv.NewSession(t)
	sess.Chat("one").Responds("fits")
	req := goTurn("gpt-4", "Hello there")
	req.MaxTokens = 8192
	_, err := goOpenAIClient(sess).CreateChatCompletion(t.Context(), req)
	apiErr := goAPIError(t, err)
	assert.Equal(t, http.StatusBadRequest, apiErr.HTTPStatusCode)
	assert.Equal(t, "context_length_exceeded", apiErr.Code)
	require.NotNil(t, apiErr.Param)
	assert.Equal(t, "messages", *apiErr.Param)
	assert.Equal(t, "invalid_request_error", apiErr.Type)
	assert.Contains(t, apiErr.Message, "This model's maximum context length is 8192 tokens.")
	assert.Equal(t, 1, sess.Pending())

	open := srv.NewSession(t, session.IgnoreContextWindow())
	open.Chat("one").Responds("answered")
	got, err := goOpenAIClient(open).CreateChatCompletion(t.Context(), req)
	require.NoError(t, err)
	assert.Equal(t, "answered", got.Choices[0].Message.Content)
}

// A reply longer than max_completion_tokens is cut with finish_reason
// length and usage to match, streamed or not.
func TestGoOpenAITruncatedAtMaxTokens(t *testing.T) {
	t.Parallel()
	sess := llmtest.NewServer(t).NewSession(t)
	sess.Chat("any").Responds("alpha beta gamma delta epsilon zeta eta theta").Repeat()
	client := goOpenAIClient(sess)
	req := goTurn("gpt-4.1-mini", "Letters")
	req.MaxCompletionTokens = 3

	got, err := client.CreateChatCompletion(t.Context(), req)
	require.NoError(t, err)
	assert.Equal(t, "alpha beta gamma", got.Choices[0].Message.Content)
	assert.Equal(t, goopenai.FinishReasonLength, got.Choices[0].FinishReason)
	assert.Equal(t, 3, got.Usage.CompletionTokens)

	req.StreamOptions = &goopenai.StreamOptions{IncludeUsage: true}
	stream, err := client.CreateChatCompletionStream(t.Context(), req)
	require.NoError(t, err)
	defer stream.Close()
	var text strings.Builder
	var finish goopenai.FinishReason
	var usage *goopenai.Usage
	for {
		chunk, err := stream.Recv()
		if errors.Is(err, io.EOF) {
			break
		}
		require.NoError(t, err)
		for _, c := range chunk.Choices {
			text.WriteString(c.Delta.Content)
			if c.FinishReason != "" {
				finish = c.FinishReason
			}
		}
		if chunk.Usage != nil {
			usage = chunk.Usage
		}
	}
	assert.Equal(t, "alpha beta gamma", text.String())
	assert.Equal(t, goopenai.FinishReasonLength, finish)
	require.NotNil(t, usage)
	assert.Equal(t, 3, usage.CompletionTokens)
}

// keyTransport sends every request with an Idempotency-Key.
type keyTransport struct {
	key  string
	next http.RoundTripper
}

func (k keyTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Idempotency-Key", k.key)
	return k.next.RoundTrip(r)
}

// goOpenAIClientWithKey is goOpenAIClient sending key as Idempotency-Key.
func goOpenAIClientWithKey(sess *session.Session, key string) *goopenai.Client {
	cfg := goopenai.DefaultConfig("k")
	cfg.BaseURL = sess.BaseURL()
	cfg.HTTPClient = &http.Client{Transport: keyTransport{key: key, next: sess.Transport()}}
	return goopenai.NewClientWithConfig(cfg)
}

// A go-openai retry with the same Idempotency-Key and body gets the first
// answer and uses no reply; another body is 409 idempotency_key_reused.
func TestGoOpenAIIdempotentReplay(t *testing.T) {
	t.Parallel()
	sess := llmtest.NewServer(t).NewSession(t)
	sess.Chat("seq").Responds("first").Then("second")
	client := goOpenAIClientWithKey(sess, "go-1")
	first, err := client.CreateChatCompletion(t.Context(), goTurn("gpt-4.1-mini", "Hello"))
	require.NoError(t, err)
	again, err := client.CreateChatCompletion(t.Context(), goTurn("gpt-4.1-mini", "Hello"))
	require.NoError(t, err)
	assert.Equal(t, first.ID, again.ID)
	assert.Equal(t, "first", again.Choices[0].Message.Content)
	assert.Equal(t, first.Usage, again.Usage)
	assert.Equal(t, 1, sess.Pending())
	last, _ := sess.Journal().Last()
	assert.True(t, last.Replay)

	_, err = client.CreateChatCompletion(t.Context(), goTurn("gpt-4.1-mini", "Changed"))
	apiErr := goAPIError(t, err)
	assert.Equal(t, http.StatusConflict, apiErr.HTTPStatusCode)
	assert.Equal(t, "idempotency_key_reused", apiErr.Code)
	assert.Equal(t, 1, sess.Pending())
}
