package openai

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"

	"github.com/llmtestserver/llmtestserver/internal/provider"
	"github.com/llmtestserver/llmtestserver/scenario"
)

// ResponsesRequest is the body of POST /v1/responses as openai-go
// (ResponseNewParams) and go-openai (CreateResponseRequest) send it. Fields
// whose JSON shape varies (input, tools, tool_choice, text, conversation,
// reasoning) are kept raw and read through methods once
// DecodeResponsesRequest has checked them. Unknown fields are refused
// before decoding (CheckResponsesParams), as the real API refuses them,
// unless the session allows them for SDK versions newer than the server.
type ResponsesRequest struct {
	Model        string          `json:"model"`
	Input        json.RawMessage `json:"input"`
	Instructions string          `json:"instructions"`

	Tools             []json.RawMessage `json:"tools"`
	ToolChoice        json.RawMessage   `json:"tool_choice"`
	ParallelToolCalls *bool             `json:"parallel_tool_calls"`
	Text              json.RawMessage   `json:"text"`

	PreviousResponseID string          `json:"previous_response_id"`
	Conversation       json.RawMessage `json:"conversation"`
	Prompt             json.RawMessage `json:"prompt"`
	Store              *bool           `json:"store"`
	Background         bool            `json:"background"`
	// BackgroundOptions are a background response's completion window
	// and continuation ID (openai-go v3.101.0).
	BackgroundOptions *struct {
		CompletionWindow *string `json:"completion_window"`
		ContinuationID   *string `json:"continuation_id"`
	} `json:"background_options"`
	Stream bool `json:"stream"`
	// StreamOptions says whether stream deltas carry obfuscation padding.
	StreamOptions *responsesStreamOptions `json:"stream_options"`

	MaxOutputTokens *int64   `json:"max_output_tokens"`
	MaxToolCalls    *int64   `json:"max_tool_calls"`
	Temperature     *float64 `json:"temperature"`
	TopP            *float64 `json:"top_p"`
	TopLogprobs     *int64   `json:"top_logprobs"`

	Reasoning            json.RawMessage   `json:"reasoning"`
	Truncation           string            `json:"truncation"`
	Include              []string          `json:"include"`
	ServiceTier          string            `json:"service_tier"`
	PromptCacheKey       string            `json:"prompt_cache_key"`
	PromptCacheRetention string            `json:"prompt_cache_retention"`
	User                 string            `json:"user"`
	SafetyIdentifier     string            `json:"safety_identifier"`
	Metadata             map[string]string `json:"metadata"`

	// Messages is Chat Completions' field; the API refuses it here with a
	// hint to use input.
	Messages json.RawMessage `json:"messages"`

	// Filled by DecodeResponsesRequest from the raw fields above.
	items          []Item
	tools          []responsesTool
	toolChoice     string
	format         *scenario.ResponseFormat
	conversationID string
	reasoning      responsesReasoning
	verbosity      string
}

// responsesTool is one checked element of tools: a function tool with its
// fields read, or any other tool kept as sent.
type responsesTool struct {
	Type        string
	Name        string
	Description *string
	Parameters  json.RawMessage
	Strict      *bool
	Raw         json.RawMessage
}

type responsesReasoning struct {
	Effort  *string `json:"effort"`
	Summary *string `json:"summary"`
}

// minOutputTokens is the smallest max_output_tokens the API accepts.
const minOutputTokens = 16

// responsesItemTypes are the input item types the API knows, in the order
// its invalid_value error lists them. Only message, function_call,
// function_call_output and item_reference are modelled; the others are kept
// as sent.
var responsesItemTypes = []string{
	"additional_tools", "agent_message", "apply_patch_call", "apply_patch_call_output",
	"code_interpreter_call", "compaction", "compaction_trigger", "computer_call",
	"computer_call_output", "custom_tool_call", "custom_tool_call_output", "file_search_call",
	"function_call", "function_call_output", "image_generation_call", "item_reference",
	"local_shell_call", "local_shell_call_output", "mcp_approval_request", "mcp_approval_response",
	"mcp_call", "mcp_list_tools", "message", "multi_agent_call", "multi_agent_call_output",
	"program", "program_output", "reasoning", "shell_call", "shell_call_output",
	"tool_search_call", "tool_search_output", "web_search_call",
}

