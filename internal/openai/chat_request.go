package openai

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/llmtestserver/llmtestserver/scenario"
)

// ChatRequest is the body of POST /v1/chat/completions, as far as the server
// reads it. Fields the server ignores (sampling knobs and the like) are
// tolerated and dropped.
type ChatRequest struct {
	Model         string         `json:"model"`
	Messages      []ChatMessage  `json:"messages"`
	Stream        bool           `json:"stream"`
	StreamOptions *StreamOptions `json:"stream_options"`
}

// StreamOptions is the stream_options object of a chat request.
type StreamOptions struct {
	IncludeUsage bool `json:"include_usage"`
}

// ChatMessage is one element of messages.
type ChatMessage struct {
	Role       string         `json:"role"`
	Content    MessageContent `json:"content"`
	Name       string         `json:"name"`
	ToolCalls  []ToolCall     `json:"tool_calls"`
	ToolCallID string         `json:"tool_call_id"`
}

// ToolCall is an assistant message's request to run a tool.
type ToolCall struct {
	ID       string `json:"id"`
	Type     string `json:"type"`
	Function struct {
		Name      string `json:"name"`
		Arguments string `json:"arguments"`
	} `json:"function"`
}

// MessageContent is a message's content, sent either as a string or as an
// array of parts; Text joins the text of its text parts with newlines.
type MessageContent struct {
	Text string
}

// contentError carries a precise API error out of a nested UnmarshalJSON.
type contentError struct{ apiError *Error }

func (e *contentError) Error() string { return e.apiError.Message }

// UnmarshalJSON accepts a string, null, or an array of content parts.
func (c *MessageContent) UnmarshalJSON(data []byte) error {
	switch {
	case string(data) == "null":
		c.Text = ""
		return nil
	case len(data) > 0 && data[0] == '"':
		return json.Unmarshal(data, &c.Text)
	case len(data) > 0 && data[0] == '[':
		var parts []struct {
			Type string `json:"type"`
			Text string `json:"text"`
		}
		if err := json.Unmarshal(data, &parts); err != nil {
			return err
		}
		texts := make([]string, 0, len(parts))
		for _, p := range parts {
			if p.Type == "text" || p.Type == "refusal" {
				texts = append(texts, p.Text)
			}
		}
		c.Text = strings.Join(texts, "\n")
		return nil
	default:
		return &contentError{InvalidType("messages.content", "a string or an array of content parts", "another value")}
	}
}

// roles the Chat Completions API accepts, in the order its errors list them.
var chatRoles = []string{"system", "assistant", "user", "function", "tool", "developer"}

// DecodeChatRequest decodes and validates a chat completion body the way the
// real API does, before any model lookup.
func DecodeChatRequest(body []byte) (*ChatRequest, *Error) {
	var req ChatRequest
	if err := decodeBody(body, &req); err != nil {
		return nil, err
	}
	if req.Model == "" {
		return nil, MissingParameter("model")
	}
	if req.Messages == nil {
		return nil, MissingParameter("messages")
	}
	if err := validateMessages(req.Messages); err != nil {
		return nil, err
	}
	return &req, nil
}

func validateMessages(msgs []ChatMessage) *Error {
	if len(msgs) == 0 {
		return invalidRequest(400, "empty_array", "messages",
			"Invalid 'messages': empty array. Expected an array with minimum length 1, but got an empty array instead.")
	}
	for i, m := range msgs {
		if !isChatRole(m.Role) {
			return invalidRequest(400, "invalid_value", fmt.Sprintf("messages[%d].role", i),
				"Invalid value: '%s'. Supported values are: 'system', 'assistant', 'user', 'function', 'tool', and 'developer'.", m.Role)
		}
	}
	return validateToolTurns(msgs)
}

func isChatRole(role string) bool {
	for _, r := range chatRoles {
		if r == role {
			return true
		}
	}
	return false
}

// validateToolTurns checks that every tool message answers a call of the
// assistant message before it, and that every call is answered before the
// conversation moves on.
func validateToolTurns(msgs []ChatMessage) *Error {
	var open []string // call IDs of the last assistant message not yet answered
	openAt := -1      // index of that assistant message
	for i, m := range msgs {
		switch m.Role {
		case "tool":
			at := indexOf(open, m.ToolCallID)
			if openAt < 0 || at < 0 && !answered(msgs[openAt], m.ToolCallID) {
				return invalidRequest(400, "", fmt.Sprintf("messages.[%d].role", i),
					"Invalid parameter: messages with role 'tool' must be a response to a preceeding message with 'tool_calls'.")
			}
			if at >= 0 {
				open = append(open[:at], open[at+1:]...)
			}
			continue
		case "assistant":
			if err := unansweredCalls(open, openAt); err != nil {
				return err
			}
			open, openAt = nil, -1
			if len(m.ToolCalls) > 0 {
				openAt = i
				for _, c := range m.ToolCalls {
					open = append(open, c.ID)
				}
			}
			continue
		}
		if err := unansweredCalls(open, openAt); err != nil {
			return err
		}
		open, openAt = nil, -1
	}
	return unansweredCalls(open, openAt)
}

func unansweredCalls(open []string, at int) *Error {
	if len(open) == 0 {
		return nil
	}
	return invalidRequest(400, "", fmt.Sprintf("messages.[%d].role", at),
		"An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. The following tool_call_ids did not have response messages: %s", strings.Join(open, ", "))
}

// answered reports whether id is one of the calls of the assistant message m,
// so that a second answer to the same call is not mistaken for a stray one.
func answered(m ChatMessage, id string) bool {
	for _, c := range m.ToolCalls {
		if c.ID == id {
			return true
		}
	}
	return false
}

func indexOf(list []string, s string) int {
	for i, v := range list {
		if v == s {
			return i
		}
	}
	return -1
}

// Normalize turns the wire request into the form scenarios see.
func (r *ChatRequest) Normalize() *scenario.Request {
	n := &scenario.Request{
		Endpoint: scenario.EndpointChatCompletions,
		Model:    r.Model,
		Stream:   r.Stream,
		Messages: make([]scenario.Message, 0, len(r.Messages)),
	}
	var system []string
	for _, m := range r.Messages {
		if m.Role == "system" || m.Role == "developer" {
			system = append(system, m.Content.Text)
			continue
		}
		n.Messages = append(n.Messages, scenario.Message{Role: m.Role, Content: m.Content.Text})
	}
	n.System = strings.Join(system, "\n")
	return n
}

// IncludeUsage reports whether a streamed answer ends with a usage chunk.
func (r *ChatRequest) IncludeUsage() bool {
	return r.StreamOptions != nil && r.StreamOptions.IncludeUsage
}
