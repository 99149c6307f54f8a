package admin

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"

	"github.com/llmtestserver/llmtestserver/internal/apierr"
)

// decodeBody reads a small JSON object of the admin API's own (a fork's
// name, a clock advance) into v: unknown fields, a wrong type, trailing
// data and anything but one object are refused with 400
// invalid_request_body, naming the field when there is one. An empty body
// leaves v as it is.
func decodeBody(body []byte, v any) *apierr.Error {
	if len(bytes.TrimSpace(body)) == 0 {
		return nil
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.DisallowUnknownFields()
	err := dec.Decode(v)
	if err == nil {
		if _, terr := dec.Token(); !errors.Is(terr, io.EOF) {
			return badBody("", "Invalid request body: trailing data after the JSON object.")
		}
		return nil
	}
	var typeErr *json.UnmarshalTypeError
	if errors.As(err, &typeErr) && typeErr.Field != "" {
		return badBody(typeErr.Field, "Invalid request body: %s: expected %s, got JSON %s.", typeErr.Field, typeErr.Type, typeErr.Value)
	}
	msg := strings.TrimPrefix(err.Error(), "json: ")
	if field, ok := strings.CutPrefix(msg, "unknown field "); ok {
		field = strings.Trim(field, `"`)
		return badBody(field, "Invalid request body: unknown field %q.", field)
	}
	return badBody("", "Invalid request body: want one JSON object: %s.", msg)
}

// badBody refuses a request body; param names the field, if any.
func badBody(param, format string, args ...any) *apierr.Error {
	return &apierr.Error{Status: http.StatusBadRequest, Code: "invalid_request_body", Param: param,
		Message: fmt.Sprintf(format, args...)}
}
