package openai

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"net/http"
	"strings"

	"github.com/llmtestserver/llmtestserver/internal/provider"
	"github.com/llmtestserver/llmtestserver/scenario"
)

// ChatRequest is the body of POST /v1/chat/completions as openai-go and
// go-openai send it. Sampling knobs (temperature, top_p, stop, logit_bias…)
// are checked (chat_rules.go) and dropped; fields the server does not know
// are refused before decoding (CheckChatParams) unless the session allows
// them. Fields whose
// JSON shape varies (tool_choice, parallel_tool_calls, response_format, the
// legacy function_call) are kept raw and read through methods once
// DecodeChatRequest has checked them.
type ChatRequest struct {
	Model         string         `json:"model"`
	Messages      []ChatMessage  `json:"messages"`
	Stream        bool           `json:"stream"`
	StreamOptions *StreamOptions `json:"stream_options"`

	Tools             []ChatTool      `json:"tools"`
	ToolChoice        json.RawMessage `json:"tool_choice"`
	ParallelToolCalls json.RawMessage `json:"parallel_tool_calls"`
	ResponseFormat    json.RawMessage `json:"response_format"`

	// Functions and FunctionCall are the legacy forms of tools and
	// tool_choice; both SDKs can still send them.
	Functions    []FunctionDefinition `json:"functions"`
	FunctionCall json.RawMessage      `json:"function_call"`

	MaxTokens           *int64 `json:"max_tokens"`
	MaxCompletionTokens *int64 `json:"max_completion_tokens"`
	N                   *int64 `json:"n"`
	Seed                *int64 `json:"seed"`

	User             string            `json:"user"`
	SafetyIdentifier string            `json:"safety_identifier"`
	PromptCacheKey   string            `json:"prompt_cache_key"`
	Store            *bool             `json:"store"`
	Metadata         map[string]string `json:"metadata"`

	// Output controls, read by decodeOutputControls (chat_controls.go).
	Stop        json.RawMessage `json:"stop"`
	Logprobs    *bool           `json:"logprobs"`
	TopLogprobs *int64          `json:"top_logprobs"`
	ServiceTier *string         `json:"service_tier"`

	// Filled by DecodeChatRequest from the raw fields above.
	toolChoice     string
	responseFormat *scenario.ResponseFormat
	controls       chatControls
	// reasoningEffort is the reasoning_effort the request names, "" for
	// none, read by validateChatRules with the other sampling knobs.
	reasoningEffort string
	// temperature and topP are the sampling knobs sent, nil when not, read
	// by validateChatRules too.
	temperature, topP *float64
}

// StreamOptions is the stream_options object of a chat request.
type StreamOptions struct {
	IncludeUsage bool `json:"include_usage"`
	// IncludeObfuscation is nil when not sent: obfuscation is on by default.
	IncludeObfuscation *bool `json:"include_obfuscation"`
}

// ChatMessage is one element of messages.
type ChatMessage struct {
	Role    string         `json:"role"`
	Content MessageContent `json:"content"`
	Name    string         `json:"name"`
	// Refusal is an assistant message's refusal, sent beside its content.
	Refusal    string     `json:"refusal"`
	ToolCalls  []ToolCall `json:"tool_calls"`
	ToolCallID string     `json:"tool_call_id"`
	// FunctionCall is the legacy single call of an assistant message.
	FunctionCall *FunctionCall `json:"function_call"`
}

// ToolCall is an assistant message's request to run a tool: type "function"
// with Function set, or type "custom" with Custom set.
type ToolCall struct {
	ID       string         `json:"id"`
	Type     string         `json:"type"`
	Function FunctionCall   `json:"function"`
	Custom   *CustomToolUse `json:"custom"`
}

// FunctionCall names a function and carries its arguments as JSON text.
type FunctionCall struct {
	Name      string `json:"name"`
	Arguments string `json:"arguments"`
}

// CustomToolUse is the body of a call to a custom (free-form input) tool.
type CustomToolUse struct {
	Name  string `json:"name"`
	Input string `json:"input"`
}

// ChatTool is one element of tools: type "function" with Function set, or
// type "custom" with Custom set.
type ChatTool struct {
	Type     string              `json:"type"`
	Function *FunctionDefinition `json:"function"`
	Custom   *CustomTool         `json:"custom"`
}

// FunctionDefinition describes a function the model may call.
type FunctionDefinition struct {
	Name        string `json:"name"`
	Description string `json:"description"`
	// Parameters is the JSON schema of the arguments; nil when absent or null.
	Parameters json.RawMessage `json:"parameters"`
	Strict     *bool           `json:"strict"`

	hasName bool
}

// UnmarshalJSON records whether name was sent at all, so that a missing name
// and a malformed one get the API's two different errors.
func (f *FunctionDefinition) UnmarshalJSON(data []byte) error {
	type plain FunctionDefinition
	if err := json.Unmarshal(data, (*plain)(f)); err != nil {
		return err
	}
	var probe struct {
		Name *string `json:"name"`
	}
	_ = json.Unmarshal(data, &probe) // cannot fail where the decode above succeeded
	f.hasName = probe.Name != nil
	if string(f.Parameters) == "null" {
		f.Parameters = nil
	}
	return nil
}