var (
	responsesRoles     = []string{"assistant", "system", "developer", "user"}
	contentPartTypes   = []string{"input_text", "input_image", "input_audio", "output_text", "refusal", "input_file", "computer_screenshot", "summary_text", "encrypted_content"}
	inputPartTypes     = []string{"input_text", "input_image", "input_file", "scoped_content", "input_audio"}
	assistantPartTypes = []string{"output_text", "refusal"}
	outputPartTypes    = []string{"input_text", "input_image", "input_file"}
)

// DecodeResponsesRequest decodes and validates a POST /v1/responses body the
// way the real API does, before any model lookup or history access. The
// checks, in order: JSON shape and field types; model present; no Chat
// messages field; input present and well formed, item by item; tools;
// tool_choice; text.format and text.verbosity; reasoning; enums and
// bounds (truncation, max_output_tokens, max_tool_calls, metadata size,
// temperature, top_p, top_logprobs, prompt_cache_retention); conversation
// shape and its exclusion with previous_response_id; an empty input
// without anything to continue; and the rules of responses_rules.go
// (stream_options, background, tool types, image URLs, the model's own
// rules, strict schemas, the word json for json_object).
func DecodeResponsesRequest(body []byte) (*ResponsesRequest, *Error) {
	var req ResponsesRequest
	if err := decodeBody(body, &req); err != nil {
		return nil, err
	}
	if err := checkResponsesModel(body, req.Model); err != nil {
		return nil, err
	}
	if present(req.Messages) {
		return nil, movedParam("messages")
	}
	if req.Input == nil {
		return nil, MissingParameter("input")
	}
	for _, check := range []func() *Error{
		req.decodeInput, req.decodeTools, req.decodeToolChoice, req.decodeText,
		req.decodeReasoning, req.validateBounds, req.decodeConversation,
	} {
		if err := check(); err != nil {
			return nil, err
		}
	}
	if len(req.items) == 0 && req.PreviousResponseID == "" && req.conversationID == "" && !present(req.Prompt) {
		return nil, invalidRequest(http.StatusBadRequest, "missing_required_parameter", "",
			`One of "input" or "previous_response_id" or 'prompt' or 'conversation' must be provided.`)
	}
	if err := req.validateResponsesRules(body); err != nil {
		return nil, err
	}
	return &req, nil
}

// decodeInput reads input: a string is one user message; an array holds
// items, each checked where the API checks it.
func (r *ResponsesRequest) decodeInput() *Error {
	switch k := provider.JSONKind(r.Input); k {
	case "string":
		var s string
		_ = json.Unmarshal(r.Input, &s) // a JSON string always decodes
		if s != "" {
			r.items = []Item{{Type: "message", Role: "user", Content: []ItemPart{{Type: "input_text", Text: s}}}}
		}
		return nil
	case "array":
	default:
		return InvalidType("input", "one of a string or array of input items", describeJSONValue(k))
	}
	var raw []json.RawMessage
	if err := json.Unmarshal(r.Input, &raw); err != nil {
		return InvalidType("input", "one of a string or array of input items", "another value")
	}
	r.items = make([]Item, 0, len(raw))
	for i, data := range raw {
		it, err := decodeItem(fmt.Sprintf("input[%d]", i), data)
		if err != nil {
			return err
		}
		r.items = append(r.items, it)
	}
	return nil
}

// rawObject is a JSON object read member by member, so that each member's
// type and presence can be checked with the API's own param paths.
type rawObject struct {
	at      string
	members map[string]json.RawMessage
}

