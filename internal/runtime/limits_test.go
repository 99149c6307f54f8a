package runtime

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/llmtestserver/llmtestserver/clock"
)

func limitedRuntime(clk clock.Clock, lim RateLimits) *Runtime {
	return New(Settings{JournalCapacity: 10, JournalMaxBytes: 1 << 20, Clock: clk, RateLimits: lim})
}

// Three requests a minute: the fourth at the same instant waits 20 s, the
// time one request's share of the minute takes to refill; after it, one
// more passes.
func TestRateRequestsRefillContinuously(t *testing.T) {
	clk := clock.NewFake(time.Unix(1e9, 0))
	rt := limitedRuntime(clk, RateLimits{Default: RateLimit{RequestsPerMinute: 3}})
	lim := rt.RateLimitFor("m")
	for i := range 3 {
		c, ok := rt.TakeRate("m", lim, 0)
		require.True(t, ok)
		require.True(t, c.Admitted(), "request %d", i+1)
		assert.Equal(t, RateWindow{Limit: 3, Remaining: 2 - i, Reset: time.Duration(i+1) * 20 * time.Second}, c.Requests)
	}
	c, _ := rt.TakeRate("m", lim, 0)
	require.False(t, c.Admitted())
	assert.Equal(t, RateRequests, c.Exceeded)
	assert.Equal(t, 20*time.Second, c.RetryAfter)
	assert.Equal(t, 3, c.Used(RateRequests))
	assert.Equal(t, time.Minute, c.Requests.Reset, "a refused request takes nothing")

	clk.Advance(19 * time.Second)
	c, _ = rt.TakeRate("m", lim, 0)
	require.False(t, c.Admitted())
	assert.Equal(t, time.Second, c.RetryAfter)
	clk.Advance(time.Second)
	c, _ = rt.TakeRate("m", lim, 0)
	assert.True(t, c.Admitted())
}

// Tokens count against their own bucket; a request larger than the whole
// limit can never pass and says so.
func TestRateTokens(t *testing.T) {
	clk := clock.NewFake(time.Unix(1e9, 0))
	rt := limitedRuntime(clk, RateLimits{Default: RateLimit{TokensPerMinute: 1000}})
	lim := rt.RateLimitFor("m")
	c, _ := rt.TakeRate("m", lim, 600)
	require.True(t, c.Admitted())
	assert.Equal(t, RateWindow{Limit: 1000, Remaining: 400, Reset: 36 * time.Second}, c.Tokens)
	assert.Zero(t, c.Requests, "requests are not limited")

	c, _ = rt.TakeRate("m", lim, 500)
	require.False(t, c.Admitted())
	assert.Equal(t, RateTokens, c.Exceeded)
	assert.Equal(t, 6*time.Second, c.RetryAfter, "100 tokens more must refill: 6 s at 1000 a minute")
	assert.Equal(t, 600, c.Used(RateTokens))

	c, _ = rt.TakeRate("m", lim, 1001)
	require.False(t, c.Admitted())
	assert.True(t, c.TooLarge)
	assert.Zero(t, c.RetryAfter)
}

// Per-model limits replace the default; models have buckets of their own;
// Reset and Configure refill them; a retired runtime takes nothing.
func TestRatePerModelResetAndRetire(t *testing.T) {
	clk := clock.NewFake(time.Unix(1e9, 0))
	lims := RateLimits{Default: RateLimit{RequestsPerMinute: 1}, Models: map[string]RateLimit{"big": {RequestsPerMinute: 2}, "free": {}}}
	rt := limitedRuntime(clk, lims)
	take := func(model string) bool {
		c, ok := rt.TakeRate(model, rt.RateLimitFor(model), 0)
		return !ok || c.Admitted()
	}
	assert.True(t, take("a"))
	assert.False(t, take("a"))
	assert.True(t, take("b"), "each model has its own bucket")
	assert.True(t, take("big"))
	assert.True(t, take("big"))
	assert.False(t, take("big"))
	for range 5 {
		assert.True(t, take("free"), "a model whose entry is zero is not limited")
	}
	rt.Reset()
	assert.True(t, take("a"), "Reset refills the buckets")
	rt.Configure(rt.Settings())
	assert.True(t, take("a"), "Configure refills the buckets")
	rt.Retire()
	_, ok := rt.TakeRate("a", rt.RateLimitFor("a"), 0)
	assert.False(t, ok, "a retired runtime checks nothing")
}

// The buckets are bounded: past maxRateBuckets models the full ones go
// first, then the nearest to full.
func TestRateBucketsBounded(t *testing.T) {
	clk := clock.NewFake(time.Unix(1e9, 0))
	rt := limitedRuntime(clk, RateLimits{Default: RateLimit{RequestsPerMinute: 10}})
	for i := range maxRateBuckets + 50 {
		rt.TakeRate(string(rune('a'+i%26))+time.Duration(i).String(), RateLimit{RequestsPerMinute: 10}, 0)
		if i == maxRateBuckets/2 {
			clk.Advance(time.Minute) // the first half is full again
		}
	}
	rt.mu.Lock()
	defer rt.mu.Unlock()
	assert.LessOrEqual(t, len(rt.rates), maxRateBuckets)
}
