package session

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/llmtestserver/llmtestserver/internal/runtime"
	"github.com/llmtestserver/llmtestserver/scenario"
)

// Config is the whole configuration of one session: plain data, and as JSON
// exactly what POST /admin-api/sessions and PUT /admin-api/config accept.
// Options build it in Go.
type Config struct {
	// APIKey, when set, is the provider API key the session requires, as
	// each provider's SDK presents it: OpenAI's "Authorization: Bearer
	// <key>", Anthropic's x-api-key (or a bearer token, as its Go SDK may
	// send). A request without it, or with another key, is refused as the
	// provider refuses it (401). It is independent of the session key.
	APIKey string `json:"api_key,omitempty"`
	// BearerToken is the former name of APIKey, and still works: a
	// configuration that sets it has its value as APIKey, and reads back
	// with APIKey alone. Setting both to different keys is an error.
	//
	// Deprecated: use APIKey.
	BearerToken string `json:"bearer_token,omitempty"`
	// Models lists the model IDs the session serves; empty serves the
	// built-in catalog. Other models get 404 model_not_found.
	Models []string `json:"models,omitempty"`
	// Scenarios script the model's answers, tried in order.
	Scenarios []scenario.Scenario `json:"scenarios,omitempty"`
	// Journal bounds the request journal.
	Journal JournalConfig `json:"journal"`
	// History reserves room for stored responses (Responses API history).
	History HistoryConfig `json:"history"`
	// Videos bounds the session's video generation jobs (OpenAI's
	// /v1/videos).
	Videos VideosConfig `json:"videos"`
	// Jobs bounds the session's other long work: background responses
	// batches (OpenAI's, Anthropic's, Gemini's) and OpenAI's files.
	Jobs JobsConfig `json:"jobs"`
	// Stream shapes streamed answers.
	Stream StreamConfig `json:"stream"`
	// RateLimits limit the requests and tokens a minute, per model; nil
	// limits nothing.
	RateLimits *RateLimitsConfig `json:"rate_limits,omitempty"`
	// Chaos holds the session-wide fault rules for chaos tests; nil has
	// none.
	Chaos *ChaosConfig `json:"chaos,omitempty"`
	// IgnoreContextWindow turns off the check that a request's prompt plus
	// its maximum output tokens fit the model's context window, which by
	// default refuses such a request as the provider does (OpenAI's 400
	// context_length_exceeded, Anthropic's 400 invalid_request_error).
	IgnoreContextWindow bool `json:"ignore_context_window,omitempty"`
	// AllowUnknownParameters accepts request fields this server does not
	// know, for clients newer than its lists of parameters. By default such
	// a field is refused as the real API refuses it (OpenAI's 400
	// "Unrecognized request argument supplied" on Chat Completions,
	// unknown_parameter on the Responses API; Anthropic's 400 "<path>:
	// Extra inputs are not permitted", nested fields included), so that a
	// typo fails here as it would in production. Allowed, they are named
	// in the journal entry's Ignored.
	AllowUnknownParameters bool `json:"allow_unknown_parameters,omitempty"`
	// RelaxAPIHeaders serves requests whose API headers the real API
	// refuses: by default an Anthropic request without anthropic-version,
	// with a version the API does not publish, or with an anthropic-beta
	// value it does not know gets the API's 400, so that a hand-rolled
	// client fails here as it would in production. The journal records
	// the version and betas either way.
	RelaxAPIHeaders bool `json:"relax_api_headers,omitempty"`
	// Idempotency bounds the answers kept for requests that carry an
	// Idempotency-Key.
	Idempotency IdempotencyConfig `json:"idempotency"`
	// IDSeed, when set, makes the IDs the session generates (chatcmpl-,
	// resp_, msg_, call_ ... and the request-ID headers) the same on every
	// run, for golden files; nil, the default, draws them from a random
	// sequence of the session's own, unique across the sessions of a
	// server. Creating the session or a reset starts the sequence; a new
	// configuration restarts it only when it changes the seed (see
	// WithIDSeed).
	IDSeed *uint64 `json:"id_seed,omitempty"`
}

