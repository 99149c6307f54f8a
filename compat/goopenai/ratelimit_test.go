package goopenai_test

import (
	"errors"
	"net/http"
	"testing"
	"time"

	"github.com/llmtestserver/llmtestserver/clock"
	"github.com/llmtestserver/llmtestserver/llmtest"
	"github.com/llmtestserver/llmtestserver/session"
	goopenai "github.com/sashabaranov/go-openai"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// go-openai reads the rate-limit headers of a success with
// GetRateLimitHeaders, resets parsed as Go durations; once the requests a
// minute are spent it gets a 429 *APIError with code rate_limit_exceeded
// (go-openai never retries), and after the clock moves on it passes again.
func TestGoOpenAIRateLimits(t *testing.T) {
	t.Parallel()
	clk := clock.NewFake(time.Date(2031, 3, 4, 5, 6, 7, 0, time.UTC))
	sess := llmtest.NewServer(t, llmtest.WithClock(clk)).NewSession(t, session.WithRateLimits(2, 10_000))
	sess.Chat("ok").Responds("a").Repeat()
	cfg := goopenai.DefaultConfig("k")
	cfg.BaseURL, cfg.HTTPClient = sess.BaseURL(), sess.HTTPClient()
	client := goopenai.NewClientWithConfig(cfg)
	req := goopenai.ChatCompletionRequest{Model: "gpt-4o", MaxCompletionTokens: 100,
		Messages: []goopenai.ChatCompletionMessage{{Role: "user", Content: "Hi"}}}

	resp, err := client.CreateChatCompletion(t.Context(), req)
	require.NoError(t, err)
	h := resp.GetRateLimitHeaders()
	assert.Equal(t, 2, h.LimitRequests)
	assert.Equal(t, 1, h.RemainingRequests)
	assert.Equal(t, "30s", h.ResetRequests.String())
	assert.Equal(t, 10_000, h.LimitTokens)
	assert.Less(t, h.RemainingTokens, 10_000-100, "the request's max tokens and input count")
	assert.Greater(t, h.RemainingTokens, 10_000-120)
	reset, err := time.ParseDuration(h.ResetTokens.String())
	require.NoError(t, err, "the token reset is a Go duration")
	assert.Positive(t, reset)

	_, err = client.CreateChatCompletion(t.Context(), req)
	require.NoError(t, err)
	_, err = client.CreateChatCompletion(t.Context(), req)
	var apiErr *goopenai.APIError
	require.True(t, errors.As(err, &apiErr), "got %#v", err)
	assert.Equal(t, http.StatusTooManyRequests, apiErr.HTTPStatusCode)
	assert.Equal(t, "rate_limit_exceeded", apiErr.Code)
	assert.Equal(t, "requests", apiErr.Type)
	assert.Contains(t, apiErr.Message, "Limit 2, Used 2, Requested 1. Please try again in 30s.")

	clk.Advance(30 * time.Second)
	resp, err = client.CreateChatCompletion(t.Context(), req)
	require.NoError(t, err)
	assert.Equal(t, 0, resp.GetRateLimitHeaders().RemainingRequests)
}
