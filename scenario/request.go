package scenario

import "encoding/json"

// Endpoint names a provider operation independently of its wire format.
type Endpoint string

// Endpoints the server answers.
const (
	// EndpointChatCompletions is OpenAI's POST /v1/chat/completions.
	EndpointChatCompletions Endpoint = "chat.completions"
	// EndpointResponses is OpenAI's POST /v1/responses.
	EndpointResponses Endpoint = "responses"
	// EndpointMessages is Anthropic's POST /v1/messages.
	EndpointMessages Endpoint = "messages"
	// EndpointEmbeddings is OpenAI's POST /v1/embeddings. Only scenarios
	// that name it answer it; without one, embeddings are computed.
	EndpointEmbeddings Endpoint = "embeddings"
	// EndpointGenerateContent is Gemini's models/{m}:generateContent and
	// :streamGenerateContent.
	EndpointGenerateContent Endpoint = "generate_content"
	// EndpointVideos is OpenAI's POST /v1/videos and its remix. Only
	// scenarios that name it answer it, with a reply whose Job times the
	// video (and whose Error fails it); without one, a video takes the
	// defaults of JobPlan and completes.
	EndpointVideos Endpoint = "videos"
	// EndpointBatches is the creation of a batch: OpenAI's POST
	// /v1/batches, Anthropic's POST /v1/messages/batches, Gemini's
	// :batchGenerateContent. Only scenarios that name it answer it, with a
	// reply whose Job times the batch; its lines are answered one by one
	// as if each were sent alone, by the scenarios of their own endpoints.
	EndpointBatches Endpoint = "batches"
)

// Conversational reports whether e is answered by conversational scenarios:
// those whose match names no endpoint answer every conversational request.
func (e Endpoint) Conversational() bool {
	return e != EndpointEmbeddings && e != EndpointVideos && e != EndpointBatches
}

// Request is the normalized form of a provider request. Matchers and Go
// responders see only this form, so one scenario can answer every wire format
// that carries the same conversation.
type Request struct {
	// Endpoint is the provider operation that was called.
	Endpoint Endpoint
	// Model is the model the caller asked for.
	Model string
	// System joins the system and developer messages (or instructions), in
	// order, with newlines.
	System string
	// Messages is the conversation without its system and developer messages.
	Messages []Message
	// Tools lists the tools the caller offered the model.
	Tools []Tool
	// ToolChoice is "auto", "none", "required", or the name of the one
	// function the caller forces; "" when the request does not say.
	ToolChoice string
	// ParallelToolCalls is false when the caller lets the model make at
	// most one tool call (OpenAI's parallel_tool_calls: false, Anthropic's
	// disable_parallel_tool_use: true), true when it allows several, and
	// nil when the request does not say (several are allowed).
	ParallelToolCalls *bool
	// ResponseFormat is the structured-output format the caller asked for,
	// or nil for plain text.
	ResponseFormat *ResponseFormat
	// Stream reports whether the caller asked for a streamed answer.
	Stream bool
	// MaxOutputTokens is the most tokens the caller lets the answer have
	// (max_completion_tokens or max_tokens, max_output_tokens, Anthropic's
	// max_tokens); 0 when the request sets no limit.
	MaxOutputTokens int
	// StopSequences are the texts at which the caller asks the model to
	// stop (OpenAI's stop, Anthropic's stop_sequences): the answer ends
	// before the first of them it would write.
	StopSequences []string
	// Temperature and TopP are the sampling parameters the caller sent, nil
	// when it sent none. The fake samples nothing: they are kept for
	// matchers, responders and the journal.
	Temperature *float64
	TopP        *float64
	// IncludeUsage reports that a streamed chat completion asked for a
	// final usage chunk (stream_options.include_usage).
	IncludeUsage bool
	// PreviousResponseID is the Responses API's previous_response_id, and
	// ConversationID the conversation object it names (conversation):
	// what the caller sent, whatever Conversation the server derives.
	PreviousResponseID string
	ConversationID     string
	// PromptCacheKey is the caller's prompt_cache_key affinity hint.
	PromptCacheKey string
	// User is the caller's end-user identifier (user or safety_identifier).
	User string
	// Metadata is the caller's metadata, if any.
	Metadata map[string]string
	// Conversation identifies the conversation the request belongs to; see
	// the package documentation for how it is determined.
	Conversation string
	// ConversationSource says how Conversation was determined: "explicit",
	// "declared" or "derived".
	ConversationSource string
	// Generation counts how often the conversation started again from its
	// opening, from 1.
	Generation int
	// Turn is the number of user messages so far, this request's included.
	Turn int
}

