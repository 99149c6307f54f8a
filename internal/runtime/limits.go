package runtime

import (
	"math/bits"
	"time"
)

// RateLimits are a session's rate limits, per model. The zero value limits
// nothing.
//
// Each limit is a bucket that holds a minute's allowance and refills
// continuously, at the limit per minute: Anthropic documents its limiter
// as such a token bucket ("continuously replenished up to your maximum
// limit, rather than being reset at fixed intervals"), and OpenAI enforces
// its per-minute limits at finer grain than the minute, to the same
// effect. A request takes one from the request bucket and its tokens from
// the token bucket, and is admitted only when both hold enough; a full
// bucket is as good as none, which is what lets the runtime forget
// buckets (see maxRateBuckets).
type RateLimits struct {
	// Default applies to every model without an entry in Models.
	Default RateLimit
	// Models holds per-model limits, which replace Default for their model
	// (a zero field there is no limit).
	Models map[string]RateLimit
}

// RateLimit is the limits on one model; 0 is no limit.
type RateLimit struct {
	// RequestsPerMinute bounds the requests a minute.
	RequestsPerMinute int
	// TokensPerMinute bounds the tokens a minute: input plus the
	// requested maximum output, as the real limiters count them.
	TokensPerMinute int
}

// For returns the limits on model.
func (l RateLimits) For(model string) RateLimit {
	if m, ok := l.Models[model]; ok {
		return m
	}
	return l.Default
}

// IsZero reports whether l limits nothing.
func (l RateLimit) IsZero() bool { return l == RateLimit{} }

// RateDimension names what a limit counts.
type RateDimension string

// The dimensions a limit counts.
const (
	RateRequests RateDimension = "requests"
	RateTokens   RateDimension = "tokens"
)

// RateWindow is what one bucket looked like to a request, after the request
// took from it (or, when refused, without it).
type RateWindow struct {
	// Limit is the bucket's size, the limit per minute; 0 when the
	// dimension is not limited, and the other fields are then zero.
	Limit int
	// Remaining is what the bucket holds.
	Remaining int
	// Reset is how long until the bucket is full again.
	Reset time.Duration
}

// RateCheck is the outcome of checking one request against its model's
// limits.
type RateCheck struct {
	// Model is the model whose limits applied.
	Model string
	// Now is when the check was made, on the runtime's clock.
	Now time.Time
	// Requests and Tokens are the buckets as the request left them.
	Requests, Tokens RateWindow
	// RequestedTokens is what the request asked of the token limit: its
	// input plus the most output tokens it allows.
	RequestedTokens int
	// Exceeded is the limit that refused the request, "" when it was
	// admitted. When both would refuse it, the one that frees later.
	Exceeded RateDimension
	// RetryAfter is how long until the exceeded bucket holds enough for
	// this request; 0 when it was admitted, or when the request is larger
	// than the whole limit (TooLarge) and no wait admits it.
	RetryAfter time.Duration
	// TooLarge reports a request larger than the exceeded limit itself.
	TooLarge bool
}

// Admitted reports whether the request was admitted.
func (c *RateCheck) Admitted() bool { return c.Exceeded == "" }

// Window returns the bucket of dimension d.
func (c *RateCheck) Window(d RateDimension) RateWindow {
	if d == RateTokens {
		return c.Tokens
	}
	return c.Requests
}

// Used is what the bucket of dimension d had given out, as the limiters'
// messages count it: its limit less what it holds.
func (c *RateCheck) Used(d RateDimension) int {
	w := c.Window(d)
	return w.Limit - w.Remaining
}

// Requested is what the request asked of the bucket of dimension d.
func (c *RateCheck) Requested(d RateDimension) int {
	if d == RateTokens {
		return c.RequestedTokens
	}
	return 1
}

// rateWindow is the time a limit refills in.
const rateWindow = time.Minute

// maxRateBuckets bounds the models a runtime keeps buckets for. A session
// serves a bounded set of models anyway (its allow-list or a catalog); the
// cap holds whatever that set is. Full buckets are forgotten first, which
// loses nothing.
const maxRateBuckets = 1024

// bucket is one limit, kept as the time it is full again (the theoretical
// arrival time of the generic cell rate algorithm): at time now it holds
// limit × (1 - (full-now)/window). Holding a time rather than a level
// makes refilling exact, with no rounding as time passes.
type bucket struct{ full time.Time }

