package openai

import (
	"fmt"
	"net/http"

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
		if !contains(responsesToolTypes, t.Type) {
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
