package answer

import (
	"math"
	"net/http"
	"strconv"
	"time"

	"github.com/llmtestserver/llmtestserver/internal/apierr"
	"github.com/llmtestserver/llmtestserver/internal/httpx"
	"github.com/llmtestserver/llmtestserver/internal/provider"
	"github.com/llmtestserver/llmtestserver/internal/tokens"
	"github.com/llmtestserver/llmtestserver/scenario"
)

// Limit checks req against the session's rate limits for its model, and
// returns the 429 to answer when they refuse it. A request admitted takes
// its share of the limits; one refused takes nothing. Either way x keeps
// the check, so the answer reports the limits in headers. Find runs it for
// conversational requests; other routes the real limiters count (OpenAI's
// embeddings) call it once their model is checked.
func Limit(x *provider.Exchange, req *scenario.Request) *provider.Response {
	lim := x.Runtime.RateLimitFor(req.Model)
	if lim.IsZero() {
		return nil
	}
	n := 0
	if lim.TokensPerMinute > 0 {
		var err error
		if n, err = requestedTokens(x, req); err != nil {
			return &provider.Response{Err: httpx.ClientGone()}
		}
	}
	c, ok := x.Runtime.TakeRate(req.Model, lim, n)
	if !ok {
		return nil
	}
	x.RateLimit = &c
	if c.Admitted() {
		return nil
	}
	var e *apierr.Error
	if rl, ok := x.Codec.(provider.RateLimiter); ok {
		e = rl.RateLimitError(&c)
	} else {
		e = &apierr.Error{Kind: scenario.ErrorRateLimit, Status: http.StatusTooManyRequests, Code: "rate_limit_exceeded",
			Message: "Rate limit reached for " + req.Model + " on " + string(c.Exceeded) + " per minute."}
	}
	if c.TooLarge {
		// No wait admits it, so the SDKs must not retry.
		return &provider.Response{Err: e.WithHeader("X-Should-Retry", "false")}
	}
	ms := int64(math.Ceil(float64(c.RetryAfter) / float64(time.Millisecond)))
	e.WithHeader("Retry-After", strconv.FormatInt((ms+999)/1000, 10))
	e.WithHeader("Retry-After-Ms", strconv.FormatInt(ms, 10))
	return &provider.Response{Err: e}
}

// requestedTokens is what req asks of a token limit, as the real limiters
// count it: its input, the text of the normalized request (system prompt,
// messages, tool calls and the tools offered) in the model's encoding, plus
// the most output tokens it allows, MaxOutputTokens, which counts 0 when
// the request sets no limit (the real APIs then count a default this
// server does not know). The sum saturates: a limit near the largest int
// asks for more than any limit holds, never wraps to nothing. The count
// stops when the client leaves.
func requestedTokens(x *provider.Exchange, req *scenario.Request) (int, error) {
	total := max(req.MaxOutputTokens, 0)
	add := func(s string) error {
		n, err := tokens.CountContext(x.Ctx, req.Model, s)
		total = addTokens(total, n)
		return err
	}
	texts := []string{req.System}
	for _, m := range req.Messages {
		texts = append(texts, m.Content)
		for _, c := range m.ToolCalls {
			texts = append(texts, c.Name, c.Arguments)
		}
	}
	for _, t := range req.Tools {
		texts = append(texts, t.Name, t.Description, string(t.Parameters))
	}
	for _, s := range texts {
		if err := add(s); err != nil {
			return 0, err
		}
	}
	return total, nil
}

// addTokens adds two token counts, neither negative, saturating at the
// largest int: counts a client sets, such as a maximum of output tokens,
// can be anything up to it.
func addTokens(a, b int) int {
	if a > math.MaxInt-b {
		return math.MaxInt
	}
	return a + b
}
