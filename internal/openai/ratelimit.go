package openai

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
// messages, which the real API words with the organization's ID.
const organization = "org-llmtestserver"

// rateLimitsURL closes the real API's rate-limit messages.
const rateLimitsURL = "https://platform.openai.com/account/rate-limits"

// rateUnits are the words of OpenAI's messages for each dimension.
var rateUnits = map[runtime.RateDimension]string{
	runtime.RateRequests: "requests per min (RPM)",
	runtime.RateTokens:   "tokens per min (TPM)",
}

// RateLimitError implements provider.RateLimiter as the real API words a
// 429 of its limiter: type "requests" or "tokens", code
// rate_limit_exceeded, and a message with the limit, what is used, what
// the request asked and when to try again; a request larger than the
// whole limit is "Request too large".
func (Codec) RateLimitError(c *runtime.RateCheck) *apierr.Error {
	d := c.Exceeded
	e := &apierr.Error{Kind: scenario.ErrorRateLimit, Status: http.StatusTooManyRequests, Type: string(d), Code: "rate_limit_exceeded"}
	if c.TooLarge {
		e.Message = fmt.Sprintf("Request too large for %s in organization %s on %s: Limit %d, Requested %d. "+
			"The input or output tokens must be reduced in order to run successfully. Visit %s to learn more.",
			c.Model, organization, rateUnits[d], c.Window(d).Limit, c.Requested(d), rateLimitsURL)
		return e
	}
	e.Message = fmt.Sprintf("Rate limit reached for %s in organization %s on %s: Limit %d, Used %d, Requested %d. "+
		"Please try again in %s. Visit %s to learn more.",
		c.Model, organization, rateUnits[d], c.Window(d).Limit, c.Used(d), c.Requested(d), resetDuration(c.RetryAfter), rateLimitsURL)
	return e
}

// SetRateLimitHeaders implements provider.RateLimiter with the real API's
// x-ratelimit-* headers for each dimension the session limits: the limit,
// what remains, and how long until the bucket is full again, as a Go
// duration ("6m0s", "20ms"), which is what go-openai parses them with.
func (Codec) SetRateLimitHeaders(h http.Header, c *runtime.RateCheck) {
	for d, w := range map[runtime.RateDimension]runtime.RateWindow{runtime.RateRequests: c.Requests, runtime.RateTokens: c.Tokens} {
		if w.Limit == 0 {
			continue
		}
		h.Set("X-Ratelimit-Limit-"+string(d), strconv.Itoa(w.Limit))
		h.Set("X-Ratelimit-Remaining-"+string(d), strconv.Itoa(w.Remaining))
		h.Set("X-Ratelimit-Reset-"+string(d), resetDuration(w.Reset))
	}
}

// resetDuration prints d rounded up to the millisecond, as the real API
// prints its waits.
func resetDuration(d time.Duration) string {
	return (d + time.Millisecond - 1).Truncate(time.Millisecond).String()
}

// rateLimitText is the message of a 429 that brings none of its own, such
// as scenario.RateLimited's, in the real API's words for its type: a
// "tokens" 429 speaks of tokens per minute and a "requests" one of
// requests, so that type and message agree, and the wait is the one its
// Retry-After-Ms header asks for. A scripted 429 has no limit, use or
// model to quote, so those parts of the real message are left out. Any
// other type keeps text.
func rateLimitText(typ string, h http.Header, text string) string {
	unit, ok := rateUnits[runtime.RateDimension(typ)]
	if !ok {
		return text
	}
	wait := "Please try again later."
	if ms, err := strconv.ParseInt(h.Get("Retry-After-Ms"), 10, 64); err == nil && ms >= 0 {
		wait = "Please try again in " + resetDuration(time.Duration(ms)*time.Millisecond) + "."
	}
	return fmt.Sprintf("Rate limit reached in organization %s on %s. %s Visit %s to learn more.", organization, unit, wait, rateLimitsURL)
}