// cost is how much of the window n units of a limit take.
func cost(n, limit int) time.Duration {
	hi, lo := bits.Mul64(uint64(n), uint64(rateWindow))
	q, r := bits.Div64(hi, lo, uint64(limit))
	if r > 0 {
		q++
	}
	return time.Duration(q)
}

// start is when the bucket's debt runs from: its full time, or now when it
// is full already.
func (b bucket) start(now time.Time) time.Time {
	if b.full.After(now) {
		return b.full
	}
	return now
}

// wait is how long until the bucket can give n of limit: 0 when it can now,
// -1 when it never can (n is more than the limit).
func (b bucket) wait(now time.Time, n, limit int) time.Duration {
	if n > limit {
		return -1
	}
	return max(b.start(now).Add(cost(n, limit)).Sub(now)-rateWindow, 0)
}

// window is what the bucket looks like at now.
func (b bucket) window(now time.Time, limit int) RateWindow {
	debt := min(b.start(now).Sub(now), rateWindow)
	hi, lo := bits.Mul64(uint64(debt), uint64(limit))
	used, r := bits.Div64(hi, lo, uint64(rateWindow))
	if r > 0 {
		used++
	}
	return RateWindow{Limit: limit, Remaining: max(limit-int(used), 0), Reset: debt}
}

// modelBuckets are the buckets of one model.
type modelBuckets struct{ requests, tokens bucket }

// RateLimitFor returns the limits that apply to model.
func (rt *Runtime) RateLimitFor(model string) RateLimit {
	return rt.Settings().RateLimits.For(model)
}

// TakeRate checks a request for model that asks for tokens against lim,
// the model's limits (see RateLimitFor), and takes what it asks from the
// buckets when both hold enough. A refused request takes nothing. It
// returns false, and takes nothing, when lim limits nothing or the runtime
// is retired.
func (rt *Runtime) TakeRate(model string, lim RateLimit, tokens int) (RateCheck, bool) {
	if lim.IsZero() {
		return RateCheck{}, false
	}
	rt.mu.Lock()
	defer rt.mu.Unlock()
	if rt.retired {
		return RateCheck{}, false
	}
	now := rt.clock.Now()
	c := RateCheck{Model: model, Now: now, RequestedTokens: tokens}
	b := rt.rateBuckets(model, now)
	var waitFor time.Duration
	refuse := func(d RateDimension, w time.Duration) {
		switch {
		case w < 0 && !c.TooLarge:
			c.Exceeded, c.TooLarge, c.RetryAfter, waitFor = d, true, 0, -1
		case w > 0 && waitFor >= 0 && w > waitFor:
			c.Exceeded, c.RetryAfter, waitFor = d, w, w
		}
	}
	if lim.RequestsPerMinute > 0 {
		refuse(RateRequests, b.requests.wait(now, 1, lim.RequestsPerMinute))
	}
	if lim.TokensPerMinute > 0 {
		refuse(RateTokens, b.tokens.wait(now, tokens, lim.TokensPerMinute))
	}
	if c.Admitted() {
		if lim.RequestsPerMinute > 0 {
			b.requests.full = b.requests.start(now).Add(cost(1, lim.RequestsPerMinute))
		}
		if lim.TokensPerMinute > 0 && tokens > 0 {
			b.tokens.full = b.tokens.start(now).Add(cost(tokens, lim.TokensPerMinute))
		}
	}
	if lim.RequestsPerMinute > 0 {
		c.Requests = b.requests.window(now, lim.RequestsPerMinute)
	}
	if lim.TokensPerMinute > 0 {
		c.Tokens = b.tokens.window(now, lim.TokensPerMinute)
	}
	return c, true
}

// rateBuckets returns model's buckets, making room for them when the
// runtime keeps maxRateBuckets already: full buckets go first, then the
// one nearest to full. The caller holds mu.
func (rt *Runtime) rateBuckets(model string, now time.Time) *modelBuckets {
	if b, ok := rt.rates[model]; ok {
		return b
	}
	if rt.rates == nil {
		rt.rates = make(map[string]*modelBuckets)
	}
	if len(rt.rates) >= maxRateBuckets {
		nearest, soonest := "", time.Time{}
		for m, b := range rt.rates {
			full := b.requests.full
			if b.tokens.full.After(full) {
				full = b.tokens.full
			}
			if !full.After(now) {
				delete(rt.rates, m)
				continue
			}
			if nearest == "" || full.Before(soonest) {
				nearest, soonest = m, full
			}
		}
		if len(rt.rates) >= maxRateBuckets {
			delete(rt.rates, nearest)
		}
	}
	b := &modelBuckets{}
	rt.rates[model] = b
	return b
}
