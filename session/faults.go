package session

import (
	"fmt"
	"maps"
	"reflect"
	"slices"

	"github.com/llmtestserver/llmtestserver/internal/runtime"
	"github.com/llmtestserver/llmtestserver/scenario"
)

// RateLimitsConfig limits a session's requests and tokens a minute, per
// model: each model has buckets of its own, on the session's clock. A
// limit is a bucket that holds a minute's allowance and refills
// continuously (Anthropic documents its limiter so; OpenAI enforces its
// per-minute limits at finer grain, to the same effect), so after a burst
// that empties it, one request's share comes back every minute / limit.
//
// A request over a limit is answered 429 in the provider's envelope
// (OpenAI type "requests" or "tokens", code rate_limit_exceeded; Anthropic
// rate_limit_error) with Retry-After and retry-after-ms saying when the
// bucket holds enough for it; it takes nothing, neither from the limits
// nor from the scenarios, and is journaled. A request larger than a whole
// limit can never pass: its 429 carries x-should-retry: false. Every
// answer checked against limits carries the provider's rate-limit headers
// (OpenAI x-ratelimit-*, Anthropic anthropic-ratelimit-*). Reset refills
// every bucket.
type RateLimitsConfig struct {
	// RequestsPerMinute bounds each model's requests a minute: 0 (no
	// limit) to 1,000,000.
	RequestsPerMinute int `json:"requests_per_minute,omitempty"`
	// TokensPerMinute bounds each model's tokens a minute: 0 (no limit) to
	// 1,000,000,000. A request counts its input (its text in the model's
	// encoding) plus the most output tokens it allows (max_tokens and
	// its equivalents; 0 when it sets none), as the real limiters count.
	TokensPerMinute int `json:"tokens_per_minute,omitempty"`
	// Models holds the limits of single models, which replace the two
	// above for their model (a zero field there is no limit): at most
	// 1,024 models.
	Models map[string]ModelRateLimits `json:"models,omitempty"`
}

// ModelRateLimits are the limits of one model (see RateLimitsConfig).
type ModelRateLimits struct {
	// RequestsPerMinute bounds the model's requests a minute; 0 is no
	// limit.
	RequestsPerMinute int `json:"requests_per_minute,omitempty"`
	// TokensPerMinute bounds the model's tokens a minute; 0 is no limit.
	TokensPerMinute int `json:"tokens_per_minute,omitempty"`
}

// ChaosConfig holds a session's rules for chaos tests, such as "every 3rd
// request fails with 500" or "10% of streams fail": faults that answer some
// requests instead of their scenarios. Rules are tried in order on each
// conversational request that passed the model checks and the rate
// limits; the first that fires answers it with its reply, which takes
// nothing from any scenario, and the journal names the rule as the
// request's scenario, "chaos:<name>". A rule counts and draws only for the
// requests it is tried on (it applies to them and no earlier rule fired),
// so the same seed and the same requests in the same order give the same
// outcomes on every run. Reset starts the counters and the draws again.
type ChaosConfig struct {
	// Seed seeds the draws of the rules with a probability (a PCG
	// generator, math/rand/v2).
	Seed uint64 `json:"seed"`
	// Rules are the rules, tried in order: at most 100.
	Rules []ChaosRule `json:"rules"`
}

// ChaosRule is one chaos rule. Exactly one of Every and Probability says
// when it fires.
type ChaosRule struct {
	// Name names the rule in the journal ("chaos:<name>"); empty names it
	// "chaos:rules[i]" after its index.
	Name string `json:"name,omitempty"`
	// Every fires the rule on every Every-th request it is tried on: 1 to
	// 1,000,000.
	Every int `json:"every,omitempty"`
	// Probability fires the rule on each request it is tried on with this
	// probability: more than 0, at most 1.
	Probability float64 `json:"probability,omitempty"`
	// StreamsOnly applies the rule to streamed requests only.
	StreamsOnly bool `json:"streams_only,omitempty"`
	// Endpoints, when set, are the only endpoints the rule applies to:
	// "chat.completions", "responses", "messages", "generate_content".
	Endpoints []scenario.Endpoint `json:"endpoints,omitempty"`
	// Models, when set, are the only models the rule applies to.
	Models []string `json:"models,omitempty"`
	// Reply answers the requests the rule fires on, as a scripted reply
	// would (an error, a stream that fails, a delay ...). It must not be a
	// Go responder.
	Reply scenario.Reply `json:"reply"`
}

