package anthropic

import "time"

// ModelInfo describes one Claude model: what the models API lists, the
// output limit max_tokens is checked against, and the shortest prefix the
// prompt cache stores.
type ModelInfo struct {
	ID, DisplayName string
	// Created is the model's release date.
	Created time.Time
	// ContextWindow is max_input_tokens, MaxOutput the largest max_tokens.
	// A request whose prompt plus max_tokens pass ContextWindow is refused
	// (PromptTooLong), unless the session ignores context windows.
	ContextWindow, MaxOutput int
	// MinCacheTokens is the shortest prefix a breakpoint caches; below it
	// the breakpoint is ignored without an error.
	MinCacheTokens int
	// Alias is the undated ID that resolves to this one, if any.
	Alias string
	// Line is the model line (haiku, sonnet, opus, fable, mythos).
	Line string
	// Deprecated and Retires are when the model was deprecated and when it
	// retires (zero: not scheduled), from the SDK's "Deprecated: Will reach
	// end-of-life on ..." notes. Past Retires on the session's clock the
	// model answers 404 as an unknown one and leaves the models list
	// unless retired models are asked for.
	Deprecated, Retires time.Time
	// Generation says which thinking and prefill rules apply (see
	// model_rules.go).
	Generation generation
}

func day(y int, m time.Month, d int) time.Time { return time.Date(y, m, d, 0, 0, 0, 0, time.UTC) }

