package openai_test

import (
	"regexp"
	"strconv"
	"testing"

	"github.com/llmtestserver/llmtestserver/internal/e2e"
	"github.com/llmtestserver/llmtestserver/llmtest"
	"github.com/llmtestserver/llmtestserver/session"
	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/responses"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// windowModel is a catalog model with a small context window: 8192 tokens,
// all of which max_tokens may ask for.
const windowModel = "gpt-4"

// A chat request whose prompt plus max_tokens pass the model's window is
// refused with 400 context_length_exceeded on messages, in the real API's
// words with the numbers, and uses no reply: the next request that fits
// gets it.
func TestChatContextLengthExceeded(t *testing.T) {
	t.Parallel()
	sess := llmtest.NewServer(t).NewSession(t)
	sess.Chat("one").Responds("fits")
	client := e2e.ClientFor(sess, "k")

	params := e2e.UserTurn(windowModel, "Hello there")
	params.MaxTokens = openai.Int(8192)
	_, err := client.Chat.Completions.New(t.Context(), params)
	apiErr := e2e.OpenAIError(t, err)
	assert.Equal(t, 400, apiErr.StatusCode)
	assert.Equal(t, "context_length_exceeded", apiErr.Code)
	assert.Equal(t, "messages", apiErr.Param)
	assert.Equal(t, "invalid_request_error", apiErr.Type)
	m := regexp.MustCompile(`^This model's maximum context length is 8192 tokens\. However, you requested (\d+) tokens \((\d+) in the messages, 8192 in the completion\)\. Please reduce the length of the messages or completion\.$`).
		FindStringSubmatch(apiErr.Message)
	require.NotNil(t, m, "message %q", apiErr.Message)
	prompt, _ := strconv.Atoi(m[2])
	assert.Equal(t, 1, sess.Pending(), "the refused request used no reply")
	entry, ok := sess.Journal().Last()
	require.True(t, ok)
	assert.Equal(t, "context_length_exceeded", entry.ErrorCode)

	// The prompt counts as the usage counts it.
	params.MaxTokens = openai.Int(16)
	got, err := client.Chat.Completions.New(t.Context(), params)
	require.NoError(t, err)
	assert.Equal(t, "fits", got.Choices[0].Message.Content)
	assert.Equal(t, int64(prompt), got.Usage.PromptTokens)
	assert.Equal(t, 0, sess.Pending())
}

// Without max_tokens the prompt alone is checked, with the real API's
// other wording.
func TestChatContextLengthExceededByThePromptAlone(t *testing.T) {
	t.Parallel()
	sess := llmtest.NewServer(t).NewSession(t)
	sess.Chat("one").Responds("never")
	client := e2e.ClientFor(sess, "k")
	_, err := client.Chat.Completions.New(t.Context(), e2e.UserTurn(windowModel, e2e.BigText(64<<10)))
	apiErr := e2e.OpenAIError(t, err)
	assert.Equal(t, 400, apiErr.StatusCode)
	assert.Equal(t, "context_length_exceeded", apiErr.Code)
	assert.Regexp(t, `^This model's maximum context length is 8192 tokens\. However, your messages resulted in \d+ tokens\. Please reduce the length of the messages\.$`, apiErr.Message)
	assert.Equal(t, 1, sess.Pending())
}

// The Responses API refuses the same with param input, streamed or not.
func TestResponsesContextLengthExceeded(t *testing.T) {
	t.Parallel()
	sess := llmtest.NewServer(t).NewSession(t)
	sess.Chat("one").Responds("fits")
	client := e2e.ClientFor(sess, "k")
	params := responses.ResponseNewParams{Model: windowModel, Input: e2e.InputText("Hello"), MaxOutputTokens: openai.Int(8192)}

	_, err := client.Responses.New(t.Context(), params)
	apiErr := e2e.OpenAIError(t, err)
	assert.Equal(t, 400, apiErr.StatusCode)
	assert.Equal(t, "context_length_exceeded", apiErr.Code)
	assert.Equal(t, "input", apiErr.Param)
	assert.Equal(t, "Your input exceeds the context window of this model. Please adjust your input and try again.", apiErr.Message)

	stream := client.Responses.NewStreaming(t.Context(), params)
	for stream.Next() {
	}
	apiErr = e2e.OpenAIError(t, stream.Err())
	stream.Close()
	assert.Equal(t, "context_length_exceeded", apiErr.Code)
	assert.Equal(t, 1, sess.Pending(), "refused requests used no reply")
}

// A session that ignores context windows answers what passes them.
func TestContextWindowOptOut(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t)
	sess := srv.NewSession(t, session.IgnoreContextWindow())
	sess.Chat("any").Responds("answered anyway").Repeat()
	client := e2e.ClientFor(sess, "k")
	params := e2e.UserTurn(windowModel, "Hello there")
	params.MaxTokens = openai.Int(8192)
	got, err := client.Chat.Completions.New(t.Context(), params)
	require.NoError(t, err)
	assert.Equal(t, "answered anyway", got.Choices[0].Message.Content)

	_, err = client.Responses.New(t.Context(), responses.ResponseNewParams{Model: windowModel, Input: e2e.InputText("Hello"), MaxOutputTokens: openai.Int(8192)})
	require.NoError(t, err)

	// And as JSON, through the admin API's configuration.
	c := e2e.CreateOverHTTP(t, srv, `{"ignore_context_window": true}`)
	body := `{"model":"gpt-4","max_tokens":8192,"messages":[{"role":"user","content":"Hi"}]}`
	r := e2e.Call(t, srv.Client(), "POST", srv.URL()+"/v1/chat/completions", body,
		session.HeaderSession, c.ID, session.HeaderSessionKey, c.Key, "Authorization", "Bearer k")
	// Past the window check, the session without scenarios says so.
	r.WantError(t, 400, "llm_test_server_no_scenario")
	r = e2e.Call(t, srv.Client(), "POST", srv.URL()+"/v1/chat/completions", body, e2e.Join(e2e.SelectorOf(srv.NewSession(t)), e2e.Bearer("k"))...)
	r.WantError(t, 400, "context_length_exceeded")
}
