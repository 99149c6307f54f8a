package openai

import (
	"fmt"
	"net/http"
	"slices"

	"github.com/llmtestserver/llmtestserver/internal/provider"
)

// responsesToolTypes are the tool types the Responses API takes (those
// openai-go v3.98.0's ToolUnionParam can send), in the order an invalid
// type's error lists them. The order, and that the real list is the same,
// are inferred.
var responsesToolTypes = []string{
	"function", "file_search", "computer", "computer_use_preview", "web_search", "web_search_2025_08_26",
	"mcp", "code_interpreter", "programmatic_tool_calling", "image_generation", "local_shell", "shell",
	"custom", "namespace", "tool_search", "web_search_preview", "web_search_preview_2025_03_11", "apply_patch",
}

// responsesToolRequired are the fields each hosted tool must carry, as
// openai-go marks them required (the real API's refusal of each one missing
// with missing_required_parameter is inferred).
var responsesToolRequired = map[string][]string{
	"file_search":          {"vector_store_ids"},
	"computer_use_preview": {"display_height", "display_width", "environment"},
	"mcp":                  {"server_label"},
	"code_interpreter":     {"container"},
	"custom":               {"name"},
	"namespace":            {"description", "name", "tools"},
}

// completionWindows are the completion windows of a background response,
// as openai-go lists them ("soonest" the default; "2h" and "8h" discounted).
var completionWindows = []string{"soonest", "2h", "8h"}

// validateResponsesRules checks what DecodeResponsesRequest's other checks
// leave: stream_options without stream, background without store, tool
// types and the hosted tools' required fields, image URLs of input parts,
// the model's own rules, strict schemas and the word json for json_object.
func (r *ResponsesRequest) validateResponsesRules(body []byte) *Error {
	if present(topMembers(body, "stream_options")["stream_options"]) && !r.Stream {
		// Chat Completions' wording (seen); the same on this API is inferred.
		return invalidRequest(http.StatusBadRequest, "", "stream_options",
			"The 'stream_options' parameter is only allowed when 'stream' is enabled.")
	}
	if r.Background && !r.Stores() {
		// A background response is fetched later, so it must be stored; the
		// wording is inferred.
		return invalidRequest(http.StatusBadRequest, "", "background",
			"Background responses require 'store' to be true: set 'store' to true or remove 'background'.")
	}
	if o := r.BackgroundOptions; o != nil && o.CompletionWindow != nil && !slices.Contains(completionWindows, *o.CompletionWindow) {
		return invalidValue("background_options.completion_window", *o.CompletionWindow, completionWindows)
	}
	for _, check := range []func() *Error{
		r.validateToolTypes, r.validateImageURLs, r.responsesModelRules,
		r.validateStrictSchemas, r.validateJSONWord,
	} {
		if err := check(); err != nil {
			return err
		}
	}
	return nil
}

// validateToolTypes refuses an unknown tool type, and a hosted tool
// without a field it needs.
func (r *ResponsesRequest) validateToolTypes() *Error {
	for i, t := range r.tools {
		at := fmt.Sprintf("tools[%d]", i)
		if !slices.Contains(responsesToolTypes, t.Type) {
			return invalidValue(at+".type", t.Type, responsesToolTypes)
		}
		need := responsesToolRequired[t.Type]
		if len(need) == 0 {
			continue
		}
		o, err := readObject(at, t.Raw, "an object")
		if err != nil {
			return err
		}
		for _, f := range need {
			if !o.has(f) {
				return MissingParameter(o.param(f))
			}
		}
	}
	return nil
}

// validateImageURLs checks the image_url of each input_image part of the
// input messages: an http(s) URL or a base64 data URL with an image MIME
// type, as the real API's "Invalid 'input[101].content[1].image_url'.
// Expected a base64-encoded data URL…" (seen) requires.
func (r *ResponsesRequest) validateImageURLs() *Error {
	for i, it := range r.inputItems() {
		for j, p := range it.Content {
			if p.Type != "input_image" || p.ImageURL == "" {
				continue
			}
			if reason := badImageURL(p.ImageURL); reason != "" {
				param := fmt.Sprintf("input[%d].content[%d].image_url", i, j)
				return invalidRequest(http.StatusBadRequest, "invalid_value", param, "Invalid '%s'. %s", param, reason)
			}
		}
	}
	return nil
}

// inputItems are the items of an input array in their positions; a string
// input has no parts to check.
func (r *ResponsesRequest) inputItems() []Item {
	if provider.JSONKind(r.Input) != "array" {
		return nil
	}
	return r.items
}

// responsesModelRules applies the model's rules to a Responses request:
//   - reasoning models refuse a temperature or top_p other than the
//     default, unless they answer at effort none: "Unsupported
//     parameter: 'temperature' is not supported with this model.", code
//     unsupported_parameter (seen for o-series models; that 1 passes, and
//     top_p worded the same, are inferred);
//   - other models refuse reasoning.effort: "Unsupported parameter:
//     'reasoning.effort' is not supported with this model.", code
//     unsupported_parameter (seen for gpt-4o);
//   - a reasoning model refuses an effort it does not take (checkEffort).
func (r *ResponsesRequest) responsesModelRules() *Error {
	kind, ok := catalogKind(r.Model)
	if !ok {
		return nil
	}
	if kind == KindReasoning {
		info, _ := familyOf(r.Model)
		if err := checkEffort(info, r.Model, r.effort(), true); err != nil {
			return err
		}
		if effectiveEffort(r.Model, r.effort()) == "none" {
			return nil // reasoning off: sampling as any chat model's
		}
		for _, p := range []struct {
			name string
			v    *float64
		}{{"temperature", r.Temperature}, {"top_p", r.TopP}} {
			if p.v != nil && *p.v != 1 {
				return unsupportedWithModel(p.name)
			}
		}
		return nil
	}
	if r.reasoning.Effort != nil {
		return unsupportedWithModel("reasoning.effort")
	}
	return nil
}

// validateStrictSchemas checks text.format and the function tools of a
// Responses request that say strict: true.
func (r *ResponsesRequest) validateStrictSchemas() *Error {
	if f := r.format; f != nil && f.Type == "json_schema" && f.Strict {
		if err := strictSchemaError("response_format", f.Name, "text.format.schema", "invalid_json_schema", f.Schema); err != nil {
			return err
		}
	}
	for i, t := range r.tools {
		if t.Type != "function" {
			continue
		}
		if err := strictToolError(t.Name, fmt.Sprintf("tools[%d].parameters", i), t.Strict, t.Parameters); err != nil {
			return err
		}
	}
	return nil
}

// validateJSONWord refuses text.format json_object without the word "json"
// in the input messages or the instructions. The wording and the param are
// inferred from Chat Completions' error (seen), and so is that the
// instructions count.
func (r *ResponsesRequest) validateJSONWord() *Error {
	if r.format == nil || r.format.Type != "json_object" {
		return nil
	}
	if mentionsJSON(r.Instructions) {
		return nil
	}
	for _, it := range r.items {
		if it.Type == "message" && mentionsJSON(it.Text()) {
			return nil
		}
	}
	if r.PreviousResponseID != "" || r.conversationID != "" || present(r.Prompt) {
		// The earlier turns may mention it; this server checks only what
		// the request itself carries.
		return nil
	}
	return invalidRequest(http.StatusBadRequest, "", "input",
		"Response input messages must contain the word 'json' in some form to use 'text.format' of type 'json_object'.")
}