// IdempotencyConfig bounds the answers a session keeps for Idempotency-Key
// replays: a POST that carries the header and the same body as an earlier
// one with that key gets the earlier answer again, without using a reply.
// Only answers delivered whole and successfully are kept; the oldest go
// first once either bound is reached.
type IdempotencyConfig struct {
	// Capacity is the most keys kept, 0 to 100,000; 0 turns the header's
	// effect off.
	Capacity int `json:"capacity"`
	// MaxBytes is the most bytes the kept answers keep (their bodies,
	// headers and keys, and 256 bytes each), 0 to 2^30. An answer larger
	// than MaxBytes by itself is delivered but not kept.
	MaxBytes int64 `json:"max_bytes"`
}

// StreamConfig shapes streamed answers. Unpaced streams (no time to first
// token, no token rate) are written at once; paced ones are flushed event by
// event, held back with timers.
type StreamConfig struct {
	// TokensPerChunk is how many tokens each content chunk carries: 1 to
	// 4096.
	TokensPerChunk int `json:"tokens_per_chunk"`
	// TTFTMS holds the first chunk back this many milliseconds: 0 to
	// 600,000 (ten minutes).
	TTFTMS int `json:"ttft_ms,omitempty"`
	// TokensPerSecond paces the chunks after the first: 0 sends them at
	// once, otherwise 0.1 to 1,000,000.
	TokensPerSecond float64 `json:"tokens_per_second,omitempty"`
}

// JournalConfig bounds a session's request journal.
type JournalConfig struct {
	// Capacity is the most entries kept, 1 to 1,000,000; the oldest go
	// first.
	Capacity int `json:"capacity"`
	// MaxBytes is the most bytes of entries kept, 1 to 2^30.
	MaxBytes int64 `json:"max_bytes"`
	// MaxBodyBytes is how many first bytes of each request's raw body an
	// entry keeps (Entry.Body; Entry.BodyBytes has the whole length), 0
	// to 1 MiB; 0 keeps no body. The bytes count against MaxBytes like
	// the rest of the entry.
	MaxBodyBytes int64 `json:"max_body_bytes"`
	// RedactHeaders names request headers, case-insensitively, whose
	// values the journal shows as journal.Redacted, beyond the
	// credentials it always hides (Authorization, Api-Key, X-Api-Key,
	// X-Goog-Api-Key, Proxy-Authorization, Cookie and the session key).
	RedactHeaders []string `json:"redact_headers,omitempty"`
}

// HistoryConfig bounds a session's stored responses (Responses API
// responses kept for retrieval and previous_response_id). The oldest are
// evicted until both bounds hold. Chat completions stored with store:true
// share both bounds; each counts its request's messages, its metadata and
// its answer.
type HistoryConfig struct {
	// Capacity is the most responses kept, 0 to 1,000,000; 0 keeps none.
	Capacity int `json:"capacity"`
	// MaxBytes is the most bytes the kept responses keep, 1 to 1 GiB: each
	// response counts its input items, its output, the settings its object
	// echoes, the summary of the turns before it and a fixed overhead of
	// less than 2 KiB. A response larger than MaxBytes by itself is
	// answered but not kept, as with store:false: retrieving or continuing
	// it is then 404 / 400 previous_response_not_found.
	MaxBytes int64 `json:"max_bytes"`
}

// VideosConfig bounds a session's video jobs: its runtime keeps at most
// Capacity of them, in at most Capacity × 128 KiB, the room the
// reservation prices (a video job, its request and its tiny MP4,
// thumbnail and spritesheet, takes less; see the tests that measure it).
// A video past the capacity is refused with a 429, and videos that are gone
// (a day after they end by default) make room.
type VideosConfig struct {
	// Capacity is the most video jobs kept, 0 to 10,000.
	Capacity int `json:"capacity"`
}

// JobsConfig bounds a session's jobs other than videos (background
// responses, batches, files): its runtime keeps at most Capacity of them
// in at most MaxBytes, what their requests, their lines' answers and
// their files weigh. The reservation prices MaxBytes plus 1 KiB each.
type JobsConfig struct {
	// Capacity is the most jobs and files kept, 0 to 100,000.
	Capacity int `json:"capacity"`
	// MaxBytes is the most bytes they keep, 0 to 1 GiB.
	MaxBytes int64 `json:"max_bytes"`
}

