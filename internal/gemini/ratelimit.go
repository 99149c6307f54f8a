package gemini

import (
	"fmt"
	"net/http"
	"strconv"
	"strings"

	"github.com/llmtestserver/llmtestserver/internal/apierr"
	"github.com/llmtestserver/llmtestserver/internal/provider"
	"github.com/llmtestserver/llmtestserver/internal/runtime"
	"github.com/llmtestserver/llmtestserver/scenario"
)

var _ provider.RateLimiter = Codec{}

const (
	typeQuotaFailure = "type.googleapis.com/google.rpc.QuotaFailure"
	rateLimitsDoc    = "https://ai.google.dev/gemini-api/docs/rate-limits"
)

// quotas names the API's per-minute quotas as its 429s name them (seen in
// the bodies users report; the free tier's names, which the paid tiers'
// messages follow).
var quotas = map[runtime.RateDimension][2]string{
	runtime.RateRequests: {"generativelanguage.googleapis.com/generate_content_free_tier_requests",
		"GenerateRequestsPerMinutePerProjectPerModel-FreeTier"},
	runtime.RateTokens: {"generativelanguage.googleapis.com/generate_content_free_tier_input_token_count",
		"GenerateContentInputTokensPerModelPerMinute-FreeTier"},
}

// RateLimitError implements provider.RateLimiter with the API's 429: a
// RESOURCE_EXHAUSTED whose message says which quota ran out and when to
// retry, with QuotaFailure and Help details; the answer layer's
// Retry-After becomes its RetryInfo.
func (Codec) RateLimitError(c *runtime.RateCheck) *apierr.Error {
	q, limit := quotas[c.Exceeded], c.Window(c.Exceeded).Limit
	var msg strings.Builder
	fmt.Fprintf(&msg, "You exceeded your current quota, please check your plan and billing details. "+
		"For more information on this error, head to: %s. To monitor your current usage, head to: https://ai.dev/rate-limit. "+
		"\n* Quota exceeded for metric: %s, limit: %d, model: %s\n", rateLimitsDoc, q[0], limit, c.Model)
	if c.RetryAfter > 0 {
		fmt.Fprintf(&msg, "Please retry in %ss.", strconv.FormatFloat(c.RetryAfter.Seconds(), 'f', -1, 64))
	}
	return &apierr.Error{Kind: scenario.ErrorRateLimit, Status: http.StatusTooManyRequests, Type: statusResourceExhausted,
		Message: msg.String(), Details: []detail{
			{"@type": typeQuotaFailure, "violations": []map[string]any{{
				"quotaMetric": q[0], "quotaId": q[1],
				"quotaDimensions": map[string]string{"location": "global", "model": c.Model},
				"quotaValue":      strconv.Itoa(limit),
			}}},
			{"@type": typeHelp, "links": []map[string]string{{"description": "Learn more about Gemini API quotas", "url": rateLimitsDoc}}},
		}}
}

// SetRateLimitHeaders implements provider.RateLimiter: the API reports no
// limits in headers.
func (Codec) SetRateLimitHeaders(http.Header, *runtime.RateCheck) {}
