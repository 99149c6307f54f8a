package scenario

import (
	"encoding/json"
	"errors"
	"fmt"
)

// Usage is a token-count override in the journal's neutral words: it
// replaces every count the server would compute, so counts left at zero
// are reported as zero, and each codec names the counts its way. Each
// count is 0 to MaxUsageTokens.
//
// JSON still takes the names of the first version, which spoke OpenAI:
// prompt_tokens for input_tokens, completion_tokens for output_tokens and
// cached_tokens for cache_read_tokens. A usage that sets a count under
// both names is refused; encoding writes the neutral names alone.
type Usage struct {
	// Input counts every prompt token, those read from and written to the
	// prompt cache included: OpenAI's prompt_tokens; Anthropic's
	// input_tokens + cache_read_input_tokens + cache_creation_input_tokens.
	Input int `json:"input_tokens"`
	// CacheRead is the part of Input read from the prompt cache (OpenAI's
	// cached_tokens, Anthropic's cache_read_input_tokens).
	CacheRead int `json:"cache_read_tokens,omitempty"`
	// CacheWrite is the part of Input written to the prompt cache
	// (Anthropic's cache_creation_input_tokens, with the five-minute TTL;
	// OpenAI reports no writes). CacheRead and CacheWrite together are at
	// most Input.
	CacheWrite int `json:"cache_write_tokens,omitempty"`
	// Output counts the tokens of the answer, reasoning included (OpenAI's
	// completion_tokens, Anthropic's output_tokens).
	Output int `json:"output_tokens"`
	// Reasoning is the part of Output the model spent reasoning (OpenAI's
	// reasoning_tokens): at most Output.
	Reasoning int `json:"reasoning_tokens,omitempty"`
}

// usageJSON is Usage on the wire, under either name of each count.
type usageJSON struct {
	Input      *int `json:"input_tokens"`
	CacheRead  *int `json:"cache_read_tokens"`
	CacheWrite *int `json:"cache_write_tokens"`
	Output     *int `json:"output_tokens"`
	Reasoning  *int `json:"reasoning_tokens"`

	// The former names.
	PromptTokens     *int `json:"prompt_tokens"`
	CompletionTokens *int `json:"completion_tokens"`
	CachedTokens     *int `json:"cached_tokens"`
}

// UnmarshalJSON takes the neutral names and the former ones, and refuses
// unknown fields and a count set under both names.
func (u *Usage) UnmarshalJSON(data []byte) error {
	var w usageJSON
	if err := decodeStrict(data, &w); err != nil {
		return err
	}
	var out Usage
	for _, f := range []struct {
		to          *int
		name, was   string
		value, prev *int
	}{
		{&out.Input, "input_tokens", "prompt_tokens", w.Input, w.PromptTokens},
		{&out.Output, "output_tokens", "completion_tokens", w.Output, w.CompletionTokens},
		{&out.CacheRead, "cache_read_tokens", "cached_tokens", w.CacheRead, w.CachedTokens},
		{&out.CacheWrite, "cache_write_tokens", "", w.CacheWrite, nil},
		{&out.Reasoning, "reasoning_tokens", "", w.Reasoning, nil},
	} {
		switch {
		case f.value != nil && f.prev != nil:
			return fmt.Errorf("usage.%s: is the former name of usage.%s; set one of them", f.was, f.name)
		case f.value != nil:
			*f.to = *f.value
		case f.prev != nil:
			*f.to = *f.prev
		}
	}
	*u = out
	return nil
}

// validate checks the counts' ranges and that the parts fit their wholes.
func (u *Usage) validate() error {
	for _, c := range []struct {
		name string
		n    int
	}{{"input_tokens", u.Input}, {"output_tokens", u.Output}, {"cache_read_tokens", u.CacheRead},
		{"cache_write_tokens", u.CacheWrite}, {"reasoning_tokens", u.Reasoning}} {
		if c.n < 0 || c.n > MaxUsageTokens {
			return fmt.Errorf("usage.%s: must be between 0 and %d", c.name, MaxUsageTokens)
		}
	}
	switch {
	case u.Reasoning > u.Output:
		return errors.New("usage.reasoning_tokens: must be at most usage.output_tokens, which counts them")
	case u.CacheRead+u.CacheWrite > u.Input:
		return errors.New("usage.cache_read_tokens: with usage.cache_write_tokens, must be at most usage.input_tokens, which counts them")
	}
	return nil
}

var _ json.Unmarshaler = (*Usage)(nil)