// DefaultConfig returns the configuration a server starts with unless told
// otherwise. Its reservation is at most 16 MiB, so the default budget of
// 512 MiB admits the default 32 sessions.
func DefaultConfig() Config {
	return Config{
		Journal: JournalConfig{Capacity: 1000, MaxBytes: 8 << 20, MaxBodyBytes: defaultJournalBodyBytes},
		History: HistoryConfig{Capacity: 1000, MaxBytes: 2 << 20},
		Stream:  StreamConfig{TokensPerChunk: 1},
		// A few videos and jobs at once, as a test polls them; a batch of
		// a thousand lines needs more (see JobsConfig).
		Videos: VideosConfig{Capacity: 4},
		Jobs:   JobsConfig{Capacity: 32, MaxBytes: 1 << 20},
		// Small enough that the default reservation stays within 16 MiB.
		Idempotency: IdempotencyConfig{Capacity: 256, MaxBytes: 128 << 10},
	}
}

// What each configured capacity costs in the admission budget. These are
// upper bounds of what the server keeps per unit, not heap measurements.
const (
	journalEntryBytes   = 1 << 10   // bookkeeping per journal entry, beyond its bytes
	historyEntryBytes   = 256       // one stored response's index entry, beyond the bytes its max_bytes counts
	videoJobBytes       = 128 << 10 // one video job, its small MP4 included
	jobEntryBytes       = 1 << 10   // bookkeeping per job, beyond the bytes its max_bytes counts
	fixedRetentionBytes = 5 << 19   // conversation identities and the prompt cache at their caps, counters
)

// Reservation returns the bytes c reserves in the server's admission budget:
// journal bytes and entries, history bytes and entries, video capacity,
// idempotency keys and bytes, a fixed retention, what keeping its
// scenarios costs (see configurationCost), and its rate-limit buckets and
// chaos rules (see faultsCost):
//
//	journal.max_bytes + journal.capacity × 1 KiB
//	+ history.max_bytes + history.capacity × 256 B
//	+ videos.capacity × 128 KiB
//	+ jobs.max_bytes + jobs.capacity × 1 KiB
//	+ idempotency.max_bytes + idempotency.capacity × 256 B
//	+ 2.5 MiB + configurationCost + faultsCost
//
// It is a pure function of c.
func (c *Config) Reservation() int64 {
	return c.Journal.MaxBytes +
		int64(c.Journal.Capacity)*journalEntryBytes +
		c.History.MaxBytes + int64(c.History.Capacity)*historyEntryBytes +
		int64(c.Videos.Capacity)*videoJobBytes +
		c.Jobs.MaxBytes + int64(c.Jobs.Capacity)*jobEntryBytes +
		c.idempotencyCost() +
		fixedRetentionBytes +
		c.configurationCost() + c.faultsCost()
}

// Limits of single configuration fields, so that one reservation cannot
// overflow the arithmetic of the budget.
const (
	maxJournalCapacity = 1_000_000
	maxJournalBytes    = 1 << 30
	maxHistoryCapacity = 1_000_000
	maxHistoryBytes    = 1 << 30
	maxVideosCapacity  = 10_000
	maxJobsCapacity    = 100_000
	maxJobsBytes       = 1 << 30
	maxIdempotencyKeys = 100_000
	maxIdempotentBytes = 1 << 30
	maxTokensPerChunk  = 4096
	maxTTFTMS          = 10 * 60 * 1000
	// Paced streams run at 0.1 to a million tokens a second: slower
	// would hold a chunk back for hours, faster is no pacing at all.
	minTokensPerSecond = 0.1
	maxTokensPerSecond = 1_000_000
)

// ConfigError reports a configuration field that cannot be applied.
type ConfigError struct {
	// Field is the JSON path of the field, such as "journal.capacity".
	Field string
	// Reason says what is wrong with it.
	Reason string
}