// catalog is the Claude lineup as anthropic-sdk-go v2.17.0 names it
// (message.go's Model constants, which a compat test checks against this
// list), newest first as the models API lists it, plus the retired models
// the SDK no longer names. The 5-series limits are the model pages' (1M
// context, 128K output); Haiku 5.5's output limit, the Mythos limits and
// the release dates marked (inferred) are not documented where we could
// read them. The cache minimums follow the wire notes: 4096 for Opus
// 4.5-4.7 and Haiku 4.5, 2048 for Sonnet 4.6, 1024 for Sonnet 4.5 and the
// 5-series. Retirement dates are the SDK's deprecation notes (v2.15.0 for
// Sonnet 4.5); the deprecation dates, which the SDK does not give, are
// inferred as the announcement of a successor.
var catalog = []ModelInfo{
	{ID: "claude-fable-5-2", DisplayName: "Claude Fable 5.2", Created: day(2026, 11, 5), ContextWindow: 1_000_000, MaxOutput: 128_000, MinCacheTokens: 1024, Line: "fable", Generation: gen5},          // date inferred
	{ID: "claude-mythos-5-2", DisplayName: "Claude Mythos 5.2", Created: day(2026, 11, 5), ContextWindow: 1_000_000, MaxOutput: 128_000, MinCacheTokens: 1024, Line: "mythos", Generation: gen5},       // date and limits inferred
	{ID: "claude-opus-5-5", DisplayName: "Claude Opus 5.5", Created: day(2026, 10, 22), ContextWindow: 1_000_000, MaxOutput: 128_000, MinCacheTokens: 1024, Line: "opus", Generation: genAdaptiveOnly}, // date inferred
	{ID: "claude-sonnet-5-5", DisplayName: "Claude Sonnet 5.5", Created: day(2026, 10, 22), ContextWindow: 1_000_000, MaxOutput: 128_000, MinCacheTokens: 1024, Line: "sonnet", Generation: gen5},
	{ID: "claude-haiku-5-5", DisplayName: "Claude Haiku 5.5", Created: day(2026, 10, 22), ContextWindow: 1_000_000, MaxOutput: 64_000, MinCacheTokens: 1024, Line: "haiku", Generation: gen5},
	{ID: "claude-fable-5-1", DisplayName: "Claude Fable 5.1", Created: day(2026, 9, 10), ContextWindow: 1_000_000, MaxOutput: 128_000, MinCacheTokens: 1024, Line: "fable", Generation: gen5},    // date inferred
	{ID: "claude-mythos-5-1", DisplayName: "Claude Mythos 5.1", Created: day(2026, 9, 10), ContextWindow: 1_000_000, MaxOutput: 128_000, MinCacheTokens: 1024, Line: "mythos", Generation: gen5}, // date and limits inferred
	{ID: "claude-fable-5", DisplayName: "Claude Fable 5", Created: day(2026, 8, 6), ContextWindow: 1_000_000, MaxOutput: 128_000, MinCacheTokens: 1024, Line: "fable", Generation: gen5},         // date inferred
	{ID: "claude-mythos-5", DisplayName: "Claude Mythos 5", Created: day(2026, 7, 24), ContextWindow: 1_000_000, MaxOutput: 128_000, MinCacheTokens: 1024, Line: "mythos", Generation: gen5},     // date and limits inferred
	{ID: "claude-opus-5", DisplayName: "Claude Opus 5", Created: day(2026, 7, 24), ContextWindow: 1_000_000, MaxOutput: 128_000, MinCacheTokens: 1024, Line: "opus", Generation: genAdaptiveOnly},
	{ID: "claude-sonnet-5", DisplayName: "Claude Sonnet 5", Created: day(2026, 6, 30), ContextWindow: 1_000_000, MaxOutput: 128_000, MinCacheTokens: 1024, Line: "sonnet", Generation: gen5},
	{ID: "claude-opus-4-8", DisplayName: "Claude Opus 4.8", Created: day(2026, 6, 2), ContextWindow: 1_000_000, MaxOutput: 128_000, MinCacheTokens: 4096, Line: "opus", Generation: genAdaptiveOnly}, // date inferred
	{ID: "claude-opus-4-7", DisplayName: "Claude Opus 4.7", Created: day(2026, 4, 16), ContextWindow: 1_000_000, MaxOutput: 128_000, MinCacheTokens: 4096, Line: "opus", Generation: genAdaptiveOnly},
	{ID: "claude-mythos-preview", DisplayName: "Claude Mythos Preview", Created: day(2026, 4, 7), ContextWindow: 1_000_000, MaxOutput: 128_000, MinCacheTokens: 4096, Line: "mythos", Generation: gen5, // date and limits inferred
		Deprecated: day(2026, 5, 29), Retires: day(2026, 6, 30)}, // the SDK's end of life; deprecated a month before (inferred)
	{ID: "claude-opus-4-6", DisplayName: "Claude Opus 4.6", Created: day(2026, 2, 5), ContextWindow: 1_000_000, MaxOutput: 128_000, MinCacheTokens: 4096, Line: "opus", Generation: gen46},
	{ID: "claude-sonnet-4-6", DisplayName: "Claude Sonnet 4.6", Created: day(2026, 2, 17), ContextWindow: 1_000_000, MaxOutput: 64_000, MinCacheTokens: 2048, Line: "sonnet", Generation: gen46},
	{ID: "claude-opus-4-5-20251101", Alias: "claude-opus-4-5", DisplayName: "Claude Opus 4.5", Created: day(2025, 11, 24), ContextWindow: 200_000, MaxOutput: 64_000, MinCacheTokens: 4096, Line: "opus", Generation: gen45,
		Deprecated: day(2026, 10, 22), Retires: day(2027, 1, 22)}, // deprecated at Opus 5.5's release (inferred)
	{ID: "claude-haiku-4-5-20251001", Alias: "claude-haiku-4-5", DisplayName: "Claude Haiku 4.5", Created: day(2025, 10, 15), ContextWindow: 200_000, MaxOutput: 64_000, MinCacheTokens: 4096, Line: "haiku", Generation: gen45},
	{ID: "claude-sonnet-4-5-20250929", Alias: "claude-sonnet-4-5", DisplayName: "Claude Sonnet 4.5", Created: day(2025, 9, 29), ContextWindow: 200_000, MaxOutput: 64_000, MinCacheTokens: 1024, Line: "sonnet", Generation: gen45,
		Deprecated: day(2026, 6, 30), Retires: day(2026, 11, 30)}, // deprecated at Sonnet 5's release (inferred)
}

// Lookup returns the model an ID or alias names; for an alias, the dated
// model it resolves to.
func Lookup(id string) (ModelInfo, bool) {
	for _, m := range catalog {
		if m.ID == id || m.Alias == id {
			return m, true
		}
	}
	return ModelInfo{}, false
}

// CatalogIDs lists every ID the catalog serves, newest first: each model's
// ID, and after a dated one its alias, so that requests may name either.
func CatalogIDs() []string {
	ids := make([]string, 0, len(catalog)+4)
	for _, m := range catalog {
		ids = append(ids, m.ID)
		if m.Alias != "" {
			ids = append(ids, m.Alias)
		}
	}
	return ids
}
