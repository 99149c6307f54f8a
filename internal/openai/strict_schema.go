package openai

import (
	"fmt"
	"net/http"
	"strings"

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

func mentionsJSON(s string) bool { return strings.Contains(strings.ToLower(s), "json") }
