package scenario

import (
	"errors"
	"fmt"
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
	return nil
}