func readObject(at string, data json.RawMessage, want string) (rawObject, *Error) {
	o := rawObject{at: at}
	if k := provider.JSONKind(data); k != "object" {
		return o, InvalidType(at, want, describeJSONValue(k))
	}
	if err := json.Unmarshal(data, &o.members); err != nil {
		return o, InvalidType(at, want, "another value")
	}
	return o, nil
}

func (o rawObject) param(key string) string { return o.at + "." + key }

// has reports whether key was sent with a non-null value.
func (o rawObject) has(key string) bool { return present(o.members[key]) }

// str reads an optional string member; null counts as absent.
func (o rawObject) str(key string) (string, *Error) {
	v, ok := o.members[key]
	if !ok || provider.JSONKind(v) == "null" {
		return "", nil
	}
	var s string
	if provider.JSONKind(v) != "string" || json.Unmarshal(v, &s) != nil {
		return "", InvalidType(o.param(key), "a string", describeJSONValue(provider.JSONKind(v)))
	}
	return s, nil
}

// required reads a string member that must be present.
func (o rawObject) required(key string) (string, *Error) {
	if !o.has(key) {
		return "", MissingParameter(o.param(key))
	}
	return o.str(key)
}

// checkItemID applies the API's prefix rule to a client-chosen item ID.
func checkItemID(param, id, prefix string) *Error {
	if id == "" || strings.HasPrefix(id, prefix) {
		return nil
	}
	return invalidRequest(http.StatusBadRequest, "invalid_value", param,
		"Invalid '%s': '%s'. Expected an ID that begins with '%s'.", param, id, prefix)
}

// decodeItem reads one element of an input array.
func decodeItem(at string, data json.RawMessage) (Item, *Error) {
	if k := provider.JSONKind(data); k != "object" {
		return Item{}, InvalidType(at, "an input item", describeJSONValue(k))
	}
	o, err := readObject(at, data, "an input item")
	if err != nil {
		return Item{}, err
	}
	typ := untypedItem(o)
	if t, ok := o.members["type"]; ok {
		typ = ""
		_ = json.Unmarshal(t, &typ) // a non-string type reads as '', as the API reports it
	}
	if !slices.Contains(responsesItemTypes, typ) {
		return Item{}, invalidValue(at, typ, responsesItemTypes)
	}
	it := Item{Type: typ}
	if it.ID, err = o.str("id"); err != nil {
		return it, err
	}
	if it.Status, err = o.str("status"); err != nil {
		return it, err
	}
	switch typ {
	case "message":
		err = decodeMessageItem(o, &it)
	case "function_call":
		if err = checkItemID(o.param("id"), it.ID, "fc"); err != nil {
			return it, err
		}
		if it.CallID, err = o.required("call_id"); err != nil {
			return it, err
		}
		if it.Name, err = o.required("name"); err != nil {
			return it, err
		}
		if it.Namespace, err = o.str("namespace"); err != nil {
			return it, err
		}
		it.Arguments, err = o.required("arguments")
	case "function_call_output":
		if err = checkItemID(o.param("id"), it.ID, "fc"); err != nil {
			return it, err
		}
		if err = decodeOutputCaller(o, &it); err != nil {
			return it, err
		}
		err = decodeCallOutput(o, &it)
	case "item_reference":
		_, err = o.required("id")
	case "reasoning":
		err = decodeReasoningItem(o)
		it.Raw = bytes.Clone(data)
	case "compaction":
		err = decodeCompactionItem(o)
		it.Raw = bytes.Clone(data)
	default:
		it.Raw = bytes.Clone(data)
	}
	return it, err
}

