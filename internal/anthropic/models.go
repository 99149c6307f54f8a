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
}

func day(y int, m time.Month, d int) time.Time { return time.Date(y, m, d, 0, 0, 0, 0, time.UTC) }

// catalog is the current Claude lineup as anthropic-sdk-go v2.15.0 names it
// (model.go's constants), newest first, as the models API lists it. The
// 5-series limits are the model pages' (1M context, 128K output); Haiku
// 5.5's output limit and the release dates marked (inferred) are not
// documented where we could read them. The cache minimums follow the wire
// notes: 4096 for Opus 4.5-4.7 and Haiku 4.5, 2048 for Sonnet 4.6, 1024 for
// Sonnet 4.5 and the 5-series. Mythos models, open only through access
// programs, are left out.
var catalog = []ModelInfo{
	{ID: "claude-fable-5-2", DisplayName: "Claude Fable 5.2", Created: day(2026, 11, 5), ContextWindow: 1_000_000, MaxOutput: 128_000, MinCacheTokens: 1024}, // date inferred
	{ID: "claude-opus-5-5", DisplayName: "Claude Opus 5.5", Created: day(2026, 10, 22), ContextWindow: 1_000_000, MaxOutput: 128_000, MinCacheTokens: 1024},  // date inferred
	{ID: "claude-sonnet-5-5", DisplayName: "Claude Sonnet 5.5", Created: day(2026, 10, 22), ContextWindow: 1_000_000, MaxOutput: 128_000, MinCacheTokens: 1024},
	{ID: "claude-haiku-5-5", DisplayName: "Claude Haiku 5.5", Created: day(2026, 10, 22), ContextWindow: 1_000_000, MaxOutput: 64_000, MinCacheTokens: 1024},
	{ID: "claude-fable-5-1", DisplayName: "Claude Fable 5.1", Created: day(2026, 9, 10), ContextWindow: 1_000_000, MaxOutput: 128_000, MinCacheTokens: 1024}, // date inferred
	{ID: "claude-opus-5", DisplayName: "Claude Opus 5", Created: day(2026, 7, 24), ContextWindow: 1_000_000, MaxOutput: 128_000, MinCacheTokens: 1024},
	{ID: "claude-sonnet-5", DisplayName: "Claude Sonnet 5", Created: day(2026, 6, 30), ContextWindow: 1_000_000, MaxOutput: 128_000, MinCacheTokens: 1024},
	{ID: "claude-opus-4-8", DisplayName: "Claude Opus 4.8", Created: day(2026, 6, 2), ContextWindow: 1_000_000, MaxOutput: 128_000, MinCacheTokens: 4096}, // date inferred
	{ID: "claude-opus-4-7", DisplayName: "Claude Opus 4.7", Created: day(2026, 4, 16), ContextWindow: 1_000_000, MaxOutput: 128_000, MinCacheTokens: 4096},
	{ID: "claude-opus-4-6", DisplayName: "Claude Opus 4.6", Created: day(2026, 2, 5), ContextWindow: 1_000_000, MaxOutput: 128_000, MinCacheTokens: 4096},
	{ID: "claude-sonnet-4-6", DisplayName: "Claude Sonnet 4.6", Created: day(2026, 2, 17), ContextWindow: 1_000_000, MaxOutput: 64_000, MinCacheTokens: 2048},
	{ID: "claude-opus-4-5-20251101", Alias: "claude-opus-4-5", DisplayName: "Claude Opus 4.5", Created: day(2025, 11, 24), ContextWindow: 200_000, MaxOutput: 64_000, MinCacheTokens: 4096},
	{ID: "claude-haiku-4-5-20251001", Alias: "claude-haiku-4-5", DisplayName: "Claude Haiku 4.5", Created: day(2025, 10, 15), ContextWindow: 200_000, MaxOutput: 64_000, MinCacheTokens: 4096},
	{ID: "claude-sonnet-4-5-20250929", Alias: "claude-sonnet-4-5", DisplayName: "Claude Sonnet 4.5", Created: day(2025, 9, 29), ContextWindow: 200_000, MaxOutput: 64_000, MinCacheTokens: 1024},
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

// modelObject is one element of the models API's data.
type modelObject struct {
	Type           string `json:"type"`
	ID             string `json:"id"`
	DisplayName    string `json:"display_name"`
	CreatedAt      string `json:"created_at"`
	MaxInputTokens int    `json:"max_input_tokens,omitempty"`
	MaxTokens      int    `json:"max_tokens,omitempty"`
}

type modelList struct {
	Data    []modelObject `json:"data"`
	HasMore bool          `json:"has_more"`
	FirstID *string       `json:"first_id"`
	LastID  *string       `json:"last_id"`
}

func modelFor(id string) modelObject {
	m, ok := Lookup(id)
	if !ok {
		// An allow-listed model the catalog does not know: listed under its
		// own name, with the epoch the API uses for unknown dates.
		return modelObject{Type: "model", ID: id, DisplayName: id, CreatedAt: time.Unix(0, 0).UTC().Format(time.RFC3339)}
	}
	return modelObject{Type: "model", ID: m.ID, DisplayName: m.DisplayName, CreatedAt: m.Created.Format(time.RFC3339),
		MaxInputTokens: m.ContextWindow, MaxTokens: m.MaxOutput}
}

// ModelList is GET /v1/models over ids, in their order: like the real
// list it shows dated IDs, so an alias whose dated model is also listed is
// left out (an alias listed alone resolves to its dated model).
func ModelList(ids []string) any {
	l := modelList{Data: make([]modelObject, 0, len(ids))}
	seen := map[string]bool{}
	for _, id := range ids {
		o := modelFor(id)
		if seen[o.ID] {
			continue
		}
		seen[o.ID] = true
		l.Data = append(l.Data, o)
	}
	if n := len(l.Data); n > 0 {
		l.FirstID, l.LastID = &l.Data[0].ID, &l.Data[n-1].ID
	}
	return l
}

// ModelObject is GET /v1/models/{id}: an alias resolves to its dated model.
func ModelObject(id string) any { return modelFor(id) }