// Message is one turn of a conversation.
type Message struct {
	// Role is "user", "assistant" or "tool".
	Role string
	// Content is the text of the message, its text parts joined by newlines.
	Content string
	// Name is the optional participant name.
	Name string
	// ToolCalls are the calls an assistant message asked for.
	ToolCalls []ToolCall
	// ToolCallID is the call a tool message answers.
	ToolCallID string
}

// ToolCall is the model's request to run a tool.
type ToolCall struct {
	// ID identifies the call; the server generates "call_..." IDs when a
	// reply leaves it empty.
	ID string `json:"id,omitempty"`
	// Name is the function to call.
	Name string `json:"name"`
	// Arguments is the JSON text of the arguments.
	Arguments string `json:"arguments"`
}

// Tool is a function the caller offers the model.
type Tool struct {
	// Name is the function's name.
	Name string
	// Description is what the caller told the model about it.
	Description string
	// Parameters is the JSON schema of its arguments, if given.
	Parameters json.RawMessage
}

// ResponseFormat is a structured-output request.
type ResponseFormat struct {
	// Type is "json_object" or "json_schema".
	Type string
	// Name is the schema's name (json_schema only).
	Name string
	// Schema is the JSON schema the answer must satisfy (json_schema only).
	Schema json.RawMessage
	// Strict reports whether the caller asked for strict schema adherence.
	Strict bool
}

// ToolResult is a tool message together with the call it answers.
type ToolResult struct {
	// CallID is the ID of the answered call.
	CallID string
	// Name is the function that was called, when the call is in the
	// conversation.
	Name string
	// Content is the result the caller sent.
	Content string
}

// LastUserText returns the content of the last user message, or "" when
// there is none.
func (r *Request) LastUserText() string {
	for i := len(r.Messages) - 1; i >= 0; i-- {
		if r.Messages[i].Role == "user" {
			return r.Messages[i].Content
		}
	}
	return ""
}

// FirstUserText returns the content of the first user message, or "".
func (r *Request) FirstUserText() string {
	for i := range r.Messages {
		if r.Messages[i].Role == "user" {
			return r.Messages[i].Content
		}
	}
	return ""
}

// UserTurns returns the number of user messages.
func (r *Request) UserTurns() int {
	n := 0
	for i := range r.Messages {
		if r.Messages[i].Role == "user" {
			n++
		}
	}
	return n
}

// ToolResults returns the tool results of the conversation, in order, each
// with the name of the function it answers. It reads the conversation
// twice, never once per result: a request with thousands of calls and
// results costs as much as its size.
func (r *Request) ToolResults() []ToolResult {
	var names map[string]string // call ID to function name, made on first need
	var out []ToolResult
	for i := range r.Messages {
		m := &r.Messages[i]
		if m.Role != "tool" {
			continue
		}
		if names == nil {
			names = r.callNames()
		}
		out = append(out, ToolResult{CallID: m.ToolCallID, Name: names[m.ToolCallID], Content: m.Content})
	}
	return out
}

// callNames maps the ID of every tool call of the conversation to its
// function's name; the first call with an ID names it.
func (r *Request) callNames() map[string]string {
	names := map[string]string{}
	for i := range r.Messages {
		for _, c := range r.Messages[i].ToolCalls {
			if _, ok := names[c.ID]; !ok {
				names[c.ID] = c.Name
			}
		}
	}
	return names
}

// smallConversation is the most messages a conversation may have for
// hasToolResult to look each call up afresh: quadratic in the messages,
// but no allocation, which keeps matching an ordinary request free of
// garbage.
const smallConversation = 64

// hasToolResult reports whether a tool message answers a call with this ID
// or to a function of this name. A small conversation allocates nothing; a
// larger one allocates, once, the index of its calls, so that thousands of
// calls and results are read a fixed number of times.
func (r *Request) hasToolResult(nameOrID string) bool {
	var names map[string]string
	for i := range r.Messages {
		m := &r.Messages[i]
		if m.Role != "tool" {
			continue
		}
		if m.ToolCallID == nameOrID {
			return true
		}
		var name string
		switch {
		case len(r.Messages) <= smallConversation:
			name = r.toolName(m.ToolCallID)
		case names == nil:
			names = r.callNames()
			fallthrough
		default:
			name = names[m.ToolCallID]
		}
		if name == nameOrID {
			return true
		}
	}
	return false
}

// toolName returns the function name of call id, or "".
func (r *Request) toolName(id string) string {
	for i := range r.Messages {
		for _, c := range r.Messages[i].ToolCalls {
			if c.ID == id {
				return c.Name
			}
		}
	}
	return ""
}

// offers reports whether the request offers a tool of this name.
func (r *Request) offers(name string) bool {
	for i := range r.Tools {
		if r.Tools[i].Name == name {
			return true
		}
	}
	return false
}
