package openai

import (
	"encoding/json"
	"fmt"
	"net/http"

	"github.com/llmtestserver/llmtestserver/internal/provider"
)

// objectSpec is what the server knows of one JSON object of a request: its
// fields, and for some of them the spec of the value (an object, or each
// object of an array). An object whose shape depends on its "type" member
// picks its spec in byType instead; a type not listed there is not looked
// into.
type objectSpec struct {
	fields map[string]*objectSpec
	byType map[string]*objectSpec
	// defaultType is the type of an object that sends none.
	defaultType string
}

// fieldSpec is the spec of an object with these fields, none looked into.
func fieldSpec(names ...string) *objectSpec {
	s := &objectSpec{fields: make(map[string]*objectSpec, len(names))}
	for _, n := range names {
		s.fields[n] = nil
	}
	return s
}

// typedSpec is the spec of an object whose type member picks its fields.
func typedSpec(defaultType string, byType map[string]*objectSpec) *objectSpec {
	return &objectSpec{byType: byType, defaultType: defaultType}
}

// with looks into the value of field name with spec. It is used while the
// package's spec variables are built, and never after.
func (s *objectSpec) with(name string, spec *objectSpec) *objectSpec {
	if _, ok := s.fields[name]; !ok {
		panic("openai: spec of unlisted field " + name)
	}
	s.fields[name] = spec
	return s
}

// unknownParam is where a request carries a field the spec does not list.
type unknownParam struct {
	// top is the unknown top-level field's name, "" when the unknown field
	// is nested.
	top string
	// path is the field's param path: "foo", "input[3].status".
	path string
}

// findUnknown returns the first field of body, in document order, that
// spec does not list, or nil. A body that is not a JSON object, and values
// of the wrong JSON type, are left to the decoder's own errors.
func findUnknown(spec *objectSpec, body []byte) *unknownParam {
	var u *unknownParam
	spec.walk(&jsonWalker{b: body}, "", &u)
	return u
}

// walk checks the object at w against s, moving w past it; it sets *u and
// returns false at the first unknown field, and returns false as well on
// malformed input.
func (s *objectSpec) walk(w *jsonWalker, at string, u **unknownParam) bool {
	if w.peek() != '{' {
		_, ok := w.skipValue()
		return ok
	}
	spec := s
	if s.byType != nil {
		typ, ok := w.typeMember()
		if !ok {
			return false
		}
		if typ == nil {
			t := s.defaultType
			typ = &t
		}
		if spec = s.byType[*typ]; spec == nil {
			_, ok := w.skipValue()
			return ok
		}
	}
	return w.members(func(k string) bool {
		child, known := spec.fields[k]
		path := k
		if at != "" {
			path = at + "." + k
		}
		if !known {
			*u = &unknownParam{path: path}
			if at == "" {
				(*u).top = k
			}
			return false
		}
		switch {
		case child == nil:
		case w.peek() == '{':
			return child.walk(w, path, u)
		case w.peek() == '[':
			return w.elements(func(i int) bool {
				return child.walk(w, fmt.Sprintf("%s[%d]", path, i), u)
			})
		}
		_, ok := w.skipValue()
		return ok
	})
}

// typeMember reads the type member of the object at w without moving w:
// nil when there is none or it is null (the decoder reads a null type as
// none), "" when it is not a string.
func (w *jsonWalker) typeMember() (*string, bool) {
	probe := *w
	var typ *string
	ok := probe.members(func(k string) bool {
		v, ok := probe.skipValue()
		if ok && k == "type" && string(v) != "null" {
			t := ""
			_ = json.Unmarshal(v, &t) // a non-string type picks no spec
			typ = &t
		}
		return ok
	})
	return typ, ok
}

