package anthropicsdk_test

import (
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/anthropics/anthropic-sdk-go/v2"
	"github.com/anthropics/anthropic-sdk-go/v2/option"
	"github.com/llmtestserver/llmtestserver/clock"
	"github.com/llmtestserver/llmtestserver/llmtest"
	"github.com/llmtestserver/llmtestserver/session"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// anthropic-sdk-go meets the limits as the real API sets them: every
// answer carries the anthropic-ratelimit-* headers, resets as RFC 3339
// times on the session's clock; a request past the limit is a 429
// rate_limit_error with retry-after, and a large max_tokens spends the
// tokens a minute.
func TestAnthropicRateLimits(t *testing.T) {
	t.Parallel()
	start := time.Date(2031, 3, 4, 5, 6, 7, 0, time.UTC)
	clk := clock.NewFake(start)
	sess := llmtest.NewServer(t, llmtest.WithClock(clk)).NewSession(t, session.WithRateLimits(2, 30_000))
	sess.Chat("ok").Responds("a").Repeat()
	client := clientFor(sess, "k", 0)

	var raw *http.Response
	_, err := client.Messages.New(t.Context(), userTurn("Hi"), option.WithResponseInto(&raw))
	require.NoError(t, err)
	assert.Equal(t, "2", raw.Header.Get("anthropic-ratelimit-requests-limit"))
	assert.Equal(t, "1", raw.Header.Get("anthropic-ratelimit-requests-remaining"))
	reset, err := time.Parse(time.RFC3339, raw.Header.Get("anthropic-ratelimit-requests-reset"))
	require.NoError(t, err)
	assert.Equal(t, start.Add(30*time.Second), reset, "full again when one request's share has refilled")
	for _, p := range []string{"tokens", "input-tokens", "output-tokens"} {
		assert.Equal(t, "30000", raw.Header.Get("anthropic-ratelimit-"+p+"-limit"), p)
		_, err := time.Parse(time.RFC3339, raw.Header.Get("anthropic-ratelimit-"+p+"-reset"))
		assert.NoError(t, err, p)
	}

	_, err = client.Messages.New(t.Context(), userTurn("Hi"))
	require.NoError(t, err)
	_, err = client.Messages.New(t.Context(), userTurn("Hi"), option.WithResponseInto(&raw))
	var apiErr *anthropic.Error
	require.True(t, errors.As(err, &apiErr), "got %v", err)
	assert.Equal(t, http.StatusTooManyRequests, apiErr.StatusCode)
	assert.Equal(t, "rate_limit_error", string(apiErr.Type()))
	assert.True(t, strings.HasPrefix(apiErr.Message, "This request would exceed your organization's rate limit of 2 requests per minute"), apiErr.Message)
	assert.Equal(t, "30", raw.Header.Get("retry-after"))
	assert.Equal(t, "0", raw.Header.Get("anthropic-ratelimit-requests-remaining"), "the 429 carries the headers too")

	// Tokens: the requests refill, but a max_tokens of 16,000 twice does
	// not fit 30,000 tokens a minute.
	clk.Advance(time.Minute)
	big := userTurn("Hi")
	big.MaxTokens = 16_000
	_, err = client.Messages.New(t.Context(), big, option.WithResponseInto(&raw))
	require.NoError(t, err)
	_, err = client.Messages.New(t.Context(), big, option.WithResponseInto(&raw))
	require.True(t, errors.As(err, &apiErr), "got %v", err)
	assert.Equal(t, "rate_limit_error", string(apiErr.Type()))
	assert.Contains(t, apiErr.Message, "rate limit of 30,000 tokens per minute")
	assert.NotEmpty(t, raw.Header.Get("retry-after-ms"))
}