// Error implements error.
func (e *ConfigError) Error() string {
	return "session: invalid configuration: " + e.describe()
}

// describe names the field and the reason.
func (e *ConfigError) describe() string {
	if e.Field == "" {
		return e.Reason
	}
	return e.Field + ": " + e.Reason
}

// Is makes every ConfigError match ErrInvalidConfig.
func (e *ConfigError) Is(target error) bool { return target == ErrInvalidConfig }

// Validate reports the first field of c that cannot be applied, as a
// *ConfigError.
func (c *Config) Validate() error {
	switch {
	case c.BearerToken != "" && c.APIKey != "" && c.BearerToken != c.APIKey:
		return errKeyNames()
	case c.Journal.Capacity < 1 || c.Journal.Capacity > maxJournalCapacity:
		return &ConfigError{"journal.capacity", fmt.Sprintf("must be between 1 and %d", maxJournalCapacity)}
	case c.Journal.MaxBytes < 1 || c.Journal.MaxBytes > maxJournalBytes:
		return &ConfigError{"journal.max_bytes", fmt.Sprintf("must be between 1 and %d", maxJournalBytes)}
	case c.Journal.MaxBodyBytes < 0 || c.Journal.MaxBodyBytes > maxJournalBodyBytes:
		return &ConfigError{"journal.max_body_bytes", fmt.Sprintf("must be between 0 and %d", maxJournalBodyBytes)}
	case c.History.Capacity < 0 || c.History.Capacity > maxHistoryCapacity:
		return &ConfigError{"history.capacity", fmt.Sprintf("must be between 0 and %d", maxHistoryCapacity)}
	case c.History.MaxBytes < 1 || c.History.MaxBytes > maxHistoryBytes:
		return &ConfigError{"history.max_bytes", fmt.Sprintf("must be between 1 and %d", maxHistoryBytes)}
	case c.Videos.Capacity < 0 || c.Videos.Capacity > maxVideosCapacity:
		return &ConfigError{"videos.capacity", fmt.Sprintf("must be between 0 and %d", maxVideosCapacity)}
	case c.Jobs.Capacity < 0 || c.Jobs.Capacity > maxJobsCapacity:
		return &ConfigError{"jobs.capacity", fmt.Sprintf("must be between 0 and %d", maxJobsCapacity)}
	case c.Jobs.MaxBytes < 0 || c.Jobs.MaxBytes > maxJobsBytes:
		return &ConfigError{"jobs.max_bytes", fmt.Sprintf("must be between 0 and %d", maxJobsBytes)}
	case c.Idempotency.Capacity < 0 || c.Idempotency.Capacity > maxIdempotencyKeys:
		return &ConfigError{"idempotency.capacity", fmt.Sprintf("must be between 0 and %d", maxIdempotencyKeys)}
	case c.Idempotency.MaxBytes < 0 || c.Idempotency.MaxBytes > maxIdempotentBytes:
		return &ConfigError{"idempotency.max_bytes", fmt.Sprintf("must be between 0 and %d", maxIdempotentBytes)}
	case c.Stream.TokensPerChunk < 1 || c.Stream.TokensPerChunk > maxTokensPerChunk:
		return &ConfigError{"stream.tokens_per_chunk", fmt.Sprintf("must be between 1 and %d", maxTokensPerChunk)}
	case c.Stream.TTFTMS < 0 || c.Stream.TTFTMS > maxTTFTMS:
		return &ConfigError{"stream.ttft_ms", fmt.Sprintf("must be between 0 and %d", maxTTFTMS)}
	case c.Stream.TokensPerSecond != 0 && !(c.Stream.TokensPerSecond >= minTokensPerSecond && c.Stream.TokensPerSecond <= maxTokensPerSecond):
		// Written so that NaN fails too.
		return &ConfigError{"stream.tokens_per_second", fmt.Sprintf("must be 0 (no pacing) or between %g and %d", minTokensPerSecond, maxTokensPerSecond)}
	}
	if c.RateLimits != nil {
		if err := c.RateLimits.validate(); err != nil {
			return err
		}
	}
	if c.Chaos != nil {
		if err := c.Chaos.validate(); err != nil {
			return err
		}
	}
	if err := c.Journal.validateRedactHeaders(); err != nil {
		return err
	}
	for i, m := range c.Models {
		if m == "" {
			return &ConfigError{fmt.Sprintf("models[%d]", i), "must not be empty"}
		}
		if slices.Index(c.Models, m) != i {
			return &ConfigError{fmt.Sprintf("models[%d]", i), fmt.Sprintf("%q is listed twice", m)}
		}
	}
	for i := range c.Scenarios {
		s := &c.Scenarios[i]
		if err := s.Validate(); err != nil {
			return fieldError(fmt.Sprintf("scenarios[%d]", i), err)
		}
		if j := slices.IndexFunc(c.Scenarios, func(o scenario.Scenario) bool { return o.Name == s.Name }); j != i {
			return &ConfigError{fmt.Sprintf("scenarios[%d].name", i), fmt.Sprintf("%q is also the name of scenarios[%d]", s.Name, j)}
		}
	}
	return nil
}