// CheckChatParams refuses a chat completion body that carries a field the
// API does not know, in the real API's words: a top-level one is
// "Unrecognized request argument supplied: X" without param or code (seen
// in real bodies), a nested one "Unknown parameter: 'messages[1].x'." with
// code unknown_parameter (seen for messages[].tool_calls[].index).
func CheckChatParams(body []byte) *Error {
	u := findUnknown(chatParams, body)
	switch {
	case u == nil:
		return nil
	case u.top != "":
		return invalidRequest(http.StatusBadRequest, "", "", "Unrecognized request argument supplied: %s", u.top)
	}
	return UnknownParameter(u.path)
}

// CheckResponsesParams refuses a POST /v1/responses body that carries a
// field the API does not know: "Unknown parameter: 'X'." with param X and
// code unknown_parameter, nested fields named by their whole path
// ('input[3].status'), as real bodies show them.
func CheckResponsesParams(body []byte) *Error {
	if u := findUnknown(responsesParams, body); u != nil {
		return UnknownParameter(u.path)
	}
	return nil
}

// CheckCompactParams refuses a POST /v1/responses/compact body that
// carries a field the API does not know, as CheckResponsesParams words it
// (inferred for this route).
func CheckCompactParams(body []byte) *Error {
	if u := findUnknown(compactParams, body); u != nil {
		return UnknownParameter(u.path)
	}
	return nil
}

// CheckMovedParams refuses the Chat Completions parameters the Responses API
// has moved, naming their new place as the real API does (with param null
// and code unsupported_parameter, as seen). It applies even when unknown
// parameters are allowed: no client means them for this endpoint.
func CheckMovedParams(body []byte) *Error {
	top := topMembers(body, "messages", "reasoning_effort", "response_format")
	for _, name := range []string{"messages", "reasoning_effort", "response_format"} {
		if present(top[name]) {
			return movedParam(name)
		}
	}
	return nil
}

// movedParam is the refusal of a Chat Completions parameter the Responses
// API has moved.
func movedParam(name string) *Error {
	return invalidRequest(http.StatusBadRequest, "unsupported_parameter", "",
		"Unsupported parameter: '%s'. In the Responses API, this parameter has moved to '%s'. Try again with the new parameter. See the API documentation for more information: https://platform.openai.com/docs/api-reference/responses/create.",
		name, responsesMovedParams[name])
}

// UnknownParameter answers a field the API does not know.
func UnknownParameter(path string) *Error {
	return invalidRequest(http.StatusBadRequest, "unknown_parameter", path, "Unknown parameter: '%s'.", path)
}

// refuseParams runs a route's parameter checks on body: moved (nil for
// none), which always applies, then unknown, unless the session allows
// unknown parameters. A body that is no valid JSON is left to the decoder
// that runs next: the real API reports a body it cannot parse as that,
// whatever fields come before the error.
func refuseParams(x *provider.Exchange, body []byte, moved, unknown func([]byte) *Error) *Error {
	if !json.Valid(body) {
		return nil
	}
	if moved != nil {
		if err := moved(body); err != nil {
			return err
		}
	}
	if x.Runtime.Settings().AllowUnknownParameters {
		return nil
	}
	return unknown(body)
}

// ParamStep is one step of the path to a field of a request body: the
// field's name, and the type member of the object that holds it ("" for
// an object without one).
type ParamStep struct {
	Type string
	Name string
}

// KnownParam reports whether the field at path is one the server knows,
// or lies in an object it does not look into; api is "chat" (Chat
// Completions), "responses" or "compact" (POST /v1/responses/compact).
// The tests check the SDKs' request types against the lists with it.
func KnownParam(api string, path []ParamStep) bool {
	spec := chatParams
	switch api {
	case "responses":
		spec = responsesParams
	case "compact":
		spec = compactParams
	}
	for _, step := range path {
		if spec.byType != nil {
			typ := step.Type
			if typ == "" {
				typ = spec.defaultType
			}
			if spec = spec.byType[typ]; spec == nil {
				return true
			}
		}
		child, known := spec.fields[step.Name]
		if !known {
			return false
		}
		if child == nil {
			return true
		}
		spec = child
	}
	return true
}
