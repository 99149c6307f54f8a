package openai

import (
	"encoding/json"
	"errors"
	"net/http"
	"regexp"
	"strings"
	"unicode/utf8"

	"github.com/llmtestserver/llmtestserver/internal/provider"
)

// Validation helpers every API family of the codec uses: reading optional
// fields, decoding them with the API's invalid_type errors, names and
// their pattern, integer bounds and enumerations in the API's words.

// present reports whether a raw field was sent with a non-null value.
func present(raw json.RawMessage) bool {
	k := provider.JSONKind(raw)
	return k != "" && k != "null"
}

// decodeField decodes a raw field, turning type errors into the API's
// invalid_type naming the nested field.
func decodeField(param string, raw json.RawMessage, v any) *Error {
	err := json.Unmarshal(raw, v)
	if err == nil {
		return nil
	}
	var typeErr *json.UnmarshalTypeError
	if errors.As(err, &typeErr) && typeErr.Type != nil {
		switch {
		case typeErr.Field != "" && param == "":
			param = typeErr.Field
		case typeErr.Field != "":
			param += "." + typeErr.Field
		}
		return InvalidType(param, describeGoType(typeErr.Type.Kind().String()), describeJSONValue(typeErr.Value))
	}
	return InvalidType(param, "an object", describeJSONValue(provider.JSONKind(raw)))
}

// checkName applies the API's name rules to a function, tool or schema name.
func checkName(param, name string) *Error {
	if n := utf8.RuneCountInString(name); n > maxNameLength {
		return invalidRequest(http.StatusBadRequest, "string_above_max_length", param,
			"Invalid '%s': string too long. Expected a string with maximum length %d, but got a string with length %d instead.", param, maxNameLength, n)
	}
	if !namePattern.MatchString(name) {
		return invalidRequest(http.StatusBadRequest, "invalid_value", param,
			"Invalid '%s': string does not match pattern. Expected a string that matches the pattern '^[a-zA-Z0-9_-]+$'.", param)
	}
	return nil
}

func integerBelow(param string, minimum, got int64) *Error {
	return invalidRequest(http.StatusBadRequest, "integer_below_min_value", param,
		"Invalid '%s': integer below minimum value. Expected a value >= %d, but got %d instead.", param, minimum, got)
}

func invalidValue(param, value string, values []string) *Error {
	return invalidRequest(http.StatusBadRequest, "invalid_value", param,
		"Invalid value: '%s'. Supported values are: %s.", value, supported(values))
}

// supported words a list as the API's enum errors do: 'a', 'b', and 'c'
// (two values: 'a' and 'b'), as in "Supported values are: …".
func supported(values []string) string {
	q := make([]string, len(values))
	for i, v := range values {
		q[i] = "'" + v + "'"
	}
	switch len(q) {
	case 1:
		return q[0]
	case 2:
		return q[0] + " and " + q[1]
	}
	return strings.Join(q[:len(q)-1], ", ") + ", and " + q[len(q)-1]
}

// namePattern is the pattern the API applies to function, custom tool and
// schema names (https://platform.openai.com/docs/api-reference/chat/create).
var namePattern = regexp.MustCompile(`^[a-zA-Z0-9_-]+$`)

const maxNameLength = 64
