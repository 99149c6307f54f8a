package llmtest_test

import (
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/llmtestserver/llmtestserver/clock"
	"github.com/llmtestserver/llmtestserver/internal/e2e"
	"github.com/llmtestserver/llmtestserver/llmtest"
	"github.com/llmtestserver/llmtestserver/session"
)

// TestRateLimitRequestsPerMinute: three requests a minute on a fake clock.
// The first three pass with the x-ratelimit headers counting down; the
// fourth is a 429 that openai-go reports as *openai.Error, with
// Retry-After and retry-after-ms saying when a request's share is back,
// and takes no reply; once the clock has moved that far, the next passes.
func TestRateLimitRequestsPerMinute(t *testing.T) {
	t.Parallel()
	clk := clock.NewFake(time.Date(2031, 3, 4, 5, 6, 7, 0, time.UTC))
	sess := llmtest.NewServer(t, llmtest.WithClock(clk)).NewSession(t, session.WithRateLimits(3, 0))
	sess.Chat("ok").Responds("a").Responds("b").Responds("c").Responds("d")
	client := e2e.ClientFor(sess, "k")

	for i := range 3 {
		var raw *http.Response
		_, err := client.Chat.Completions.New(t.Context(), e2e.UserTurn("gpt-4o", "hi"), option.WithResponseInto(&raw))
		require.NoError(t, err, "request %d", i+1)
		assert.Equal(t, "3", raw.Header.Get("x-ratelimit-limit-requests"))
		assert.Equal(t, []string{"2", "1", "0"}[i], raw.Header.Get("x-ratelimit-remaining-requests"))
		assert.Equal(t, []string{"20s", "40s", "1m0s"}[i], raw.Header.Get("x-ratelimit-reset-requests"))
		assert.Empty(t, raw.Header.Get("x-ratelimit-limit-tokens"), "tokens are not limited")
	}

	var raw *http.Response
	_, err := client.Chat.Completions.New(t.Context(), e2e.UserTurn("gpt-4o", "hi"), option.WithResponseInto(&raw))
	var apiErr *openai.Error
	require.True(t, errors.As(err, &apiErr), "got %v", err)
	assert.Equal(t, http.StatusTooManyRequests, apiErr.StatusCode)
	assert.Equal(t, "rate_limit_exceeded", apiErr.Code)
	assert.Equal(t, "requests", apiErr.Type)
	assert.Equal(t, "Rate limit reached for gpt-4o in organization org-llmtestserver on requests per min (RPM): Limit 3, Used 3, Requested 1. "+
		"Please try again in 20s. Visit https://platform.openai.com/account/rate-limits to learn more.", apiErr.Message)
	assert.Equal(t, "20", raw.Header.Get("Retry-After"))
	assert.Equal(t, "20000", raw.Header.Get("Retry-After-Ms"))
	assert.Equal(t, "0", raw.Header.Get("x-ratelimit-remaining-requests"), "the 429 carries the headers too")
	assert.Equal(t, "1m0s", raw.Header.Get("x-ratelimit-reset-requests"), "the refused request took nothing")
	assert.Equal(t, 1, sess.Pending(), "the refused request took no reply")
	last, ok := sess.Journal().Last()
	require.True(t, ok)
	assert.Equal(t, http.StatusTooManyRequests, last.Status, "the refused request is journaled")
	assert.Equal(t, "rate_limit_exceeded", last.ErrorCode)

	clk.Advance(19 * time.Second)
	_, err = client.Chat.Completions.New(t.Context(), e2e.UserTurn("gpt-4o", "hi"), option.WithResponseInto(&raw))
	require.Error(t, err, "a second early is too early")
	assert.Equal(t, "1", raw.Header.Get("Retry-After"))
	clk.Advance(time.Second)
	c, err := client.Chat.Completions.New(t.Context(), e2e.UserTurn("gpt-4o", "hi"), option.WithResponseInto(&raw))
	require.NoError(t, err)
	assert.Equal(t, "d", c.Choices[0].Message.Content)
	assert.Equal(t, "0", raw.Header.Get("x-ratelimit-remaining-requests"))

	sess.Reset()
	_, err = client.Chat.Completions.New(t.Context(), e2e.UserTurn("gpt-4o", "hi"), option.WithResponseInto(&raw))
	require.NoError(t, err, "Reset refills the buckets")
	assert.Equal(t, "2", raw.Header.Get("x-ratelimit-remaining-requests"))
}

