package anthropic

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/llmtestserver/llmtestserver/internal/apierr"
	"github.com/llmtestserver/llmtestserver/internal/provider"
	"github.com/llmtestserver/llmtestserver/scenario"
)

// The real API validates bodies with pydantic and reports the first failure
// as "<dotted path>: <pydantic message>"; the helpers below say the same
// things in the same form. The pydantic wordings are those pydantic v2
// prints; which of them the API surfaces for a given field is inferred.

// invalid is a 400 invalid_request_error about param.
func invalid(param, format string, args ...any) *apierr.Error {
	return &apierr.Error{Kind: scenario.ErrorInvalidRequest, Status: 400, Type: typeInvalidRequest,
		Param: param, Message: fmt.Sprintf(format, args...)}
}

// fieldError is "<path>: <message>", the shape of every field error.
func fieldError(path, message string) *apierr.Error {
	return invalid(path, "%s: %s", path, message)
}

func missing(path string) *apierr.Error { return fieldError(path, "Field required") }

// absent reports whether an optional field was left out or sent as null,
// which pydantic treats alike for optional fields.
func absent(raw json.RawMessage) bool {
	k := provider.JSONKind(raw)
	return k == "" || k == "null"
}

// object decodes raw as a JSON object into its fields.
func object(path string, raw json.RawMessage) (map[string]json.RawMessage, *apierr.Error) {
	if provider.JSONKind(raw) != "object" {
		return nil, fieldError(path, "Input should be a valid dictionary")
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(raw, &m); err != nil {
		return nil, fieldError(path, "Input should be a valid dictionary")
	}
	return m, nil
}

// list decodes raw as a JSON array.
func list(path string, raw json.RawMessage) ([]json.RawMessage, *apierr.Error) {
	if provider.JSONKind(raw) != "array" {
		return nil, fieldError(path, "Input should be a valid list")
	}
	var l []json.RawMessage
	if err := json.Unmarshal(raw, &l); err != nil {
		return nil, fieldError(path, "Input should be a valid list")
	}
	if l == nil {
		l = []json.RawMessage{}
	}
	return l, nil
}

func str(path string, raw json.RawMessage) (string, *apierr.Error) {
	var s string
	if provider.JSONKind(raw) != "string" || json.Unmarshal(raw, &s) != nil {
		return "", fieldError(path, "Input should be a valid string")
	}
	return s, nil
}

// optStr is an optional string: "" when absent or null.
func optStr(path string, raw json.RawMessage) (string, *apierr.Error) {
	if absent(raw) {
		return "", nil
	}
	return str(path, raw)
}

func boolean(path string, raw json.RawMessage) (bool, *apierr.Error) {
	switch strings.TrimSpace(string(raw)) {
	case "true":
		return true, nil
	case "false":
		return false, nil
	}
	return false, fieldError(path, "Input should be a valid boolean")
}

// optBool is an optional boolean: false when absent or null.
func optBool(path string, raw json.RawMessage) (bool, *apierr.Error) {
	if absent(raw) {
		return false, nil
	}
	return boolean(path, raw)
}

// integer accepts a JSON number with no fractional part, as pydantic does
// (1.0 is 1).
func integer(path string, raw json.RawMessage) (int64, *apierr.Error) {
	if provider.JSONKind(raw) != "number" {
		return 0, fieldError(path, "Input should be a valid integer")
	}
	s := strings.TrimSpace(string(raw))
	if n, err := strconv.ParseInt(s, 10, 64); err == nil {
		return n, nil
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsInf(f, 0) || f != math.Trunc(f) || math.Abs(f) >= 1<<63 {
		return 0, fieldError(path, "Input should be a valid integer, got a number with a fractional part")
	}
	return int64(f), nil
}

// literal checks that s is one of allowed, with pydantic's message.
func literal(path, s string, allowed ...string) *apierr.Error {
	for _, a := range allowed {
		if s == a {
			return nil
		}
	}
	return fieldError(path, "Input should be "+quoteList(allowed))
}

// quoteList is pydantic's "'a', 'b' or 'c'".
func quoteList(items []string) string {
	q := make([]string, len(items))
	for i, s := range items {
		q[i] = "'" + s + "'"
	}
	if len(q) == 1 {
		return q[0]
	}
	return strings.Join(q[:len(q)-1], ", ") + " or " + q[len(q)-1]
}

// tag reads the "type" discriminator of a tagged union and checks it
// against the expected tags, with pydantic's discriminated-union messages.
func tag(path string, m map[string]json.RawMessage, expected ...string) (string, *apierr.Error) {
	raw, ok := m["type"]
	if !ok {
		return "", fieldError(path, "Unable to extract tag using discriminator 'type'")
	}
	t, err := str(path+".type", raw)
	if err != nil {
		return "", err
	}
	if expected == nil {
		return t, nil
	}
	for _, e := range expected {
		if t == e {
			return t, nil
		}
	}
	q := make([]string, len(expected))
	for i, e := range expected {
		q[i] = "'" + e + "'"
	}
	return "", fieldError(path, fmt.Sprintf("Input tag '%s' found using 'type' does not match any of the expected tags: %s",
		t, strings.Join(q, ", ")))
}

// compactJSON is raw without insignificant whitespace.
func compactJSON(raw json.RawMessage) string {
	var b bytes.Buffer
	if json.Compact(&b, raw) != nil {
		return string(raw)
	}
	return b.String()
}

// invalidBody answers a body that does not parse: the real API says "The
// request body is not valid JSON: <parser message>: line L column C (char
// O)"; its parser's messages are Python's, ours are Go's (inferred).
func invalidBody(body []byte, err error) *apierr.Error {
	offset := int64(len(body))
	msg := err.Error()
	if se, ok := err.(*json.SyntaxError); ok {
		// Go's offset is just past the offending byte; Python's "char" is
		// the byte itself, or the end of the input when it ran out.
		offset = se.Offset
		if offset > 0 && offset <= int64(len(body)) && !strings.Contains(msg, "end of JSON input") {
			offset--
		}
	}
	if offset > int64(len(body)) {
		offset = int64(len(body))
	}
	line, col := 1, 1
	for _, c := range body[:offset] {
		if c == '\n' {
			line, col = line+1, 1
		} else {
			col++
		}
	}
	e := InvalidJSON()
	e.Message = fmt.Sprintf("The request body is not valid JSON: %s: line %d column %d (char %d)", msg, line, col, offset)
	return e
}
