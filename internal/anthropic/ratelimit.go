package anthropic

import (
	"fmt"
	"net/http"
	"strconv"
	"time"

	"github.com/llmtestserver/llmtestserver/internal/apierr"
	"github.com/llmtestserver/llmtestserver/internal/provider"
	"github.com/llmtestserver/llmtestserver/internal/runtime"
	"github.com/llmtestserver/llmtestserver/scenario"
)

var _ provider.RateLimiter = Codec{}

// organization stands for the caller's organization in rate-limit
// messages, which the real API words with the organization's UUID.
const organization = "00000000-0000-4000-8000-000000000000"

// RateLimitError implements provider.RateLimiter with the real API's
// rate_limit_error and the shape of its message.
func (Codec) RateLimitError(c *runtime.RateCheck) *apierr.Error {
	d := c.Exceeded
	return &apierr.Error{Kind: scenario.ErrorRateLimit, Status: http.StatusTooManyRequests, Type: typeRateLimit,
		Message: fmt.Sprintf("This request would exceed your organization's rate limit of %s %s per minute (org: %s, model: %s). "+
			"For details, refer to: https://docs.claude.com/en/api/rate-limits. You can see the response headers for current usage. "+
			"Please reduce the prompt length or the maximum tokens requested, or try again later.",
			thousands(c.Window(d).Limit), d, organization, c.Model)}
}

// SetRateLimitHeaders implements provider.RateLimiter with the real API's
// anthropic-ratelimit-* headers: limit, remaining and reset (when the
// bucket is full again, RFC 3339) for requests and for tokens. This server
// limits input and output tokens together, in one bucket, so the
// tokens-, input-tokens- and output-tokens- headers all report it.
func (Codec) SetRateLimitHeaders(h http.Header, c *runtime.RateCheck) {
	set := func(prefix string, w runtime.RateWindow) {
		if w.Limit == 0 {
			return
		}
		h.Set(prefix+"-Limit", strconv.Itoa(w.Limit))
		h.Set(prefix+"-Remaining", strconv.Itoa(w.Remaining))
		h.Set(prefix+"-Reset", c.Now.Add(w.Reset+time.Second-1).Truncate(time.Second).UTC().Format(time.RFC3339))
	}
	set("Anthropic-Ratelimit-Requests", c.Requests)
	for _, p := range []string{"Tokens", "Input-Tokens", "Output-Tokens"} {
		set("Anthropic-Ratelimit-"+p, c.Tokens)
	}
}

// thousands prints n with commas between groups of three digits, as the
// API's messages do ("30,000").
func thousands(n int) string {
	s := strconv.Itoa(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}
