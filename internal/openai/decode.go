package openai

import (
	"bytes"
	"encoding/json"
	"errors"
)

// decodeBody decodes a JSON request body into v, translating decoder errors
// into the API's own: invalid JSON, or a field of the wrong type named in param.
// Unknown fields are ignored here: CheckChatParams and CheckResponsesParams
// refuse them first, as the real API does, when the session does not allow
// them.
func decodeBody(body []byte, v any) *Error {
	body = bytes.TrimSpace(body)
	if len(body) == 0 || body[0] != '{' {
		return InvalidJSON()
	}
	if err := json.Unmarshal(body, v); err != nil {
		var typeErr *json.UnmarshalTypeError
		if errors.As(err, &typeErr) && typeErr.Field != "" {
			return InvalidType(typeErr.Field, describeGoType(typeErr.Type.Kind().String()), describeJSONValue(typeErr.Value))
		}
		var partErr *contentError
		if errors.As(err, &partErr) {
			return partErr.apiError
		}
		return InvalidJSON()
	}
	return nil
}

func describeGoType(kind string) string {
	switch kind {
	case "string":
		return "a string"
	case "bool":
		return "a boolean"
	case "int", "int64", "int32":
		return "an integer"
	case "float64", "float32":
		return "a number"
	case "slice", "array":
		return "an array"
	default:
		return "an object"
	}
}

func describeJSONValue(v string) string {
	switch v {
	case "string":
		return "a string"
	case "number":
		return "a number"
	case "bool":
		return "a boolean"
	case "array":
		return "an array"
	case "object":
		return "an object"
	default:
		return v
	}
}

// contentError carries a precise API error out of a nested UnmarshalJSON.
type contentError struct{ apiError *Error }

func (e *contentError) Error() string { return e.apiError.Message }
