package scenario

import (
	"errors"
	"fmt"
	"slices"
	"strings"
)

// WebSearch is a search the model ran on the provider's side before it
// answered (Anthropic's web_search server tool): Anthropic renders it as a
// server_tool_use block and its web_search_tool_result, and counts it in
// usage.server_tool_use. The OpenAI codecs do not show it.
type WebSearch struct {
	// ID is the server_tool_use block's ID; empty gets a generated
	// srvtoolu_ ID.
	ID string `json:"id,omitempty"`
	// Query is what the model searched for.
	Query string `json:"query"`
	// Results are the pages the search found.
	Results []WebResult `json:"results,omitempty"`
}

// WebResult is one page a WebSearch found.
type WebResult struct {
	URL   string `json:"url"`
	Title string `json:"title"`
	// PageAge is how old the page is, as the provider says it ("3 days
	// ago"); empty sends null.
	PageAge string `json:"page_age,omitempty"`
}

// Citation is a passage of a web search result the reply's text cites
// (Anthropic's web_search_result_location citations, and citations_delta
// events when streamed). The OpenAI codecs do not show it.
type Citation struct {
	// CitedText is the passage cited.
	CitedText string `json:"cited_text"`
	URL       string `json:"url"`
	Title     string `json:"title"`
}

// validateBlocks checks the reply's provider-side blocks: redacted
// thinking, web searches and citations.
func (r *Reply) validateBlocks() error {
	shown := r.Text != "" || len(r.ToolCalls) > 0 || r.JSON != nil || r.Refusal != ""
	if (len(r.RedactedThinking) > 0 || len(r.WebSearches) > 0) && !shown {
		return errors.New("redacted_thinking, web_searches: accompany a text, tool_calls, json or refusal reply")
	}
	for i, d := range r.RedactedThinking {
		if d == "" {
			return fmt.Errorf("redacted_thinking[%d]: must not be empty", i)
		}
	}
	for i, s := range r.WebSearches {
		if s.Query == "" {
			return fmt.Errorf("web_searches[%d].query: must not be empty", i)
		}
		for j, res := range s.Results {
			if !strings.HasPrefix(res.URL, "http://") && !strings.HasPrefix(res.URL, "https://") {
				return fmt.Errorf("web_searches[%d].results[%d].url: must be an http or https URL", i, j)
			}
		}
	}
	if len(r.Citations) > 0 && r.Text == "" {
		return errors.New("citations: accompany a text reply, whose text cites them")
	}
	for i, c := range r.Citations {
		if c.CitedText == "" || c.URL == "" {
			return fmt.Errorf("citations[%d]: needs cited_text and url", i)
		}
	}
	return r.validateBeta()
}

// Iteration is one pass of a beta request that compaction, an advisor or
// a fallback model split into several (Anthropic's beta usage.iterations,
// whose "fallback_message" the SDK's message threads read). Other codecs
// do not show it.
type Iteration struct {
	// Type is one of IterationTypes.
	Type string `json:"type"`
	// Model is the model of the pass; empty names the request's. A
	// compaction pass names none.
	Model        string `json:"model,omitempty"`
	InputTokens  int    `json:"input_tokens"`
	OutputTokens int    `json:"output_tokens"`
}

// IterationTypes are the kinds of Iteration, as anthropic-sdk-go's
// BetaIterationsUsageItemUnion has them.
var IterationTypes = []string{"message", "compaction", "advisor_message", "fallback_message"}

// AppliedEdit is one edit the request's context management applied to the
// prompt (Anthropic's beta context_management.applied_edits). Other
// codecs do not show it.
type AppliedEdit struct {
	// Type is one of AppliedEditTypes.
	Type               string `json:"type"`
	ClearedInputTokens int    `json:"cleared_input_tokens"`
	// ClearedToolUses counts the tool uses a clear_tool_uses edit
	// cleared; ClearedThinkingTurns the turns a clear_thinking edit did.
	ClearedToolUses      int `json:"cleared_tool_uses,omitempty"`
	ClearedThinkingTurns int `json:"cleared_thinking_turns,omitempty"`
}

// AppliedEditTypes are the kinds of AppliedEdit, as anthropic-sdk-go's
// BetaContextManagementResponseAppliedEditUnion has them.
var AppliedEditTypes = []string{"clear_tool_uses_20250919", "clear_thinking_20251015"}

// validateBeta checks the reply's beta usage: iterations and applied edits.
func (r *Reply) validateBeta() error {
	for i, it := range r.Iterations {
		if !slices.Contains(IterationTypes, it.Type) {
			return fmt.Errorf("iterations[%d].type: is one of %s", i, strings.Join(IterationTypes, ", "))
		}
		if it.InputTokens < 0 || it.OutputTokens < 0 || it.InputTokens > MaxUsageTokens || it.OutputTokens > MaxUsageTokens {
			return fmt.Errorf("iterations[%d]: tokens are between 0 and %d", i, MaxUsageTokens)
		}
	}
	for i, e := range r.AppliedEdits {
		if !slices.Contains(AppliedEditTypes, e.Type) {
			return fmt.Errorf("applied_edits[%d].type: is one of %s", i, strings.Join(AppliedEditTypes, ", "))
		}
		if e.ClearedInputTokens < 0 || e.ClearedToolUses < 0 || e.ClearedThinkingTurns < 0 {
			return fmt.Errorf("applied_edits[%d]: counts are not negative", i)
		}
	}
	return nil
}
