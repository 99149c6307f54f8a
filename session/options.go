package session

import (
	"time"

	"github.com/llmtestserver/llmtestserver/scenario"
)

// Option changes a Config. Options apply in order over the server's startup
// configuration.
type Option interface {
	apply(*Config)
}

type optionFunc func(*Config)

func (f optionFunc) apply(c *Config) { f(c) }

// RequireAPIKey makes the session require key as the provider API key, as
// each provider's SDK presents it: OpenAI's "Authorization: Bearer <key>",
// Anthropic's x-api-key (see Config.APIKey).
func RequireAPIKey(key string) Option {
	return optionFunc(func(c *Config) { c.APIKey, c.BearerToken = key, "" })
}

// RequireBearerToken is the former name of RequireAPIKey.
//
// Deprecated: use RequireAPIKey, which does the same for every provider.
func RequireBearerToken(token string) Option { return RequireAPIKey(token) }

// OnlyModels restricts the session to these models: every other model,
// catalog models included, gets 404 model_not_found, whose message lists
// what the session serves. It is an allow-list, so name every model the
// code under test uses, embedding models too. Several calls add up; a
// session that names no model serves the whole built-in catalog.
func OnlyModels(ids ...string) Option {
	return optionFunc(func(c *Config) { c.Models = append(c.Models, ids...) })
}

// WithScenario adds a scenario after those already configured. The session
// keeps a deep copy, so one scenario value may configure many sessions at
// once.
func WithScenario(s scenario.Scenario) Option {
	return optionFunc(func(c *Config) { c.Scenarios = append(c.Scenarios, s.Clone()) })
}

// WithJournal bounds the request journal to capacity entries and maxBytes
// bytes. The journal's other settings keep their values.
func WithJournal(capacity int, maxBytes int64) Option {
	return optionFunc(func(c *Config) { c.Journal.Capacity, c.Journal.MaxBytes = capacity, maxBytes })
}

// WithJournalBody keeps the first maxBytes bytes of each request's raw body
// in its journal entry (JournalConfig.MaxBodyBytes): 0 keeps none, at most
// 1 MiB; the default keeps 16 KiB.
func WithJournalBody(maxBytes int64) Option {
	return optionFunc(func(c *Config) { c.Journal.MaxBodyBytes = maxBytes })
}

// RedactHeaders hides the values of these request headers
// (case-insensitive) in the journal, as it always hides credentials
// (JournalConfig.RedactHeaders). Several calls add up.
func RedactHeaders(names ...string) Option {
	return optionFunc(func(c *Config) { c.Journal.RedactHeaders = append(c.Journal.RedactHeaders, names...) })
}

// WithHistory bounds the stored responses (and chat completions stored
// with store:true) to capacity.
func WithHistory(capacity int) Option {
	return optionFunc(func(c *Config) { c.History.Capacity = capacity })
}

// WithHistoryMaxBytes bounds the bytes the stored responses and chat
// completions keep (see HistoryConfig.MaxBytes).
func WithHistoryMaxBytes(maxBytes int64) Option {
	return optionFunc(func(c *Config) { c.History.MaxBytes = maxBytes })
}

// WithJobs bounds the jobs other than videos (background responses,
// batches, files) to capacity, in at most maxBytes.
func WithJobs(capacity int, maxBytes int64) Option {
	return optionFunc(func(c *Config) { c.Jobs = JobsConfig{Capacity: capacity, MaxBytes: maxBytes} })
}

// WithVideos bounds the video jobs to capacity.
func WithVideos(capacity int) Option {
	return optionFunc(func(c *Config) { c.Videos.Capacity = capacity })
}

// WithStream shapes streamed answers: tokensPerChunk tokens per content
// chunk, the first chunk held back for ttft, and the rest paced at
// tokensPerSecond (0: at once).
func WithStream(tokensPerChunk int, ttft time.Duration, tokensPerSecond float64) Option {
	return optionFunc(func(c *Config) {
		c.Stream = StreamConfig{TokensPerChunk: tokensPerChunk, TTFTMS: int(ttft.Milliseconds()), TokensPerSecond: tokensPerSecond}
	})
}