// Bounds of the rate-limit and chaos settings.
const (
	maxRequestsPerMinute = 1_000_000
	maxTokensPerMinute   = 1_000_000_000
	maxRateLimitModels   = 1024
	maxChaosRules        = 100
	maxChaosEvery        = 1_000_000
)

// chaosEndpoints are the endpoints chaos rules apply to: the
// conversational ones.
var chaosEndpoints = []scenario.Endpoint{scenario.EndpointChatCompletions, scenario.EndpointResponses, scenario.EndpointMessages,
	scenario.EndpointGenerateContent}

// validate reports the first field of l that cannot be applied.
func (l *RateLimitsConfig) validate() *ConfigError {
	if err := validateRates("rate_limits", l.RequestsPerMinute, l.TokensPerMinute); err != nil {
		return err
	}
	if len(l.Models) > maxRateLimitModels {
		return &ConfigError{"rate_limits.models", fmt.Sprintf("must name at most %d models", maxRateLimitModels)}
	}
	for _, m := range slices.Sorted(maps.Keys(l.Models)) {
		if m == "" {
			return &ConfigError{"rate_limits.models", "a model ID must not be empty"}
		}
		if err := validateRates("rate_limits.models["+m+"]", l.Models[m].RequestsPerMinute, l.Models[m].TokensPerMinute); err != nil {
			return err
		}
	}
	return nil
}

func validateRates(path string, rpm, tpm int) *ConfigError {
	if rpm < 0 || rpm > maxRequestsPerMinute {
		return &ConfigError{path + ".requests_per_minute", fmt.Sprintf("must be between 0 (no limit) and %d", maxRequestsPerMinute)}
	}
	if tpm < 0 || tpm > maxTokensPerMinute {
		return &ConfigError{path + ".tokens_per_minute", fmt.Sprintf("must be between 0 (no limit) and %d", maxTokensPerMinute)}
	}
	return nil
}

// validate reports the first field of c that cannot be applied.
func (c *ChaosConfig) validate() *ConfigError {
	if len(c.Rules) > maxChaosRules {
		return &ConfigError{"chaos.rules", fmt.Sprintf("must hold at most %d rules", maxChaosRules)}
	}
	for i := range c.Rules {
		r := &c.Rules[i]
		path := fmt.Sprintf("chaos.rules[%d]", i)
		switch {
		case r.Every == 0 && r.Probability == 0:
			return &ConfigError{path, "needs every or probability, to say when it fires"}
		case r.Every != 0 && r.Probability != 0:
			return &ConfigError{path, "sets both every and probability: use one"}
		case r.Every < 0 || r.Every > maxChaosEvery:
			return &ConfigError{path + ".every", fmt.Sprintf("must be between 1 and %d", maxChaosEvery)}
		case r.Every == 0 && !(r.Probability > 0 && r.Probability <= 1):
			// Written so that NaN fails too.
			return &ConfigError{path + ".probability", "must be more than 0 and at most 1"}
		case reflect.ValueOf(r.Reply).IsZero():
			return &ConfigError{path + ".reply", "must say what the rule answers with, such as an error"}
		case r.Reply.Func != nil:
			return &ConfigError{path + ".reply", "must not be a Go responder: a chaos rule answers with a fixed reply"}
		}
		if r.Name != "" {
			if j := slices.IndexFunc(c.Rules, func(o ChaosRule) bool { return o.Name == r.Name }); j != i {
				return &ConfigError{path + ".name", fmt.Sprintf("%q is also the name of chaos.rules[%d]", r.Name, j)}
			}
		}
		for j, e := range r.Endpoints {
			if !slices.Contains(chaosEndpoints, e) {
				return &ConfigError{fmt.Sprintf("%s.endpoints[%d]", path, j), fmt.Sprintf("%q is not one of %q", e, chaosEndpoints)}
			}
		}
		for j, m := range r.Models {
			if m == "" {
				return &ConfigError{fmt.Sprintf("%s.models[%d]", path, j), "must not be empty"}
			}
		}
		if err := r.Reply.Validate(); err != nil {
			return fieldError(path+".reply", err)
		}
	}
	return nil
}

