package journal

import (
	"encoding/json"
	"time"
)

// Entry is one recorded request.
type Entry struct {
	// Seq numbers the entries of one journal from 1, in recording order.
	Seq uint64
	// Time is when the request arrived.
	Time time.Time
	// Duration is how long the server took to answer it.
	Duration time.Duration
	// Method and Path are the HTTP method and URL path of the request.
	Method, Path string
	// Status is the HTTP status the server answered with.
	Status int
	// Model is the model the request asked for.
	Model string
	// Stream reports whether the answer was streamed.
	Stream bool
	// UserText is the last user message of the request.
	UserText string
	// ReplyText is the text the server answered with.
	ReplyText string
	// Scenario names the scenario that answered, if any.
	Scenario string
	// ErrorCode is the error code of a refused request, such as
	// "invalid_api_key" or "llm_test_server_no_scenario".
	ErrorCode string
	// Conversation identifies the conversation of the request, Generation
	// counts how often it started again from its opening, and Turn is its
	// number of user messages.
	Conversation string
	Generation   int
	Turn         int
	// PromptCacheKey is the prompt_cache_key the request carried.
	PromptCacheKey string
	// ToolResults are the tool results the request carried.
	ToolResults []ToolResult
	// ToolCalls are the tool calls the server answered with.
	ToolCalls []ToolCall
	// SchemaErrors lists where a structured-output reply failed the
	// request's JSON schema; empty when it conformed or none was asked for.
	SchemaErrors []string
}

// ToolResult is a tool result a request carried.
type ToolResult struct {
	CallID  string `json:"call_id"`
	Name    string `json:"name,omitempty"`
	Content string `json:"content"`
}

// ToolCall is a tool call the server answered with.
type ToolCall struct {
	ID        string `json:"id"`
	Name      string `json:"name"`
	Arguments string `json:"arguments"`
}

// maxTextBytes bounds each text field of a recorded entry, so that one huge
// prompt cannot evict the rest of the journal on its own.
const maxTextBytes = 8 << 10

// entryOverhead approximates the bytes an entry costs beyond its strings.
const entryOverhead = 160

// size is the number of bytes e counts against the journal's byte bound.
func (e *Entry) size() int64 {
	n := entryOverhead + len(e.Method) + len(e.Path) + len(e.Model) + len(e.UserText) + len(e.ReplyText) +
		len(e.Scenario) + len(e.ErrorCode) + len(e.Conversation) + len(e.PromptCacheKey)
	for _, r := range e.ToolResults {
		n += 48 + len(r.CallID) + len(r.Name) + len(r.Content)
	}
	for _, c := range e.ToolCalls {
		n += 48 + len(c.ID) + len(c.Name) + len(c.Arguments)
	}
	for _, s := range e.SchemaErrors {
		n += 16 + len(s)
	}
	return int64(n)
}

// clip shortens s to at most maxTextBytes without splitting a UTF-8 sequence.
func clip(s string) string {
	if len(s) <= maxTextBytes {
		return s
	}
	cut := maxTextBytes
	for cut > 0 && s[cut]&0xC0 == 0x80 {
		cut--
	}
	return s[:cut]
}

// entryJSON is the wire form of Entry served by GET /admin-api/journal.
type entryJSON struct {
	Seq        uint64    `json:"seq"`
	Time       time.Time `json:"time"`
	DurationMS float64   `json:"duration_ms"`
	Method     string    `json:"method"`
	Path       string    `json:"path"`
	Status     int       `json:"status"`
	Model      string    `json:"model,omitempty"`
	Stream     bool      `json:"stream,omitempty"`
	UserText   string    `json:"user_text,omitempty"`
	ReplyText  string    `json:"reply_text,omitempty"`
	Scenario   string    `json:"scenario,omitempty"`
	ErrorCode  string    `json:"error_code,omitempty"`

	Conversation   string       `json:"conversation,omitempty"`
	Generation     int          `json:"generation,omitempty"`
	Turn           int          `json:"turn,omitempty"`
	PromptCacheKey string       `json:"prompt_cache_key,omitempty"`
	ToolResults    []ToolResult `json:"tool_results,omitempty"`
	ToolCalls      []ToolCall   `json:"tool_calls,omitempty"`
	SchemaErrors   []string     `json:"schema_errors,omitempty"`
}

// MarshalJSON encodes e with snake_case names and the duration in
// milliseconds.
func (e Entry) MarshalJSON() ([]byte, error) {
	return json.Marshal(entryJSON{
		Seq: e.Seq, Time: e.Time, DurationMS: float64(e.Duration) / float64(time.Millisecond),
		Method: e.Method, Path: e.Path, Status: e.Status, Model: e.Model, Stream: e.Stream,
		UserText: e.UserText, ReplyText: e.ReplyText, Scenario: e.Scenario, ErrorCode: e.ErrorCode,
		Conversation: e.Conversation, Generation: e.Generation, Turn: e.Turn, PromptCacheKey: e.PromptCacheKey,
		ToolResults: e.ToolResults, ToolCalls: e.ToolCalls, SchemaErrors: e.SchemaErrors,
	})
}

// UnmarshalJSON decodes the form MarshalJSON writes, so clients of the admin
// API can read the journal back into entries.
func (e *Entry) UnmarshalJSON(data []byte) error {
	var w entryJSON
	if err := json.Unmarshal(data, &w); err != nil {
		return err
	}
	*e = Entry{
		Seq: w.Seq, Time: w.Time, Duration: time.Duration(w.DurationMS * float64(time.Millisecond)),
		Method: w.Method, Path: w.Path, Status: w.Status, Model: w.Model, Stream: w.Stream,
		UserText: w.UserText, ReplyText: w.ReplyText, Scenario: w.Scenario, ErrorCode: w.ErrorCode,
		Conversation: w.Conversation, Generation: w.Generation, Turn: w.Turn, PromptCacheKey: w.PromptCacheKey,
		ToolResults: w.ToolResults, ToolCalls: w.ToolCalls, SchemaErrors: w.SchemaErrors,
	}
	return nil
}
