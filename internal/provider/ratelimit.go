package provider

import (
	"net/http"

	"github.com/llmtestserver/llmtestserver/internal/apierr"
	"github.com/llmtestserver/llmtestserver/internal/runtime"
)

// RateLimiter is implemented by codecs whose provider words its own
// rate-limit refusals and reports its limits in headers. A codec without it
// gets a neutral 429 and no rate-limit headers.
type RateLimiter interface {
	// RateLimitError returns the 429 for a request that c refused, in the
	// provider's words (type, code, message). The answer layer adds
	// Retry-After and retry-after-ms.
	RateLimitError(c *runtime.RateCheck) *apierr.Error
	// SetRateLimitHeaders sets the headers that report the limits as the
	// request c checked left them; the HTTP core calls it for every
	// answer to a request that was checked, admitted or not.
	SetRateLimitHeaders(h http.Header, c *runtime.RateCheck)
}

// SetRateLimitHeaders sets the rate-limit headers of the request x answers,
// when it was checked against limits and its codec reports them.
func (x *Exchange) SetRateLimitHeaders(h http.Header) {
	if x.RateLimit == nil {
		return
	}
	if rl, ok := x.Codec.(RateLimiter); ok {
		rl.SetRateLimitHeaders(h, x.RateLimit)
	}
}