// TestRateLimitTokensPerMinute: a request counts its input and its
// max_tokens; a large max_tokens empties the bucket, so the next request
// is refused on tokens (TPM), and one larger than the whole limit is
// "Request too large", which no wait admits.
func TestRateLimitTokensPerMinute(t *testing.T) {
	t.Parallel()
	clk := clock.NewFake(time.Date(2031, 3, 4, 5, 6, 7, 0, time.UTC))
	sess := llmtest.NewServer(t, llmtest.WithClock(clk)).NewSession(t, session.WithRateLimits(0, 1000),
		session.WithModelRateLimits("gpt-4o-mini", 100, 0))
	sess.Chat("ok").Responds("a").Repeat()
	client := e2e.ClientFor(sess, "k")

	big := e2e.UserTurn("gpt-4o", "hi")
	big.MaxCompletionTokens = openai.Int(900)
	var raw *http.Response
	_, err := client.Chat.Completions.New(t.Context(), big, option.WithResponseInto(&raw))
	require.NoError(t, err)
	assert.Equal(t, "1000", raw.Header.Get("x-ratelimit-limit-tokens"))
	remaining := raw.Header.Get("x-ratelimit-remaining-tokens")
	assert.Contains(t, []string{"99", "98", "97"}, remaining, "900 output tokens and a few of input")

	_, err = client.Chat.Completions.New(t.Context(), big, option.WithResponseInto(&raw))
	var apiErr *openai.Error
	require.True(t, errors.As(err, &apiErr), "got %v", err)
	assert.Equal(t, "tokens", apiErr.Type)
	assert.Equal(t, "rate_limit_exceeded", apiErr.Code)
	assert.True(t, strings.HasPrefix(apiErr.Message, "Rate limit reached for gpt-4o in organization org-llmtestserver on tokens per min (TPM): Limit 1000, Used 90"), apiErr.Message)
	assert.NotEmpty(t, raw.Header.Get("Retry-After-Ms"))

	huge := e2e.UserTurn("gpt-4o", "hi")
	huge.MaxCompletionTokens = openai.Int(5000)
	_, err = client.Chat.Completions.New(t.Context(), huge, option.WithResponseInto(&raw))
	require.True(t, errors.As(err, &apiErr), "got %v", err)
	assert.True(t, strings.HasPrefix(apiErr.Message, "Request too large for gpt-4o"), apiErr.Message)
	assert.Equal(t, "false", raw.Header.Get("X-Should-Retry"))
	assert.Empty(t, raw.Header.Get("Retry-After"))

	// A model with limits of its own: requests only, and its own bucket.
	_, err = client.Chat.Completions.New(t.Context(), e2e.UserTurn("gpt-4o-mini", "hi"), option.WithResponseInto(&raw))
	require.NoError(t, err)
	assert.Equal(t, "100", raw.Header.Get("x-ratelimit-limit-requests"))
	assert.Empty(t, raw.Header.Get("x-ratelimit-limit-tokens"))
}

// TestNoRateLimitsByDefault: a session without limits sends no rate-limit
// headers.
func TestNoRateLimitsByDefault(t *testing.T) {
	t.Parallel()
	sess := llmtest.NewServer(t).NewSession(t)
	sess.Chat("ok").Responds("a")
	var raw *http.Response
	client := e2e.ClientFor(sess, "k")
	_, err := client.Chat.Completions.New(t.Context(), e2e.UserTurn("gpt-4o", "hi"), option.WithResponseInto(&raw))
	require.NoError(t, err)
	assert.Empty(t, raw.Header.Get("x-ratelimit-limit-requests"))
}

// TestRateLimitEmbeddings: embeddings count against the limits of their
// model, as the real API's do: the second request of a one-a-minute limit
// is a 429 with the headers, and the clock frees it.
func TestRateLimitEmbeddings(t *testing.T) {
	t.Parallel()
	clk := clock.NewFake(time.Date(2031, 3, 4, 5, 6, 7, 0, time.UTC))
	sess := llmtest.NewServer(t, llmtest.WithClock(clk)).NewSession(t, session.WithModelRateLimits("text-embedding-3-small", 1, 0))
	client := e2e.ClientFor(sess, "k")
	embed := func() (*http.Response, error) {
		var raw *http.Response
		_, err := client.Embeddings.New(t.Context(), openai.EmbeddingNewParams{
			Model: "text-embedding-3-small",
			Input: openai.EmbeddingNewParamsInputUnion{OfString: openai.String("hello")},
		}, option.WithResponseInto(&raw))
		return raw, err
	}
	raw, err := embed()
	require.NoError(t, err)
	assert.Equal(t, "0", raw.Header.Get("x-ratelimit-remaining-requests"))

	raw, err = embed()
	var apiErr *openai.Error
	require.True(t, errors.As(err, &apiErr), "got %v", err)
	assert.Equal(t, http.StatusTooManyRequests, apiErr.StatusCode)
	assert.Equal(t, "rate_limit_exceeded", apiErr.Code)
	assert.Equal(t, "60", raw.Header.Get("Retry-After"))

	clk.Advance(time.Minute)
	_, err = embed()
	require.NoError(t, err, "the clock freed the limit")
	_, err = client.Chat.Completions.New(t.Context(), e2e.UserTurn("gpt-4o", "hi"))
	var notFound *openai.Error
	require.True(t, errors.As(err, &notFound), "chat has no scenario here, but no limit either: got %v", err)
	assert.NotEqual(t, http.StatusTooManyRequests, notFound.StatusCode, "another model's limits are its own")
}