// clone returns a deep copy of l.
func (l *RateLimitsConfig) clone() *RateLimitsConfig {
	if l == nil {
		return nil
	}
	c := *l
	c.Models = maps.Clone(l.Models)
	return &c
}

// clone returns a deep copy of c, replies included.
func (c *ChaosConfig) clone() *ChaosConfig {
	if c == nil {
		return nil
	}
	out := *c
	if c.Rules != nil {
		out.Rules = make([]ChaosRule, len(c.Rules))
		for i, r := range c.Rules {
			r.Endpoints, r.Models = slices.Clone(r.Endpoints), slices.Clone(r.Models)
			s := scenario.Scenario{Replies: []scenario.Reply{r.Reply}}
			r.Reply = s.Clone().Replies[0]
			out.Rules[i] = r
		}
	}
	return &out
}

// settings converts l into what the runtime needs.
func (l *RateLimitsConfig) settings() runtime.RateLimits {
	if l == nil {
		return runtime.RateLimits{}
	}
	out := runtime.RateLimits{Default: runtime.RateLimit{RequestsPerMinute: l.RequestsPerMinute, TokensPerMinute: l.TokensPerMinute}}
	if len(l.Models) > 0 {
		out.Models = make(map[string]runtime.RateLimit, len(l.Models))
		for m, v := range l.Models {
			out.Models[m] = runtime.RateLimit{RequestsPerMinute: v.RequestsPerMinute, TokensPerMinute: v.TokensPerMinute}
		}
	}
	return out
}

// settings converts c into what the runtime needs.
func (c *ChaosConfig) settings() runtime.Chaos {
	if c == nil {
		return runtime.Chaos{}
	}
	out := runtime.Chaos{Seed: c.Seed, Rules: make([]runtime.ChaosRule, len(c.Rules))}
	for i, r := range c.Rules {
		out.Rules[i] = runtime.ChaosRule{Name: r.Name, Every: r.Every, Probability: r.Probability, StreamsOnly: r.StreamsOnly,
			Endpoints: r.Endpoints, Models: r.Models, Reply: r.Reply}
	}
	return out
}

// What rate limits and chaos rules cost a runtime at most, for the
// reservation.
const (
	// rateBucketsBytes is a runtime's rate-limit buckets at their cap: per
	// model a map entry, its key and two bucket times.
	rateBucketsBytes = 1024 * 256
	// chaosRuleBytes is one rule's fixed part and its counter.
	chaosRuleBytes = 256
)

// faultsCost returns what c's rate limits and chaos rules cost a runtime
// at most: the buckets at their cap when c limits anything, and each rule
// with its reply and scopes.
func (c *Config) faultsCost() int64 {
	var n int64
	if l := c.RateLimits; l != nil {
		n += rateBucketsBytes + int64(len(l.Models))*(mapEntryBytes+64)
		for m := range l.Models {
			n += stringCost(m)
		}
	}
	if ch := c.Chaos; ch != nil {
		for i := range ch.Rules {
			r := &ch.Rules[i]
			n += chaosRuleBytes + replyCost(&r.Reply) + stringCost(r.Name)
			for _, m := range r.Models {
				n += stringCost(m) + sliceBytes
			}
			for _, e := range r.Endpoints {
				n += stringCost(string(e)) + sliceBytes
			}
		}
	}
	return n
}