// errKeyNames refuses a configuration whose api_key and bearer_token, its
// former name, set two different keys.
func errKeyNames() *ConfigError {
	return &ConfigError{"bearer_token", "is the former name of api_key, which sets another key: set api_key alone"}
}

// normalize moves the deprecated BearerToken to APIKey, unless the two
// disagree, which Validate then refuses.
func (c *Config) normalize() {
	if c.BearerToken != "" && (c.APIKey == "" || c.APIKey == c.BearerToken) {
		c.APIKey, c.BearerToken = c.BearerToken, ""
	}
}

// apiKey is the provider key the configuration requires, under either
// name.
func (c *Config) apiKey() string {
	if c.APIKey != "" {
		return c.APIKey
	}
	return c.BearerToken
}

// fieldError turns a validation error of a part of the configuration at
// path, which says "field: reason", into a ConfigError naming the whole
// path of the field.
func fieldError(path string, err error) *ConfigError {
	field, reason, ok := strings.Cut(err.Error(), ": ")
	if !ok || field == "" || strings.ContainsAny(field, " \t") {
		return &ConfigError{path, err.Error()}
	}
	return &ConfigError{path + "." + field, reason}
}

// ParseConfig reads a JSON configuration document over base: fields the
// document sets replace those of base, the others keep base's values. Unknown
// fields are refused, so a misspelt setting is an error rather than ignored.
// The result is validated.
func ParseConfig(data []byte, base Config) (Config, error) {
	cfg := base.clone()
	if len(bytes.TrimSpace(data)) > 0 {
		dec := json.NewDecoder(bytes.NewReader(data))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&cfg); err != nil {
			return Config{}, jsonConfigError(err)
		}
		if _, err := dec.Token(); !errors.Is(err, io.EOF) {
			return Config{}, &ConfigError{Reason: "trailing data after the JSON document"}
		}
		if err := keyNames(data, &cfg); err != nil {
			return Config{}, err
		}
	}
	cfg.normalize()
	if err := cfg.Validate(); err != nil {
		return Config{}, err
	}
	return cfg, nil
}

// keyNames settles which of api_key and bearer_token, its former name, a
// configuration document sets over its base: the one it sets wins over
// the base's key, and a document that sets both to different keys is
// refused.
func keyNames(data []byte, cfg *Config) error {
	var set struct {
		APIKey      *string `json:"api_key"`
		BearerToken *string `json:"bearer_token"`
	}
	if json.Unmarshal(data, &set) != nil {
		return nil // the document decoded once already; nothing to settle
	}
	switch {
	case set.APIKey != nil && set.BearerToken != nil && *set.APIKey != *set.BearerToken:
		return errKeyNames()
	case set.BearerToken != nil && set.APIKey == nil:
		cfg.APIKey, cfg.BearerToken = *set.BearerToken, ""
	case set.APIKey != nil:
		cfg.BearerToken = ""
	}
	return nil
}