func decodeMessageItem(o rawObject, it *Item) *Error {
	role, _ := o.str("role") // a non-string role reads as '' below
	if !slices.Contains(responsesRoles, role) {
		return invalidValue(o.at, role, responsesRoles)
	}
	it.Role = role
	if err := checkItemID(o.param("id"), it.ID, "msg"); err != nil {
		return err
	}
	content := o.members["content"]
	switch provider.JSONKind(content) {
	case "", "null":
		return MissingParameter(o.param("content"))
	case "string":
		var s string
		_ = json.Unmarshal(content, &s)
		typ := "input_text"
		if role == "assistant" {
			typ = "output_text"
		}
		it.Content = []ItemPart{{Type: typ, Text: s}}
		return nil
	case "array":
	default:
		return InvalidType(o.param("content"), "one of a string or array of input content parts", describeJSONValue(provider.JSONKind(content)))
	}
	allowed := inputPartTypes
	if role == "assistant" {
		allowed = assistantPartTypes
	}
	parts, err := decodeParts(o.param("content"), content, allowed)
	it.Content = parts
	return err
}

// decodeCallOutput reads a function_call_output's output: a string, or an
// array of input_text, input_image and input_file parts.
func decodeCallOutput(o rawObject, it *Item) *Error {
	out := o.members["output"]
	switch provider.JSONKind(out) {
	case "", "null":
		return MissingParameter(o.param("output"))
	case "string":
		_ = json.Unmarshal(out, &it.Output)
		return nil
	case "array":
		parts, err := decodeParts(o.param("output"), out, outputPartTypes)
		if err != nil {
			return err
		}
		it.OutputParts = parts
		it.Output = joinText(parts)
		return nil
	default:
		return InvalidType(o.param("output"), "one of a string or array of content parts", describeJSONValue(provider.JSONKind(out)))
	}
}

// decodeParts reads an array of content parts; allowed lists the part types
// this position takes.
func decodeParts(at string, data json.RawMessage, allowed []string) ([]ItemPart, *Error) {
	var raw []json.RawMessage
	if err := json.Unmarshal(data, &raw); err != nil {
		return nil, InvalidType(at, "an array of content parts", "another value")
	}
	parts := make([]ItemPart, 0, len(raw))
	for j, r := range raw {
		pat := fmt.Sprintf("%s[%d]", at, j)
		o, err := readObject(pat, r, "a content part")
		if err != nil {
			return nil, err
		}
		typ, _ := o.str("type") // a non-string type reads as ''
		if !slices.Contains(contentPartTypes, typ) {
			return nil, invalidValue(o.param("type"), typ, contentPartTypes)
		}
		if !slices.Contains(allowed, typ) {
			return nil, invalidValue(pat, typ, allowed)
		}
		p := ItemPart{Type: typ}
		switch typ {
		case "input_text", "output_text":
			p.Text, err = o.required("text")
		case "refusal":
			p.Text, err = o.required("refusal")
		case "input_image":
			if p.ImageURL, err = o.str("image_url"); err == nil {
				if p.FileID, err = o.str("file_id"); err == nil {
					p.Detail, err = o.str("detail")
				}
			}
		case "input_file":
			if p.FileID, err = o.str("file_id"); err == nil {
				if p.Filename, err = o.str("filename"); err == nil {
					if p.FileData, err = o.str("file_data"); err == nil {
						p.FileURL, err = o.str("file_url")
					}
				}
			}
		default:
			p.Raw = bytes.Clone(r)
		}
		if err != nil {
			return nil, err
		}
		parts = append(parts, p)
	}
	return parts, nil
}

func (r *ResponsesRequest) decodeTools() *Error {
	for i, raw := range r.Tools {
		at := fmt.Sprintf("tools[%d]", i)
		o, err := readObject(at, raw, "an object")
		if err != nil {
			return err
		}
		if !o.has("type") {
			return MissingParameter(o.param("type"))
		}
		typ, err := o.str("type")
		if err != nil {
			return err
		}
		t := responsesTool{Type: typ, Raw: bytes.Clone(raw)}
		if typ == "function" {
			if t.Name, err = o.required("name"); err != nil {
				return err
			}
			if err := checkName(o.param("name"), t.Name); err != nil {
				return err
			}
			if o.has("description") {
				d, err := o.str("description")
				if err != nil {
					return err
				}
				t.Description = &d
			}
			if o.has("parameters") {
				t.Parameters = bytes.Clone(o.members["parameters"])
				if k := provider.JSONKind(t.Parameters); k != "object" {
					return InvalidType(o.param("parameters"), "an object", describeJSONValue(k))
				}
			}
			if o.has("strict") {
				var s bool
				if provider.JSONKind(o.members["strict"]) != "bool" || json.Unmarshal(o.members["strict"], &s) != nil {
					return InvalidType(o.param("strict"), "a boolean", describeJSONValue(provider.JSONKind(o.members["strict"])))
				}
				t.Strict = &s
			}
		}
		r.tools = append(r.tools, t)
	}
	return nil
}

