package scenario

// Endpoint names a provider operation independently of its wire format.
type Endpoint string

// Endpoints the server answers.
const (
	// EndpointChatCompletions is OpenAI's POST /v1/chat/completions.
	EndpointChatCompletions Endpoint = "chat.completions"
)

// Request is the normalized form of a provider request. Matchers see only
// this form, so one scenario can answer every wire format that carries the
// same conversation.
type Request struct {
	// Endpoint is the provider operation that was called.
	Endpoint Endpoint
	// Model is the model the caller asked for.
	Model string
	// System joins the system and developer messages, in order.
	System string
	// Messages is the conversation without its system and developer messages.
	Messages []Message
	// Stream reports whether the caller asked for a streamed answer.
	Stream bool
}

// Message is one turn of a conversation.
type Message struct {
	// Role is "user", "assistant" or "tool".
	Role string
	// Content is the text of the message, its text parts joined by newlines.
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
