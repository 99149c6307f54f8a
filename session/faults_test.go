package session_test

import (
	"errors"
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/llmtestserver/llmtestserver/scenario"
	"github.com/llmtestserver/llmtestserver/session"
)

// The JSON configuration takes rate limits and chaos rules, which options
// build as well, and both price into the reservation.
func TestRateLimitsAndChaosParse(t *testing.T) {
	doc := `{"rate_limits": {"requests_per_minute": 3, "tokens_per_minute": 1000, "models": {"gpt-4o": {"requests_per_minute": 5}}},
		"chaos": {"seed": 42, "rules": [{"name": "flaky", "every": 3, "reply": {"error": {"status": 500}}},
			{"probability": 0.1, "streams_only": true, "endpoints": ["chat.completions"], "models": ["gpt-4o"], "reply": {"error": {"status": 503}}}]}}`
	cfg, err := session.ParseConfig([]byte(doc), session.DefaultConfig())
	require.NoError(t, err)
	require.NotNil(t, cfg.RateLimits)
	assert.Equal(t, 3, cfg.RateLimits.RequestsPerMinute)
	assert.Equal(t, session.ModelRateLimits{RequestsPerMinute: 5}, cfg.RateLimits.Models["gpt-4o"])
	require.NotNil(t, cfg.Chaos)
	require.Len(t, cfg.Chaos.Rules, 2)
	assert.Equal(t, 500, cfg.Chaos.Rules[0].Reply.Error.Status)
	assert.Equal(t, []scenario.Endpoint{scenario.EndpointChatCompletions}, cfg.Chaos.Rules[1].Endpoints)

	built, err := session.NewConfig(session.WithRateLimits(3, 1000), session.WithModelRateLimits("gpt-4o", 5, 0),
		session.WithChaos(42, cfg.Chaos.Rules...))
	require.NoError(t, err)
	assert.Equal(t, cfg.RateLimits, built.RateLimits)
	assert.Equal(t, cfg.Chaos, built.Chaos)
	plain := session.DefaultConfig()
	assert.Greater(t, cfg.Reservation(), plain.Reservation(), "buckets and rules are priced")

	built.Chaos.Rules[0].Reply.Error.Status = 502
	assert.Equal(t, 500, cfg.Chaos.Rules[0].Reply.Error.Status, "WithChaos keeps a deep copy")
}

func TestRateLimitsAndChaosValidation(t *testing.T) {
	fail := scenario.Fail(500, "", "")
	for name, tc := range map[string]struct {
		opt   session.Option
		field string
	}{
		"negative rpm":     {session.WithRateLimits(-1, 0), "rate_limits.requests_per_minute"},
		"huge tpm":         {session.WithRateLimits(0, 2_000_000_000), "rate_limits.tokens_per_minute"},
		"model rpm":        {session.WithModelRateLimits("m", 2_000_000, 0), "rate_limits.models[m].requests_per_minute"},
		"empty model":      {session.WithModelRateLimits("", 1, 0), "rate_limits.models"},
		"no trigger":       {session.WithChaos(1, session.ChaosRule{Reply: fail}), "chaos.rules[0]"},
		"both triggers":    {session.WithChaos(1, session.ChaosRule{Every: 2, Probability: 0.5, Reply: fail}), "chaos.rules[0]"},
		"negative every":   {session.WithChaos(1, session.ChaosRule{Every: -2, Reply: fail}), "chaos.rules[0].every"},
		"probability > 1":  {session.WithChaos(1, session.ChaosRule{Probability: 1.5, Reply: fail}), "chaos.rules[0].probability"},
		"probability NaN":  {session.WithChaos(1, session.ChaosRule{Probability: math.NaN(), Reply: fail}), "chaos.rules[0].probability"},
		"go responder":     {session.WithChaos(1, session.ChaosRule{Every: 1, Reply: scenario.Respond(func(*scenario.Request) scenario.Reply { return fail })}), "chaos.rules[0].reply"},
		"invalid reply":    {session.WithChaos(1, session.ChaosRule{Every: 1, Reply: scenario.Reply{Text: "a", Refusal: "b"}}), "chaos.rules[0].reply.kind"},
		"unknown endpoint": {session.WithChaos(1, session.ChaosRule{Every: 1, Endpoints: []scenario.Endpoint{"chat"}, Reply: fail}), "chaos.rules[0].endpoints[0]"},
		"embeddings":       {session.WithChaos(1, session.ChaosRule{Every: 1, Endpoints: []scenario.Endpoint{scenario.EndpointEmbeddings}, Reply: fail}), "chaos.rules[0].endpoints[0]"},
		"duplicate name":   {session.WithChaos(1, session.ChaosRule{Name: "a", Every: 1, Reply: fail}, session.ChaosRule{Name: "a", Every: 2, Reply: fail}), "chaos.rules[1].name"},
		"no reply":         {session.WithChaos(1, session.ChaosRule{Every: 1}), "chaos.rules[0].reply"},
		"empty rule model": {session.WithChaos(1, session.ChaosRule{Every: 1, Models: []string{""}, Reply: fail}), "chaos.rules[0].models[0]"},
	} {
		t.Run(name, func(t *testing.T) {
			_, err := session.NewConfig(tc.opt)
			var ce *session.ConfigError
			require.True(t, errors.As(err, &ce), "got %v", err)
			assert.Equal(t, tc.field, ce.Field, ce.Reason)
		})
	}
}