// decodeToolChoice reads tool_choice into the normalized choice: "auto",
// "none", "required", the forced function's name, or the allowed_tools
// mode. Choices of hosted tools normalize to "".
func (r *ResponsesRequest) decodeToolChoice() *Error {
	const want = "one of an object or 'none', 'auto', or 'required'"
	switch k := provider.JSONKind(r.ToolChoice); k {
	case "", "null":
		return nil
	case "string":
		var s string
		_ = json.Unmarshal(r.ToolChoice, &s)
		if s != "none" && s != "auto" && s != "required" {
			return invalidValue("tool_choice", s, []string{"none", "auto", "required"})
		}
		r.toolChoice = s
		return nil
	case "object":
	default:
		return InvalidType("tool_choice", want, describeJSONValue(k))
	}
	o, err := readObject("tool_choice", r.ToolChoice, want)
	if err != nil {
		return err
	}
	typ, err := o.required("type")
	if err != nil {
		return err
	}
	switch typ {
	case "function":
		name, err := o.required("name")
		if err != nil {
			return err
		}
		r.toolChoice = name
	case "allowed_tools":
		mode, err := o.required("mode")
		if err != nil {
			return err
		}
		if mode != "auto" && mode != "required" {
			return invalidValue(o.param("mode"), mode, []string{"auto", "required"})
		}
		r.toolChoice = mode
	}
	return nil
}

// decodeText reads text.format into the normalized format and checks
// text.verbosity.
func (r *ResponsesRequest) decodeText() *Error {
	if !present(r.Text) {
		return nil
	}
	o, err := readObject("text", r.Text, "an object")
	if err != nil {
		return err
	}
	if r.verbosity, err = o.str("verbosity"); err != nil {
		return err
	}
	if r.verbosity != "" && !slices.Contains([]string{"low", "medium", "high"}, r.verbosity) {
		return invalidValue("text.verbosity", r.verbosity, []string{"low", "medium", "high"})
	}
	if !o.has("format") {
		return nil
	}
	f, err := readObject("text.format", o.members["format"], "an object")
	if err != nil {
		return err
	}
	typ, err := f.required("type")
	if err != nil {
		return err
	}
	switch typ {
	case "text":
		return nil
	case "json_object":
		r.format = &scenario.ResponseFormat{Type: "json_object"}
		return nil
	case "json_schema":
	default:
		return invalidValue("text.format.type", typ, []string{"json_object", "text", "json_schema"})
	}
	name, err := f.required("name")
	if err != nil {
		return err
	}
	if err := checkName("text.format.name", name); err != nil {
		return err
	}
	if !f.has("schema") {
		return MissingParameter("text.format.schema")
	}
	schema := f.members["schema"]
	if k := provider.JSONKind(schema); k != "object" {
		return InvalidType("text.format.schema", "an object", describeJSONValue(k))
	}
	rf := &scenario.ResponseFormat{Type: "json_schema", Name: name, Schema: bytes.Clone(schema)}
	if f.has("strict") {
		if err := decodeField("text.format.strict", f.members["strict"], &rf.Strict); err != nil {
			return err
		}
	}
	r.format = rf
	return nil
}

func (r *ResponsesRequest) decodeReasoning() *Error {
	if !present(r.Reasoning) {
		return nil
	}
	if k := provider.JSONKind(r.Reasoning); k != "object" {
		return InvalidType("reasoning", "an object", describeJSONValue(k))
	}
	return decodeField("reasoning", r.Reasoning, &r.reasoning)
}