// CustomTool describes a custom tool, whose input is free text.
type CustomTool struct {
	Name        string          `json:"name"`
	Description string          `json:"description"`
	Format      json.RawMessage `json:"format"`
}

// MessageContent is a message's content, sent either as a string or as an
// array of parts. Text joins the text parts with newlines and Refusal the
// refusal parts; Parts keeps every part of an array, and Null reports an
// absent or null content.
type MessageContent struct {
	Text    string
	Refusal string
	Parts   []ContentPart
	Null    bool
}

// ContentPart is one element of an array content. Types the server does
// not know are kept with only Type set.
type ContentPart struct {
	Type       string      `json:"type"`
	Text       string      `json:"text,omitempty"`
	Refusal    string      `json:"refusal,omitempty"`
	ImageURL   *ImageURL   `json:"image_url,omitempty"`
	InputAudio *InputAudio `json:"input_audio,omitempty"`
	File       *FilePart   `json:"file,omitempty"`
}

// ImageURL is the body of an image_url part.
type ImageURL struct {
	URL    string `json:"url"`
	Detail string `json:"detail,omitempty"`
}

// InputAudio is the body of an input_audio part.
type InputAudio struct {
	Data   string `json:"data"`
	Format string `json:"format"`
}

// FilePart is the body of a file part.
type FilePart struct {
	FileID   string `json:"file_id,omitempty"`
	FileData string `json:"file_data,omitempty"`
	Filename string `json:"filename,omitempty"`
}

// indexMessageError puts the message index into the param of an error found
// inside messages: the decoder names the field ("messages.content") but not
// which message, and the real API says "messages[2].content".
func indexMessageError(body []byte, err *Error) *Error {
	rest, ok := strings.CutPrefix(err.Param, "messages.")
	if !ok {
		return err
	}
	var outer struct {
		Messages []json.RawMessage `json:"messages"`
	}
	if json.Unmarshal(body, &outer) != nil {
		return err
	}
	for i, raw := range outer.Messages {
		var m ChatMessage
		if json.Unmarshal(raw, &m) != nil {
			param := fmt.Sprintf("messages[%d].%s", i, rest)
			indexed := *err
			indexed.Message = strings.ReplaceAll(err.Message, "'"+err.Param+"'", "'"+param+"'")
			indexed.Param = param
			return &indexed
		}
	}
	return err
}

func contentTypeError(got string) error {
	return &contentError{InvalidType("messages.content", "a string or an array of content parts", got)}
}

// UnmarshalJSON accepts a string, null, or an array of content parts.
func (c *MessageContent) UnmarshalJSON(data []byte) error {
	*c = MessageContent{}
	switch provider.JSONKind(data) {
	case "null":
		c.Null = true
		return nil
	case "string":
		return json.Unmarshal(data, &c.Text)
	case "array":
		var raw []json.RawMessage
		if err := json.Unmarshal(data, &raw); err != nil {
			return contentTypeError("another value")
		}
		c.Parts = make([]ContentPart, 0, len(raw))
		var texts, refusals []string
		for _, r := range raw {
			var p ContentPart
			if k := provider.JSONKind(r); k != "object" {
				return contentTypeError("an array with " + describeJSONValue(k) + " part")
			}
			if err := decodeField("messages.content", r, &p); err != nil {
				return &contentError{err}
			}
			switch p.Type {
			case "text":
				texts = append(texts, p.Text)
			case "refusal":
				refusals = append(refusals, p.Refusal)
			}
			c.Parts = append(c.Parts, p)
		}
		c.Text = strings.Join(texts, "\n")
		c.Refusal = strings.Join(refusals, "\n")
		return nil
	default:
		return contentTypeError(describeJSONValue(provider.JSONKind(data)))
	}
}

// roles the Chat Completions API accepts, in the order its errors list them.
var chatRoles = []string{"system", "assistant", "user", "function", "tool", "developer"}

