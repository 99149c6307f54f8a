package journal

// Request is what the journal keeps of a normalized request: the prompt
// and the knobs the code under test set, the same for every provider.
type Request struct {
	// System joins the system and developer messages (or instructions).
	System string `json:"system,omitempty"`
	// Messages is the conversation without its system messages: its last
	// 128 messages, and of those the last whose strings (texts, tool calls)
	// fit 64 KiB; OmittedMessages counts the earlier ones left out.
	Messages        []Message `json:"messages,omitempty"`
	OmittedMessages int       `json:"omitted_messages,omitempty"`
	// Tools names the tools offered to the model, in order.
	Tools []string `json:"tools,omitempty"`
	// ToolChoice is "auto", "none", "required", or the name of the one
	// function the caller forced; "" when the request did not say.
	ToolChoice string `json:"tool_choice,omitempty"`
	// ResponseFormat is "json_object", or "json_schema" followed by a colon
	// and the schema's name; "" for plain text.
	ResponseFormat string `json:"response_format,omitempty"`
	// Temperature and TopP are the sampling parameters sent, nil when not.
	Temperature *float64 `json:"temperature,omitempty"`
	TopP        *float64 `json:"top_p,omitempty"`
	// MaxOutputTokens is the most output tokens the request allows; 0 when
	// it sets no limit.
	MaxOutputTokens int `json:"max_output_tokens,omitempty"`
	// StopSequences are the texts the request asked the model to stop at.
	StopSequences []string `json:"stop_sequences,omitempty"`
	// IncludeUsage reports stream_options.include_usage.
	IncludeUsage bool `json:"include_usage,omitempty"`
	// Metadata is the request's metadata.
	Metadata map[string]string `json:"metadata,omitempty"`
	// User is the caller's end-user identifier (user, safety_identifier,
	// Anthropic's metadata.user_id).
	User string `json:"user,omitempty"`
	// PreviousResponseID is the Responses API's previous_response_id, and
	// ConversationID its conversation.
	PreviousResponseID string `json:"previous_response_id,omitempty"`
	ConversationID     string `json:"conversation_id,omitempty"`
}

// Message is one message of a journaled request.
type Message struct {
	// Role is "user", "assistant" or "tool".
	Role string `json:"role"`
	// Text is the message's text.
	Text string `json:"text,omitempty"`
	// ToolCalls are the calls an assistant message asked for.
	ToolCalls []ToolCall `json:"tool_calls,omitempty"`
	// ToolCallID is the call a tool message answers.
	ToolCallID string `json:"tool_call_id,omitempty"`
}

// Client is what a request's headers say of the SDK that sent it.
type Client struct {
	// UserAgent is the User-Agent header.
	UserAgent string `json:"user_agent,omitempty"`
	// Stainless holds the X-Stainless-* headers the official SDKs send
	// (lang, package-version, os, arch, runtime, …) by lowercase name
	// without the prefix, the retry count apart.
	Stainless map[string]string `json:"stainless,omitempty"`
	// RetryCount is X-Stainless-Retry-Count: 0 for a first attempt.
	RetryCount int `json:"retry_count,omitempty"`
}

// Tried explains a miss for one scenario: when no scenario answered a
// request, each of the session's scenarios is listed with why it passed
// the request over.
type Tried struct {
	// Scenario names the scenario.
	Scenario string `json:"scenario"`
	// Why says why the scenario passed over the request: the conditions
	// of its match the request fails, or that its replies are used up.
	Why string `json:"why"`
}

// Redacted replaces the value of a credential header in the journal.
const Redacted = "[redacted]"