// validateBounds checks the enums and numeric ranges the API checks.
func (r *ResponsesRequest) validateBounds() *Error {
	if r.Truncation != "" && r.Truncation != "auto" && r.Truncation != "disabled" {
		return invalidValue("truncation", r.Truncation, []string{"auto", "disabled"})
	}
	if p := r.PromptCacheRetention; p != "" && p != "in_memory" && p != "24h" {
		return invalidValue("prompt_cache_retention", p, []string{"in_memory", "24h"})
	}
	if n := r.MaxOutputTokens; n != nil && *n < minOutputTokens {
		return integerBelow("max_output_tokens", minOutputTokens, *n)
	}
	if n := r.MaxToolCalls; n != nil && *n < 1 {
		return integerBelow("max_tool_calls", 1, *n)
	}
	if n := r.TopLogprobs; n != nil {
		if *n < 0 {
			return integerBelow("top_logprobs", 0, *n)
		}
		if *n > 20 {
			return invalidRequest(http.StatusBadRequest, "integer_above_max_value", "top_logprobs",
				"Invalid 'top_logprobs': integer above maximum value. Expected a value <= 20, but got %d instead.", *n)
		}
	}
	if err := checkMetadata(r.Metadata); err != nil {
		return err
	}
	if err := decimalRange("temperature", r.Temperature, 2); err != nil {
		return err
	}
	return decimalRange("top_p", r.TopP, 1)
}

func decimalRange(param string, v *float64, maximum float64) *Error {
	switch {
	case v == nil:
		return nil
	case *v < 0:
		return invalidRequest(http.StatusBadRequest, "decimal_below_min_value", param,
			"Invalid '%s': decimal below minimum value. Expected a value >= 0, but got %g instead.", param, *v)
	case *v > maximum:
		return invalidRequest(http.StatusBadRequest, "decimal_above_max_value", param,
			"Invalid '%s': decimal above maximum value. Expected a value <= %g, but got %g instead.", param, maximum, *v)
	}
	return nil
}

// decodeConversation reads conversation ("conv_…" or {id}) and refuses it
// beside previous_response_id, as the API documents the two as exclusive.
func (r *ResponsesRequest) decodeConversation() *Error {
	switch k := provider.JSONKind(r.Conversation); k {
	case "", "null":
		return nil
	case "string":
		_ = json.Unmarshal(r.Conversation, &r.conversationID)
	case "object":
		o, err := readObject("conversation", r.Conversation, "an object")
		if err != nil {
			return err
		}
		if r.conversationID, err = o.required("id"); err != nil {
			return err
		}
	default:
		return InvalidType("conversation", "one of a string or an object", describeJSONValue(k))
	}
	if r.conversationID != "" && r.PreviousResponseID != "" {
		return conversationExclusive()
	}
	return nil
}

// ConversationID is the conversation the request names, "" when none.
func (r *ResponsesRequest) ConversationID() string { return r.conversationID }

// Format is the structured-output format of text.format, or nil for text.
func (r *ResponsesRequest) Format() *scenario.ResponseFormat { return r.format }

// Stores reports whether the response is to be stored: store defaults to
// true on the Responses API.
func (r *ResponsesRequest) Stores() bool { return r.Store == nil || *r.Store }

// checkResponsesModel refuses a Responses body (or a compact body) whose
// model is missing, null or empty; model is what the body decoded to.
func checkResponsesModel(body []byte, model string) *Error {
	var probe struct {
		Model json.RawMessage `json:"model"`
	}
	_ = json.Unmarshal(bytes.TrimSpace(body), &probe) // the caller has parsed the same bytes
	switch {
	case probe.Model == nil:
		return MissingParameter("model")
	case provider.JSONKind(probe.Model) == "null":
		return InvalidType("model", "a string", "null")
	case model == "":
		return ResponsesModelNotFound("", nil, false)
	}
	return nil
}