// DecodeChatRequest decodes and validates a chat completion body the way the
// real API does, before any model lookup. The checks, in order: JSON shape
// and field types; model and messages present; roles; tools; tool_choice;
// response_format; n; max_tokens on reasoning models; tool_call_id and
// tool-call names in messages; tool messages answering the calls before
// them; and the rules of chat_rules.go (stream_options without stream,
// ranges, the model's own rules, content parts, strict schemas, the word
// json for json_object). Unknown fields are CheckChatParams' business.
func DecodeChatRequest(body []byte) (*ChatRequest, *Error) {
	var req ChatRequest
	if err := decodeBody(body, &req); err != nil {
		return nil, indexMessageError(body, err)
	}
	if req.Model == "" {
		return nil, MissingModel()
	}
	if req.Messages == nil {
		return nil, MissingParameter("messages")
	}
	if len(req.Messages) == 0 {
		return nil, invalidRequest(http.StatusBadRequest, "empty_array", "messages",
			"Invalid 'messages': empty array. Expected an array with minimum length 1, but got an empty array instead.")
	}
	for i, m := range req.Messages {
		if !isChatRole(m.Role) {
			return nil, invalidRequest(http.StatusBadRequest, "invalid_value", fmt.Sprintf("messages[%d].role", i),
				"Invalid value: '%s'. Supported values are: 'system', 'assistant', 'user', 'function', 'tool', and 'developer'.", m.Role)
		}
	}
	for _, check := range []func() *Error{
		req.validateTools, req.decodeToolChoice, req.decodeResponseFormat,
		req.validateN, req.validateMaxTokens, req.validateMessageFields,
		req.decodeOutputControls,
	} {
		if err := check(); err != nil {
			return nil, err
		}
	}
	if err := validateToolTurns(req.Messages); err != nil {
		return nil, err
	}
	if err := req.validateChatRules(body); err != nil {
		return nil, err
	}
	return &req, nil
}

// IncludeUsage reports whether a streamed answer ends with a usage chunk.
func (r *ChatRequest) IncludeUsage() bool {
	return r.StreamOptions != nil && r.StreamOptions.IncludeUsage
}

// Choices is the number of choices asked for (n), 1 by default.
func (r *ChatRequest) Choices() int {
	if r.N == nil || *r.N < 1 || *r.N > maxChoices {
		return 1
	}
	return int(*r.N)
}

// Format is the structured-output format asked for, or nil for text.
func (r *ChatRequest) Format() *scenario.ResponseFormat { return r.responseFormat }

// Normalize turns the wire request into the form scenarios see. It leaves
// Conversation, Generation and Turn to the runtime.
func (r *ChatRequest) Normalize() *scenario.Request {
	n := &scenario.Request{
		Endpoint:       scenario.EndpointChatCompletions,
		Model:          r.Model,
		Stream:         r.Stream,
		Messages:       make([]scenario.Message, 0, len(r.Messages)),
		ToolChoice:     r.toolChoice,
		PromptCacheKey: r.PromptCacheKey,
		User:           r.User,
		Metadata:       maps.Clone(r.Metadata),
		IncludeUsage:   r.IncludeUsage(),
		Temperature:    r.temperature,
		TopP:           r.topP,
		StopSequences:  r.StopSequences(),
	}
	if n.User == "" {
		n.User = r.SafetyIdentifier
	}
	if provider.JSONKind(r.ParallelToolCalls) == "bool" {
		_ = json.Unmarshal(r.ParallelToolCalls, &n.ParallelToolCalls) // a JSON boolean always decodes
	}
	// max_completion_tokens replaced max_tokens; when both are sent
	// (validation allows it on chat models) the newer one governs.
	if m := r.MaxCompletionTokens; m != nil {
		n.MaxOutputTokens = int(*m)
	} else if m := r.MaxTokens; m != nil {
		n.MaxOutputTokens = int(*m)
	}
	if rf := r.responseFormat; rf != nil {
		c := *rf
		c.Schema = bytes.Clone(rf.Schema)
		n.ResponseFormat = &c
	}
	var system []string
	for _, m := range r.Messages {
		if m.Role == "system" || m.Role == "developer" {
			system = append(system, m.Content.Text)
			continue
		}
		n.Messages = append(n.Messages, m.normalize())
	}
	n.System = strings.Join(system, "\n")
	for _, t := range r.Tools {
		switch {
		case t.Type == "function" && t.Function != nil:
			n.Tools = append(n.Tools, scenario.Tool{Name: t.Function.Name, Description: t.Function.Description,
				Parameters: bytes.Clone(t.Function.Parameters)})
		case t.Type == "custom" && t.Custom != nil:
			n.Tools = append(n.Tools, scenario.Tool{Name: t.Custom.Name, Description: t.Custom.Description})
		}
	}
	for _, f := range r.Functions {
		n.Tools = append(n.Tools, scenario.Tool{Name: f.Name, Description: f.Description, Parameters: bytes.Clone(f.Parameters)})
	}
	return n
}

func (m *ChatMessage) normalize() scenario.Message {
	out := scenario.Message{Role: m.Role, Content: m.Content.Text, Name: m.Name, ToolCallID: m.ToolCallID}
	for _, c := range m.ToolCalls {
		call := scenario.ToolCall{ID: c.ID, Name: c.Function.Name, Arguments: c.Function.Arguments}
		if c.Type == "custom" && c.Custom != nil {
			call.Name, call.Arguments = c.Custom.Name, c.Custom.Input
		}
		out.ToolCalls = append(out.ToolCalls, call)
	}
	if fc := m.FunctionCall; fc != nil && len(m.ToolCalls) == 0 {
		out.ToolCalls = append(out.ToolCalls, scenario.ToolCall{Name: fc.Name, Arguments: fc.Arguments})
	}
	return out
}
