package anthropicsdk_test

import (
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/anthropics/anthropic-sdk-go/v2"
	"github.com/anthropics/anthropic-sdk-go/v2/option"
	"github.com/llmtestserver/llmtestserver/session"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// tokens is a prompt of about n tokens: " a" is one token.
func tokens(n int) string { return strings.Repeat(" a", n) }

// windowModel has a 200,000-token window and a 64,000-token output limit.
const windowModel = anthropic.ModelClaudeHaiku4_5

// A prompt past windowModel's 200,000-token window is refused as the API
// does: 400 invalid_request_error "prompt is too long: N tokens > 200000
// maximum", using no reply; N is what the usage counts once the session
// ignores the window.
func TestPromptTooLong(t *testing.T) {
	t.Parallel()
	srv := newServer(t)
	sess := srv.NewSession(t)
	sess.Chat("one").Responds("never")
	client := clientFor(sess, "k", 0)
	params := userTurn(tokens(200_100))
	params.Model = windowModel
	_, err := client.Messages.New(t.Context(), params)
	apiErr := apiError(t, err)
	assert.Equal(t, http.StatusBadRequest, apiErr.StatusCode)
	assert.Equal(t, "invalid_request_error", string(apiErr.Type()))
	m := regexp.MustCompile(`^prompt is too long: (\d+) tokens > 200000 maximum$`).FindStringSubmatch(apiErr.Message)
	require.NotNil(t, m, "message %q", apiErr.Message)
	assert.Equal(t, 1, sess.Pending())

	open := srv.NewSession(t, session.IgnoreContextWindow())
	open.Chat("one").Responds("answered")
	openClient := clientFor(open, "k", 0)
	msg, err := openClient.Messages.New(t.Context(), params)
	require.NoError(t, err)
	n, _ := strconv.Atoi(m[1])
	assert.Equal(t, int64(n), msg.Usage.InputTokens)
}

// A prompt that leaves too little room for max_tokens gets the API's other
// wording, streamed as well.
func TestPromptAndMaxTokensPastTheWindow(t *testing.T) {
	t.Parallel()
	sess := newServer(t).NewSession(t)
	sess.Chat("one").Responds("never")
	client := clientFor(sess, "k", 0)
	params := userTurn(tokens(140_000))
	params.Model = windowModel
	params.MaxTokens = 64000 // streamed: the SDK refuses this much without a stream
	stream := client.Messages.NewStreaming(t.Context(), params)
	for stream.Next() {
	}
	apiErr := apiError(t, stream.Err())
	stream.Close()
	assert.Equal(t, http.StatusBadRequest, apiErr.StatusCode)
	assert.Equal(t, "invalid_request_error", string(apiErr.Type()))
	assert.Regexp(t, "^input length and `max_tokens` exceed context limit: \\d+ \\+ 64000 > 200000, decrease input length or `max_tokens` and try again$", apiErr.Message)
	assert.Equal(t, 1, sess.Pending())
}

// A reply longer than max_tokens is cut with stop_reason max_tokens and
// output_tokens the limit, streamed or not.
func TestTruncatedAtMaxTokens(t *testing.T) {
	t.Parallel()
	sess := newSession(t)
	sess.Chat("any").Responds("alpha beta gamma delta epsilon zeta eta theta").Repeat()
	client := clientFor(sess, "k", 0)
	params := userTurn("Letters")
	params.MaxTokens = 3

	msg, err := client.Messages.New(t.Context(), params)
	require.NoError(t, err)
	require.Len(t, msg.Content, 1)
	assert.Equal(t, "alpha beta gamma", msg.Content[0].Text)
	assert.Equal(t, anthropic.StopReasonMaxTokens, msg.StopReason)
	assert.Equal(t, int64(3), msg.Usage.OutputTokens)

	streamed := accumulate(t, client.Messages.NewStreaming(t.Context(), params))
	require.Len(t, streamed.Content, 1)
	assert.Equal(t, "alpha beta gamma", streamed.Content[0].Text)
	assert.Equal(t, anthropic.StopReasonMaxTokens, streamed.StopReason)
	assert.Equal(t, int64(3), streamed.Usage.OutputTokens)
}

// A retry with the same Idempotency-Key and body gets the first message
// again, streamed the same way, and uses no reply; another body is 409
// conflict_error with the code in its details.
func TestIdempotentMessages(t *testing.T) {
	t.Parallel()
	sess := newSession(t)
	sess.Chat("seq").Responds("first").Then("second").Then("third")
	client := clientFor(sess, "k", 0)
	params := userTurn("Hello")
	key := option.WithHeader("Idempotency-Key", "a-1")

	first, err := client.Messages.New(t.Context(), params, key)
	require.NoError(t, err)
	again, err := client.Messages.New(t.Context(), params, key)
	require.NoError(t, err)
	assert.Equal(t, first.RawJSON(), again.RawJSON())
	assert.Equal(t, 2, sess.Pending())
	last, _ := sess.Journal().Last()
	assert.True(t, last.Replay)

	streamKey := option.WithHeader("Idempotency-Key", "a-2")
	s1 := accumulate(t, client.Messages.NewStreaming(t.Context(), params, streamKey))
	s2 := accumulate(t, client.Messages.NewStreaming(t.Context(), params, streamKey))
	assert.Equal(t, s1.ID, s2.ID)
	assert.Equal(t, "second", s2.Content[0].Text)
	assert.Equal(t, 1, sess.Pending())

	_, err = client.Messages.New(t.Context(), userTurn("Changed"), key)
	apiErr := apiError(t, err)
	assert.Equal(t, http.StatusConflict, apiErr.StatusCode)
	assert.Equal(t, "conflict_error", string(apiErr.Type()))
	assert.Contains(t, apiErr.RawJSON(), `"error_code":"idempotency_key_reused"`)
	assert.Equal(t, 1, sess.Pending())
}