// jsonConfigError turns a decoding error into a ConfigError that names the
// field when the decoder says which.
func jsonConfigError(err error) *ConfigError {
	var typeErr *json.UnmarshalTypeError
	if errors.As(err, &typeErr) && typeErr.Field != "" {
		return &ConfigError{typeErr.Field, fmt.Sprintf("expected %s, got JSON %s", typeErr.Type, typeErr.Value)}
	}
	msg := strings.TrimPrefix(err.Error(), "json: ")
	if field, ok := strings.CutPrefix(msg, "unknown field "); ok {
		return &ConfigError{strings.Trim(field, `"`), "unknown field"}
	}
	return &ConfigError{Reason: "not a valid JSON document: " + msg}
}

// clone returns a deep copy of c, so that sessions built from one template
// share nothing that validation writes (the compiled patterns of matches
// nested in all, any and not) or that a caller could change: every scenario
// is copied with its whole match tree and its replies.
func (c Config) clone() Config {
	c.Models = slices.Clone(c.Models)
	c.Journal.RedactHeaders = slices.Clone(c.Journal.RedactHeaders)
	c.RateLimits, c.Chaos = c.RateLimits.clone(), c.Chaos.clone()
	if c.IDSeed != nil {
		seed := *c.IDSeed
		c.IDSeed = &seed
	}
	if c.Scenarios != nil {
		scenarios := make([]scenario.Scenario, len(c.Scenarios))
		for i := range c.Scenarios {
			scenarios[i] = c.Scenarios[i].Clone()
		}
		c.Scenarios = scenarios
	}
	return c
}

// settings converts c into what the runtime needs.
func (c *Config) settings() runtime.Settings {
	return runtime.Settings{
		APIKey:          c.apiKey(),
		Models:          c.Models,
		Scenarios:       c.Scenarios,
		JournalCapacity: c.Journal.Capacity,
		JournalMaxBytes: c.Journal.MaxBytes,

		JournalBodyBytes:     c.Journal.MaxBodyBytes,
		JournalRedactHeaders: slices.Clone(c.Journal.RedactHeaders), // the runtime keeps it
		HistoryCapacity:      c.History.Capacity,
		HistoryMaxBytes:      c.History.MaxBytes,
		// The reservation prices each video job at videoJobBytes; the
		// runtime holds its jobs to that.
		VideoCapacity: c.Videos.Capacity,
		VideoMaxBytes: int64(c.Videos.Capacity) * videoJobBytes,
		JobCapacity:   c.Jobs.Capacity,
		JobMaxBytes:   c.Jobs.MaxBytes,

		IgnoreContextWindow:    c.IgnoreContextWindow,
		AllowUnknownParameters: c.AllowUnknownParameters,
		RelaxAPIHeaders:        c.RelaxAPIHeaders,
		IdempotencyCapacity:    c.Idempotency.Capacity,
		IdempotencyMaxBytes:    c.Idempotency.MaxBytes,
		Stream: runtime.StreamSettings{
			TokensPerChunk:  c.Stream.TokensPerChunk,
			TTFT:            time.Duration(c.Stream.TTFTMS) * time.Millisecond,
			TokensPerSecond: c.Stream.TokensPerSecond,
		},
		RateLimits: c.RateLimits.settings(),
		Chaos:      c.Chaos.settings(),
		IDSeed:     c.clone().IDSeed, // a copy: the runtime keeps it
	}
}

// withoutScenarios returns c without its scenarios, which a runtime holds.
func (c Config) withoutScenarios() Config {
	c.Scenarios = nil
	return c
}

// isZero reports whether c is the zero Config, which no valid configuration
// is (the journal needs a capacity).
func (c *Config) isZero() bool {
	return c.APIKey == "" && c.BearerToken == "" && c.Models == nil && c.Scenarios == nil && c.Journal.isZero() &&
		c.History == HistoryConfig{} && c.Videos == VideosConfig{} && c.Jobs == JobsConfig{} && c.Stream == StreamConfig{} &&
		c.RateLimits == nil && c.Chaos == nil &&
		!c.IgnoreContextWindow && !c.AllowUnknownParameters && !c.RelaxAPIHeaders && c.Idempotency == IdempotencyConfig{} && c.IDSeed == nil
}
