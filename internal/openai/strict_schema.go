package openai

import (
	"fmt"
	"net/http"

	"github.com/llmtestserver/llmtestserver/internal/jsonschema"
)

// Strict schemas: a json_schema response format or a function tool with
// strict: true must follow the rules of strict mode (internal/jsonschema's
// CheckStrict), or the API refuses the request with 400 "Invalid schema for
// response_format 'NAME': In context=(...), ..." or "Invalid schema for
// function 'NAME': ...". Params and codes as seen in real bodies:
// response_format with code null on Chat Completions, text.format.schema
// with invalid_json_schema on the Responses API, and
// tools[i].function.parameters (chat) or tools[i].parameters (Responses)
// with invalid_function_parameters.
//
// A Responses function tool without strict is not refused: the API
// documents that it then makes the schema strict when it can and falls
// back to best-effort calling when it cannot.

func strictSchemaError(what, name, param, code string, schema []byte) *Error {
	p := jsonschema.CheckStrict(schema)
	if p == nil {
		return nil
	}
	msg := fmt.Sprintf("Invalid schema for %s '%s': ", what, name)
	if p.Root {
		msg += p.Problem
	} else {
		msg += "In context=" + p.ContextString() + ", " + p.Problem
	}
	return invalidRequest(http.StatusBadRequest, code, param, "%s", msg)
}

// emptyObjectSchema stands for a function without parameters, which the API
// takes as an object schema without properties.
var emptyObjectSchema = []byte(`{"type":"object","properties":{},"additionalProperties":false,"required":[]}`)

// validateStrictSchemas checks the strict response format and the strict
// function tools of a chat request.
func (r *ChatRequest) validateStrictSchemas() *Error {
	if rf := r.responseFormat; rf != nil && rf.Type == "json_schema" && rf.Strict && len(rf.Schema) > 0 {
		if err := strictSchemaError("response_format", rf.Name, "response_format", "", rf.Schema); err != nil {
			return err
		}
	}
	for i, t := range r.Tools {
		if f := t.Function; t.Type == "function" && f != nil {
			if err := strictToolError(f.Name, fmt.Sprintf("tools[%d].function.parameters", i), f.Strict, f.Parameters); err != nil {
				return err
			}
		}
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

// strictToolError checks the parameters of function tool name, at param,
// when strict says strict: true; parameters left out stand for an object
// without properties.
func strictToolError(name, param string, strict *bool, parameters []byte) *Error {
	if strict == nil || !*strict {
		return nil
	}
	if len(parameters) == 0 {
		parameters = emptyObjectSchema
	}
	return strictSchemaError("function", name, param, "invalid_function_parameters", parameters)
}
