package anthropic

import (
	"bytes"
	"strings"

	"github.com/llmtestserver/llmtestserver/scenario"
)

// Normalize turns the request into the form scenarios see, the same as the
// equivalent OpenAI conversation's: system blocks (and system-role
// messages) join System; a tool_use is a tool call; each tool_result is a
// "tool" message placed before the rest of its user message; server tools
// are offered tools with no parameters. It leaves Conversation, Generation
// and Turn to the runtime.
func (r *MessagesRequest) Normalize() *scenario.Request {
	n := &scenario.Request{
		Endpoint: scenario.EndpointMessages,
		Model:    r.Model,
		Stream:   r.Stream,
		Messages: make([]scenario.Message, 0, len(r.Messages)),
		User:     r.UserID,
		// Shared with r: both live as long as the request.
		Temperature:   r.Temperature,
		TopP:          r.TopP,
		StopSequences: r.StopSequences,
	}
	if r.UserID != "" {
		n.Metadata = map[string]string{"user_id": r.UserID}
	}
	if r.MaxTokens != nil {
		// max_tokens 0 asks for no output at all (it pre-warms the
		// prompt cache): answered without a reply (messagesTurn.Generates).
		n.MaxOutputTokens = int(*r.MaxTokens)
	}
	system := make([]string, 0, len(r.System))
	for i := range r.System {
		system = append(system, r.System[i].Text)
	}
	for i := range r.Messages {
		m := &r.Messages[i]
		switch m.Role {
		case "system":
			system = append(system, joinText(m.Content))
		case "assistant":
			n.Messages = append(n.Messages, assistantMessage(m))
		default:
			n.Messages = appendUser(n.Messages, m)
		}
	}
	n.System = strings.Join(system, "\n")
	for i := range r.Tools {
		t := &r.Tools[i]
		n.Tools = append(n.Tools, scenario.Tool{Name: t.Name, Description: t.Description, Parameters: bytes.Clone(t.InputSchema)})
	}
	if tc := r.ToolChoice; tc != nil {
		switch tc.Type {
		case "any":
			n.ToolChoice = "required"
		case "tool":
			n.ToolChoice = tc.Name
		default:
			n.ToolChoice = tc.Type
		}
		if tc.DisableParallelToolUse {
			n.ParallelToolCalls = new(false)
		}
	}
	if r.Format != nil {
		n.ResponseFormat = &scenario.ResponseFormat{Type: "json_schema", Schema: bytes.Clone(r.Format)}
	}
	return n
}

// joinText joins the text blocks of a content with newlines.
func joinText(blocks []Block) string {
	var texts []string
	for i := range blocks {
		if blocks[i].Type == "text" {
			texts = append(texts, blocks[i].Text)
		}
	}
	return strings.Join(texts, "\n")
}

func assistantMessage(m *Message) scenario.Message {
	out := scenario.Message{Role: "assistant", Content: joinText(m.Content)}
	for i := range m.Content {
		if b := &m.Content[i]; b.Type == "tool_use" {
			out.ToolCalls = append(out.ToolCalls, scenario.ToolCall{ID: b.ID, Name: b.Name, Arguments: compactJSON(b.Input)})
		}
	}
	return out
}

// appendUser appends a user message's tool results as tool messages, then
// the user message itself unless it carried only tool results: a message
// of results and nothing else is, in OpenAI's words, only tool messages.
func appendUser(out []scenario.Message, m *Message) []scenario.Message {
	results, others := 0, 0
	for i := range m.Content {
		b := &m.Content[i]
		if b.Type != "tool_result" {
			others++
			continue
		}
		results++
		out = append(out, scenario.Message{Role: "tool", ToolCallID: b.ToolUseID, Content: joinText(b.Content)})
	}
	if results == 0 || others > 0 {
		out = append(out, scenario.Message{Role: "user", Content: joinText(m.Content)})
	}
	return out
}
