package openai

import (
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"

	"github.com/llmtestserver/llmtestserver/internal/provider"
	"github.com/llmtestserver/llmtestserver/scenario"
)

func isChatRole(role string) bool {
	for _, r := range chatRoles {
		if r == role {
			return true
		}
	}
	return false
}

func (r *ChatRequest) validateTools() *Error {
	for i, t := range r.Tools {
		at := fmt.Sprintf("tools[%d]", i)
		switch t.Type {
		case "":
			return MissingParameter(at + ".type")
		case "function":
			if t.Function == nil {
				return MissingParameter(at + ".function")
			}
			if !t.Function.hasName {
				return MissingParameter(at + ".function.name")
			}
			if err := checkName(at+".function.name", t.Function.Name); err != nil {
				return err
			}
			if t.Function.Parameters != nil && provider.JSONKind(t.Function.Parameters) != "object" {
				return InvalidType(at+".function.parameters", "an object", describeJSONValue(provider.JSONKind(t.Function.Parameters)))
			}
		case "custom":
			if t.Custom == nil {
				return MissingParameter(at + ".custom")
			}
			if err := checkName(at+".custom.name", t.Custom.Name); err != nil {
				return err
			}
		default:
			return invalidRequest(http.StatusBadRequest, "invalid_value", at+".type",
				"Invalid value: '%s'. Supported values are: 'function' and 'custom'.", t.Type)
		}
	}
	for i, f := range r.Functions {
		if err := checkName(fmt.Sprintf("functions[%d].name", i), f.Name); err != nil {
			return err
		}
	}
	return nil
}

// offers reports whether tools (or the legacy functions) define a tool of
// this type and name.
func (r *ChatRequest) offers(typ, name string) bool {
	for _, t := range r.Tools {
		switch {
		case typ == "function" && t.Type == "function" && t.Function != nil && t.Function.Name == name,
			typ == "custom" && t.Type == "custom" && t.Custom != nil && t.Custom.Name == name:
			return true
		}
	}
	if typ == "function" {
		for _, f := range r.Functions {
			if f.Name == name {
				return true
			}
		}
	}
	return false
}

// wireToolChoice is the object form of tool_choice.
type wireToolChoice struct {
	Type     string `json:"type"`
	Function *struct {
		Name string `json:"name"`
	} `json:"function"`
	Custom *struct {
		Name string `json:"name"`
	} `json:"custom"`
	AllowedTools *struct {
		Mode string `json:"mode"`
	} `json:"allowed_tools"`
}

// decodeToolChoice reads tool_choice, or the legacy function_call when
// tool_choice is absent, into the normalized choice.
func (r *ChatRequest) decodeToolChoice() *Error {
	raw, param := r.ToolChoice, "tool_choice"
	if !present(raw) && present(r.FunctionCall) {
		raw, param = r.FunctionCall, "function_call"
	}
	if !present(raw) {
		return nil
	}
	if len(r.Tools) == 0 && len(r.Functions) == 0 {
		return invalidRequest(http.StatusBadRequest, "", param,
			"Invalid value for '%s': '%s' is only allowed when 'tools' are specified.", param, param)
	}
	switch provider.JSONKind(raw) {
	case "string":
		var s string
		_ = json.Unmarshal(raw, &s) // a JSON string always decodes
		switch s {
		case "none", "auto", "required":
			if param == "function_call" && s == "required" {
				break
			}
			r.toolChoice = s
			return nil
		}
		return invalidRequest(http.StatusBadRequest, "invalid_value", param,
			"Invalid value: '%s'. Supported values are: 'none', 'auto', and 'required'.", s)
	case "object":
	default:
		return InvalidType(param, "a string or an object", describeJSONValue(provider.JSONKind(raw)))
	}
	if param == "function_call" {
		var fc struct {
			Name *string `json:"name"`
		}
		if err := decodeField(param, raw, &fc); err != nil {
			return err
		}
		if fc.Name == nil {
			return MissingParameter("function_call.name")
		}
		return r.forceTool("function", *fc.Name, param)
	}
	var tc wireToolChoice
	if err := decodeField(param, raw, &tc); err != nil {
		return err
	}
	switch tc.Type {
	case "":
		return MissingParameter("tool_choice.type")
	case "function":
		if tc.Function == nil {
			return MissingParameter("tool_choice.function")
		}
		return r.forceTool("function", tc.Function.Name, param)
	case "custom":
		if tc.Custom == nil {
			return MissingParameter("tool_choice.custom")
		}
		return r.forceTool("custom", tc.Custom.Name, param)
	case "allowed_tools":
		if tc.AllowedTools == nil {
			return MissingParameter("tool_choice.allowed_tools")
		}
		switch tc.AllowedTools.Mode {
		case "auto", "required":
			r.toolChoice = tc.AllowedTools.Mode
			return nil
		}
		return invalidRequest(http.StatusBadRequest, "invalid_value", "tool_choice.allowed_tools.mode",
			"Invalid value: '%s'. Supported values are: 'auto' and 'required'.", tc.AllowedTools.Mode)
	default:
		return invalidRequest(http.StatusBadRequest, "invalid_value", "tool_choice.type",
			"Invalid value: '%s'. Supported values are: 'function', 'custom', and 'allowed_tools'.", tc.Type)
	}
}

