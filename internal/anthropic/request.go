package anthropic

import (
	"context"
	"encoding/json"
	"time"
)

// MessagesRequest is the body of POST /v1/messages (and, without max_tokens,
// of POST /v1/messages/count_tokens) as DecodeMessages has read and checked
// it. Fields the server does not use are kept raw or only named in Unknown.
type MessagesRequest struct {
	Model string
	// MaxTokens is nil when the body has no max_tokens; 0 is legal (it
	// pre-warms the prompt cache without generating).
	MaxTokens *int64
	// System holds the system prompt as text blocks; a string system is
	// one block without cache_control.
	System   []Block
	Messages []Message
	Tools    []Tool
	// ToolChoice is nil when the body has none.
	ToolChoice    *ToolChoice
	StopSequences []string
	// UserID is metadata.user_id; HasMetadata reports whether metadata was
	// sent at all.
	UserID      string
	HasMetadata bool
	// Thinking is nil when the body has none.
	Thinking *Thinking
	// OutputConfig is the raw output_config object, nil when absent.
	OutputConfig json.RawMessage
	// Format is output_config.format's JSON schema, nil when absent.
	Format      json.RawMessage
	ServiceTier string
	// CacheControl is the top-level "automatic" breakpoint, nil when absent.
	CacheControl *CacheControl
	Stream       bool
	// Temperature and TopP are the sampling knobs sent as numbers, nil
	// otherwise: kept for the journal, never used.
	Temperature, TopP *float64
	// Thread is the thread field, nil when absent (or not a beta
	// request). A continue request holds the whole conversation once
	// DecodeOptions.ResolveThread has joined the thread's to it, and
	// Continued tells how many of its messages the thread gave.
	Thread    *Thread
	Continued int
	// Unknown names the top-level fields the server does not know, sorted,
	// so that the journal can record what a newer SDK sent.
	Unknown []string

	// parts are the prompt parts, built once: validation needs them, and
	// so do the token count and the prompt cache.
	parts []PromptPart
	// ctx is the request's context while the body is decoded, which
	// stops a long decoding; nil afterwards.
	ctx context.Context
	// beta, systemString and topK are the decoding's: the beta field
	// lists apply, system was a string, top_k was sent.
	beta, systemString, topK bool
	// contextManagement says a beta request sent context_management.
	contextManagement bool
}

// Message is one element of messages. Role is "user", "assistant" or, as
// the v2 API models it, "system". A string content is one text block with
// ContentString set.
type Message struct {
	Role          string
	Content       []Block
	ContentString bool
}

// Block is one content block. Type discriminates; the fields of other
// types are zero. Blocks of types the server does not read are kept with
// Type and Raw only.
type Block struct {
	Type string
	// Text is a text block's text, or a thinking block's thinking.
	Text string
	// Signature is a thinking block's signature; Data a redacted_thinking
	// block's data.
	Signature, Data string
	// ID, Name and Input are a tool_use block's (Input is a JSON object).
	ID, Name string
	Input    json.RawMessage
	// ToolUseID, Content, ContentString and IsError are a tool_result
	// block's; a string content is one text block.
	ToolUseID     string
	Content       []Block
	ContentString bool
	IsError       bool
	// Source is an image or document block's source object.
	Source       json.RawMessage
	CacheControl *CacheControl
	// Raw is the block as sent.
	Raw json.RawMessage
	// plain reports a text block of nothing but its type, its text and
	// perhaps a cache_control, whose key is quick to make.
	plain bool
}

// Tool is one element of tools: a client tool (Type "" or "custom") with an
// input schema, or a server tool with a dated type (web_search_20250305),
// kept raw.
type Tool struct {
	Type         string
	Name         string
	Description  string
	InputSchema  json.RawMessage
	CacheControl *CacheControl
	Raw          json.RawMessage
}

// Client reports whether t is a client tool, one whose calls the caller
// answers with tool_result blocks.
func (t *Tool) Client() bool { return t.Type == "" || t.Type == "custom" }

// ToolChoice is tool_choice: Type is auto, any, tool or none; Name is the
// forced tool's.
type ToolChoice struct {
	Type                   string
	Name                   string
	DisableParallelToolUse bool
}

// Thinking is the thinking config: Type enabled (with BudgetTokens),
// disabled or adaptive.
type Thinking struct {
	Type         string
	BudgetTokens int64
	Display      string // "summarized", "omitted", or "" when not sent
}

// CacheControl is a cache_control breakpoint: type ephemeral, with a TTL of
// five minutes unless "1h" was asked for.
type CacheControl struct {
	TTL time.Duration
}

// TTLs the API accepts.
const (
	TTL5m = 5 * time.Minute
	TTL1h = time.Hour
)

// ThinkingEnabled reports whether the request lets the model show its
// reasoning: thinking of type enabled or adaptive.
func (r *MessagesRequest) ThinkingEnabled() bool {
	return r.Thinking != nil && (r.Thinking.Type == "enabled" || r.Thinking.Type == "adaptive")
}
