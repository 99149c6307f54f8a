package genaisdk_test

import (
	"context"
	"testing"
	"time"

	"github.com/llmtestserver/llmtestserver/clock"
	"github.com/llmtestserver/llmtestserver/llmtest"
	"github.com/llmtestserver/llmtestserver/session"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"google.golang.org/genai"
)

// genai meets the session's limits in the API's words: a 429
// RESOURCE_EXHAUSTED naming the quota, its limit and the model, with
// QuotaFailure, Help and RetryInfo details, and no rate-limit headers on
// any answer.
func TestGeminiRateLimits(t *testing.T) {
	t.Parallel()
	clk := clock.NewFake(time.Date(2031, 3, 4, 5, 6, 7, 0, time.UTC))
	sess := llmtest.NewServer(t, llmtest.WithClock(clk)).NewSession(t, session.WithRateLimits(1, 30_000))
	sess.Chat("ok").Responds("a").Repeat()
	c := client(t, sess)

	resp, err := c.Models.GenerateContent(context.Background(), model, genai.Text("Hi"), nil)
	require.NoError(t, err)
	for name := range resp.SDKHTTPResponse.Headers {
		assert.NotContains(t, name, "Ratelimit", "the API reports no limits in headers")
	}

	_, err = c.Models.GenerateContent(context.Background(), model, genai.Text("Hi"), nil)
	e := apiError(t, err)
	assert.Equal(t, 429, e.Code)
	assert.Equal(t, "RESOURCE_EXHAUSTED", e.Status)
	assert.Contains(t, e.Message, "You exceeded your current quota, please check your plan and billing details.")
	assert.Contains(t, e.Message, "* Quota exceeded for metric: generativelanguage.googleapis.com/generate_content_free_tier_requests, limit: 1, model: "+model)
	assert.Contains(t, e.Message, "Please retry in 60s.")
	types := map[string]map[string]any{}
	for _, d := range e.Details {
		types[d["@type"].(string)] = d
	}
	require.Contains(t, types, "type.googleapis.com/google.rpc.QuotaFailure")
	violation := types["type.googleapis.com/google.rpc.QuotaFailure"]["violations"].([]any)[0].(map[string]any)
	assert.Equal(t, "GenerateRequestsPerMinutePerProjectPerModel-FreeTier", violation["quotaId"])
	assert.Equal(t, map[string]any{"location": "global", "model": model}, violation["quotaDimensions"])
	assert.Contains(t, types, "type.googleapis.com/google.rpc.Help")
	assert.Equal(t, "60s", types["type.googleapis.com/google.rpc.RetryInfo"]["retryDelay"])

	// A minute later the request is admitted again.
	clk.Advance(time.Minute)
	_, err = c.Models.GenerateContent(context.Background(), model, genai.Text("Hi"), nil)
	require.NoError(t, err)
}