// forceTool records a tool_choice naming one tool, which tools must define.
func (r *ChatRequest) forceTool(typ, name, param string) *Error {
	if !r.offers(typ, name) {
		return invalidRequest(http.StatusBadRequest, "", param,
			"Invalid value for '%s': no %s named '%s' is defined in 'tools'.", param, typ, name)
	}
	r.toolChoice = name
	return nil
}

// wireResponseFormat is the response_format object.
type wireResponseFormat struct {
	Type       *string `json:"type"`
	JSONSchema *struct {
		Name        *string         `json:"name"`
		Description string          `json:"description"`
		Schema      json.RawMessage `json:"schema"`
		Strict      *bool           `json:"strict"`
	} `json:"json_schema"`
}

func (r *ChatRequest) decodeResponseFormat() *Error {
	if !present(r.ResponseFormat) {
		return nil
	}
	if k := provider.JSONKind(r.ResponseFormat); k != "object" {
		return InvalidType("response_format", "an object", describeJSONValue(k))
	}
	var f wireResponseFormat
	if err := decodeField("response_format", r.ResponseFormat, &f); err != nil {
		return err
	}
	if f.Type == nil {
		return MissingParameter("response_format.type")
	}
	switch *f.Type {
	case "text":
		return nil
	case "json_object":
		r.responseFormat = &scenario.ResponseFormat{Type: "json_object"}
		return nil
	case "json_schema":
	default:
		return invalidRequest(http.StatusBadRequest, "invalid_value", "response_format.type",
			"Invalid value: '%s'. Supported values are: 'text', 'json_object', and 'json_schema'.", *f.Type)
	}
	s := f.JSONSchema
	if s == nil {
		return MissingParameter("response_format.json_schema")
	}
	if s.Name == nil {
		return MissingParameter("response_format.json_schema.name")
	}
	if err := checkName("response_format.json_schema.name", *s.Name); err != nil {
		return err
	}
	rf := &scenario.ResponseFormat{Type: "json_schema", Name: *s.Name, Strict: s.Strict != nil && *s.Strict}
	if present(s.Schema) {
		if k := provider.JSONKind(s.Schema); k != "object" {
			return InvalidType("response_format.json_schema.schema", "an object", describeJSONValue(k))
		}
		rf.Schema = s.Schema
	}
	r.responseFormat = rf
	return nil
}

// maxChoices is the most choices one request may ask for: the real API
// refuses n above 128 (and below 1). Whether it has other limits (per model,
// or on n times max_tokens) is not confirmed, so none is enforced.
const maxChoices = 128

func (r *ChatRequest) validateN() *Error {
	switch {
	case r.N == nil:
		return nil
	case *r.N > maxChoices:
		return invalidRequest(http.StatusBadRequest, "integer_above_max_value", "n",
			"Invalid 'n': integer above maximum value. Expected a value <= %d, but got %d instead.", maxChoices, *r.N)
	case *r.N < 1:
		return invalidRequest(http.StatusBadRequest, "integer_below_min_value", "n",
			"Invalid 'n': integer below minimum value. Expected a value >= 1, but got %d instead.", *r.N)
	}
	return nil
}

func (r *ChatRequest) validateMaxTokens() *Error {
	if r.MaxTokens != nil && KindOf(r.Model) == KindReasoning {
		return invalidRequest(http.StatusBadRequest, "unsupported_parameter", "max_tokens",
			"Unsupported parameter: 'max_tokens' is not supported with this model. Use 'max_completion_tokens' instead.")
	}
	return nil
}

// validateMessageFields checks what a single message must carry: a
// tool_call_id on tool messages, and ids and well-formed names on tool calls.
func (r *ChatRequest) validateMessageFields() *Error {
	for i, m := range r.Messages {
		if m.Role == "tool" && m.ToolCallID == "" {
			return MissingParameter(fmt.Sprintf("messages[%d].tool_call_id", i))
		}
		for j, c := range m.ToolCalls {
			at := fmt.Sprintf("messages[%d].tool_calls[%d]", i, j)
			if c.ID == "" {
				return MissingParameter(at + ".id")
			}
			switch c.Type {
			case "custom":
				if c.Custom == nil {
					return MissingParameter(at + ".custom")
				}
				if err := checkName(at+".custom.name", c.Custom.Name); err != nil {
					return err
				}
			default:
				if err := checkName(at+".function.name", c.Function.Name); err != nil {
					return err
				}
			}
		}
	}
	return nil
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
			at := slices.Index(open, m.ToolCallID)
			if openAt < 0 || at < 0 && !answered(msgs[openAt], m.ToolCallID) {
				return invalidRequest(http.StatusBadRequest, "", fmt.Sprintf("messages.[%d].role", i),
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
	return invalidRequest(http.StatusBadRequest, "", fmt.Sprintf("messages.[%d].role", at),
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