// WithRateLimits limits every model of the session to
// requestsPerMinute requests and tokensPerMinute tokens a minute (0: no
// limit), keeping any per-model limits; see RateLimitsConfig.
func WithRateLimits(requestsPerMinute, tokensPerMinute int) Option {
	return optionFunc(func(c *Config) {
		l := c.RateLimits.clone()
		if l == nil {
			l = &RateLimitsConfig{}
		}
		l.RequestsPerMinute, l.TokensPerMinute = requestsPerMinute, tokensPerMinute
		c.RateLimits = l
	})
}

// WithModelRateLimits gives model limits of its own, which replace those of
// WithRateLimits for it (0: no limit); see RateLimitsConfig.
func WithModelRateLimits(model string, requestsPerMinute, tokensPerMinute int) Option {
	return optionFunc(func(c *Config) {
		l := c.RateLimits.clone()
		if l == nil {
			l = &RateLimitsConfig{}
		}
		if l.Models == nil {
			l.Models = make(map[string]ModelRateLimits)
		}
		l.Models[model] = ModelRateLimits{RequestsPerMinute: requestsPerMinute, TokensPerMinute: tokensPerMinute}
		c.RateLimits = l
	})
}

// WithChaos sets the session's chaos rules, drawn from seed; see
// ChaosConfig. The session keeps a deep copy of the rules.
func WithChaos(seed uint64, rules ...ChaosRule) Option {
	return optionFunc(func(c *Config) { c.Chaos = (&ChaosConfig{Seed: seed, Rules: rules}).clone() })
}

// IgnoreContextWindow turns off the context-window check: requests whose
// prompt plus maximum output tokens exceed the model's window are answered
// instead of refused (see Config.IgnoreContextWindow).
func IgnoreContextWindow() Option {
	return optionFunc(func(c *Config) { c.IgnoreContextWindow = true })
}

// AllowUnknownParameters accepts request fields the server does not know
// instead of refusing them as the provider does (OpenAI and Anthropic, nested
// fields included), for clients newer than the server's lists of parameters
// (see Config.AllowUnknownParameters).
func AllowUnknownParameters() Option {
	return optionFunc(func(c *Config) { c.AllowUnknownParameters = true })
}

// RelaxAPIHeaders serves requests whose API headers the provider refuses:
// an Anthropic request without anthropic-version, or with an unknown
// anthropic-beta value (see Config.RelaxAPIHeaders).
func RelaxAPIHeaders() Option {
	return optionFunc(func(c *Config) { c.RelaxAPIHeaders = true })
}

// WithIdempotency bounds the answers kept for Idempotency-Key replays to
// capacity keys and maxBytes bytes (see IdempotencyConfig); capacity 0
// turns the header's effect off.
func WithIdempotency(capacity int, maxBytes int64) Option {
	return optionFunc(func(c *Config) { c.Idempotency = IdempotencyConfig{Capacity: capacity, MaxBytes: maxBytes} })
}

// WithIDSeed makes the session's generated IDs (completion, response,
// item and tool-call IDs, and the request-ID headers) reproducible from
// seed, for golden files: two sessions with one seed, or one session after
// a reset, give the same IDs to the same requests in the same order.
// Without it every session draws its own random sequence, so that tests
// sharing a server (and a database keyed by these IDs) never see one ID
// twice; a seeded session gives up that guarantee against other sessions
// with the same seed. A reconfiguration that changes the seed restarts
// the sequence, which may then repeat IDs of responses the session still
// stores: seed a session when it is created, or reset it.
func WithIDSeed(seed uint64) Option {
	return optionFunc(func(c *Config) { c.IDSeed = &seed })
}

// WithConfig replaces the whole configuration with cfg; later options apply
// over it.
func WithConfig(cfg Config) Option {
	return optionFunc(func(c *Config) { *c = cfg.clone() })
}

// build applies opts over base.
func build(base Config, opts []Option) Config {
	cfg := base.clone()
	for _, o := range opts {
		o.apply(&cfg)
	}
	cfg.normalize()
	return cfg
}

// NewConfig returns DefaultConfig with opts applied, validated.
func NewConfig(opts ...Option) (Config, error) {
	cfg := build(DefaultConfig(), opts)
	if err := cfg.Validate(); err != nil {
		return Config{}, err
	}
	return cfg, nil
}
