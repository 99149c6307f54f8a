package anthropic

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"

	"github.com/llmtestserver/llmtestserver/internal/provider"
	"github.com/llmtestserver/llmtestserver/scenario"
)

// The blocks a scripted reply adds to a message besides its thinking,
// text and tool calls: redacted thinking, the web searches the model ran
// on the API's side, and the citations of their results. Shapes are the
// SDK's RedactedThinkingBlock, ServerToolUseBlock, WebSearchToolResultBlock,
// WebSearchResultBlock and CitationsWebSearchResultLocation; the opaque
// encrypted_content and encrypted_index are the server's own.

type redactedThinkingBlock struct {
	Type string `json:"type"`
	Data string `json:"data"`
}

type serverToolUseBlock struct {
	Type   string          `json:"type"`
	ID     string          `json:"id"`
	Name   string          `json:"name"`
	Input  json.RawMessage `json:"input"`
	Caller caller          `json:"caller"`
}

type webSearchResultBlock struct {
	Type      string            `json:"type"`
	ToolUseID string            `json:"tool_use_id"`
	Content   []webSearchResult `json:"content"`
	Caller    caller            `json:"caller"`
}

type webSearchResult struct {
	Type             string  `json:"type"`
	URL              string  `json:"url"`
	Title            string  `json:"title"`
	EncryptedContent string  `json:"encrypted_content"`
	PageAge          *string `json:"page_age"`
}

// citedTextBlock is a text block with its citations; a text without them
// is a textBlock, with no citations field, as real captures show (audit
// B1).
type citedTextBlock struct {
	Type      string     `json:"type"`
	Text      string     `json:"text"`
	Citations []citation `json:"citations"`
}

type citation struct {
	Type           string `json:"type"`
	CitedText      string `json:"cited_text"`
	URL            string `json:"url"`
	Title          string `json:"title"`
	EncryptedIndex string `json:"encrypted_index"`
}

type citationsDelta struct {
	Type     string   `json:"type"`
	Citation citation `json:"citation"`
}

// redactedData is the data of a redacted_thinking block the server hands
// out for the scripted data: base64 of a tag over the data, then the
// data, so that validRedactedData knows it when a client sends it back.
func redactedData(scripted string) string {
	return base64.StdEncoding.EncodeToString(append(redactedTag([]byte(scripted)), scripted...))
}

func redactedTag(data []byte) []byte {
	sum := sha256.Sum256(append([]byte("llmtestserver redacted\x00"), data...))
	return sum[:]
}

// validRedactedData reports whether data is a redacted_thinking block's
// data the server handed out (see redactedData). The real API checks it
// as it checks a thinking signature.
func validRedactedData(data string) bool {
	b, err := base64.StdEncoding.DecodeString(data)
	return err == nil && len(b) >= sha256.Size && bytes.Equal(b[:sha256.Size], redactedTag(b[sha256.Size:]))
}

// searchInput is a web search's server_tool_use input: {"query": ...}.
func searchInput(s scenario.WebSearch) json.RawMessage {
	b, _ := json.Marshal(struct {
		Query string `json:"query"`
	}{s.Query})
	return b
}

func searchResults(s scenario.WebSearch) []webSearchResult {
	out := make([]webSearchResult, 0, len(s.Results))
	for _, r := range s.Results {
		res := webSearchResult{Type: "web_search_result", URL: r.URL, Title: r.Title, EncryptedContent: opaque("content", r.URL)}
		if r.PageAge != "" {
			age := r.PageAge
			res.PageAge = &age
		}
		out = append(out, res)
	}
	return out
}

func citationsOf(a *provider.Answer) []citation {
	out := make([]citation, 0, len(a.Citations))
	for _, c := range a.Citations {
		out = append(out, citation{Type: "web_search_result_location", CitedText: c.CitedText, URL: c.URL, Title: c.Title,
			EncryptedIndex: opaque("index", c.URL+"\x00"+c.CitedText)})
	}
	return out
}

// opaque is an encrypted_content or encrypted_index: opaque to clients,
// the same for the same page.
func opaque(kind, of string) string {
	sum := sha256.Sum256([]byte("llmtestserver " + kind + "\x00" + of))
	return base64.StdEncoding.EncodeToString(sum[:])
}

// leadingBlocks are the blocks before the text: the redacted thinking,
// then each web search's server_tool_use and result.
func leadingBlocks(a *provider.Answer) []any {
	var out []any
	for _, d := range a.RedactedThinking {
		out = append(out, redactedThinkingBlock{Type: "redacted_thinking", Data: redactedData(d)})
	}
	for _, s := range a.WebSearches {
		out = append(out, serverToolUseBlock{Type: "server_tool_use", ID: s.ID, Name: "web_search", Input: searchInput(s), Caller: direct},
			webSearchResultBlock{Type: "web_search_tool_result", ToolUseID: s.ID, Content: searchResults(s), Caller: direct})
	}
	return out
}

// serverToolUse is usage.server_tool_use, sent when the model searched.
type serverToolUse struct {
	WebSearchRequests int `json:"web_search_requests"`
	WebFetchRequests  int `json:"web_fetch_requests"`
}

func serverToolUseOf(a *provider.Answer) *serverToolUse {
	if len(a.WebSearches) == 0 {
		return nil
	}
	return &serverToolUse{WebSearchRequests: len(a.WebSearches)}
}
