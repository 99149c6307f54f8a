package openai

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
)

// Error is an API error in OpenAI's envelope:
// {"error":{"message","type","param","code"}}. Empty Param and Code encode as
// null, as the real API sends them. See
// https://platform.openai.com/docs/guides/error-codes for the catalogue the
// constructors below imitate.
type Error struct {
	Status  int
	Type    string
	Code    string
	Param   string
	Message string
	// Header holds extra response headers, such as Retry-After.
	Header http.Header
}

// Error implements error.
func (e *Error) Error() string {
	if e.Code != "" {
		return fmt.Sprintf("%d %s: %s", e.Status, e.Code, e.Message)
	}
	return fmt.Sprintf("%d %s: %s", e.Status, e.Type, e.Message)
}

// JournalCode is what the journal records for e: its code, else its type.
func (e *Error) JournalCode() string {
	if e.Code != "" {
		return e.Code
	}
	return e.Type
}

type errorBody struct {
	Message string  `json:"message"`
	Type    string  `json:"type"`
	Param   *string `json:"param"`
	Code    *string `json:"code"`
}

// MarshalJSON writes the envelope.
func (e *Error) MarshalJSON() ([]byte, error) {
	return json.Marshal(struct {
		Error errorBody `json:"error"`
	}{errorBody{Message: e.Message, Type: e.Type, Param: nullable(e.Param), Code: nullable(e.Code)}})
}

func nullable(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

const (
	typeInvalidRequest = "invalid_request_error"
	typeServer         = "server_error"
)

func invalidRequest(status int, code, param, format string, args ...any) *Error {
	return &Error{Status: status, Type: typeInvalidRequest, Code: code, Param: param, Message: fmt.Sprintf(format, args...)}
}

// MissingAPIKey answers a provider request without a bearer token.
func MissingAPIKey() *Error {
	return invalidRequest(http.StatusUnauthorized, "", "",
		"You didn't provide an API key. You need to provide your API key in an Authorization header using Bearer auth (i.e. Authorization: Bearer YOUR_KEY).")
}

// InvalidAPIKey answers a provider request whose bearer token is wrong. Like
// the real API it shows only the ends of a long key, and nothing of a short one.
func InvalidAPIKey(provided string) *Error {
	return invalidRequest(http.StatusUnauthorized, "invalid_api_key", "",
		"Incorrect API key provided: %s.", maskKey(provided))
}

func maskKey(key string) string {
	if len(key) < 20 {
		return "***"
	}
	return key[:3] + "***" + key[len(key)-4:]
}

// ModelNotFound answers a request for a model the session does not serve.
// The message starts as the real API's and goes on to name what is served:
// the session's allow-list when it has one, else the catalog, so that a
// test whose session lists too few models sees why at once.
func ModelNotFound(model string, served []string, allowList bool) *Error {
	which := "This server's catalog has"
	if allowList {
		which = "This session serves only"
	}
	return invalidRequest(http.StatusNotFound, "model_not_found", "",
		"The model `%s` does not exist or you do not have access to it. %s: %s.", model, which, strings.Join(served, ", "))
}

// InvalidJSON answers a body that is not valid JSON.
func InvalidJSON() *Error {
	return invalidRequest(http.StatusBadRequest, "", "",
		"We could not parse the JSON body of your request. (HINT: This likely means you aren't using your HTTP library correctly. The OpenAI API expects a JSON payload, but what was sent was not valid JSON.)")
}

// UnsupportedContentType answers a body that is not declared as JSON.
func UnsupportedContentType(contentType string) *Error {
	return invalidRequest(http.StatusUnsupportedMediaType, "unsupported_content_type", "",
		"Unsupported Content-Type %q: send the request body as application/json.", contentType)
}

// BodyTooLarge answers a body over the server's request size limit.
func BodyTooLarge(limit int64) *Error {
	return invalidRequest(http.StatusRequestEntityTooLarge, "request_too_large", "",
		"The request body exceeds the limit of %d bytes.", limit)
}

// InvalidType answers a field of the wrong JSON type.
func InvalidType(param, want, got string) *Error {
	return invalidRequest(http.StatusBadRequest, "invalid_type", param,
		"Invalid type for '%s': expected %s, but got %s instead.", param, want, got)
}

// MissingParameter answers a request without a required field.
func MissingParameter(param string) *Error {
	return invalidRequest(http.StatusBadRequest, "missing_required_parameter", param,
		"Missing required parameter: '%s'.", param)
}

// RouteNotFound answers a URL the API does not have.
func RouteNotFound(method, path, hint string) *Error {
	return invalidRequest(http.StatusNotFound, "", "", "Invalid URL (%s %s)%s", method, path, hint)
}

// MethodNotAllowed answers a known URL called with the wrong method; allow
// lists the methods it takes.
func MethodNotAllowed(method, path, allow string) *Error {
	e := invalidRequest(http.StatusMethodNotAllowed, "method_not_allowed", "",
		"Invalid method for URL (%s %s): use %s.", method, path, allow)
	e.Header = http.Header{"Allow": {allow}}
	return e
}

// NoScenario answers a request that no scripted scenario answers. Its status
// is 400 because the SDKs retry 408, 409, 429 and 5xx, and a retry would meet
// the same empty script.
func NoScenario(message string) *Error {
	return invalidRequest(http.StatusBadRequest, "llm_test_server_no_scenario", "", "%s", message)
}

// SessionNotFound answers a request whose session headers select no session.
// It never says which header was wrong, so it reveals nothing about which
// sessions exist.
func SessionNotFound() *Error {
	return invalidRequest(http.StatusNotFound, "session_not_found", "",
		"No session matches the X-Llm-Test-Server-Session and X-Llm-Test-Server-Session-Key headers. Send both, once each, with the values returned when the session was created.")
}

// SessionSelectorNotAllowed answers session creation sent with session headers.
func SessionSelectorNotAllowed() *Error {
	return invalidRequest(http.StatusBadRequest, "session_selector_not_allowed", "",
		"Sessions are created through the root management client: send POST /admin-api/sessions without X-Llm-Test-Server-Session headers.")
}

// SessionCapacityExceeded answers a session creation or configuration that
// does not fit the server's admission budget.
func SessionCapacityExceeded(message string) *Error {
	return invalidRequest(http.StatusConflict, "session_capacity_exceeded", "", "%s", message)
}

// RequestSuperseded answers a request whose session was deleted while it was
// in flight.
func RequestSuperseded() *Error {
	return invalidRequest(http.StatusConflict, "llm_test_server_request_superseded", "",
		"The session was deleted while this request was in flight; nothing was recorded.")
}

// InvalidConfiguration answers a configuration that cannot be applied; param
// names the offending field.
func InvalidConfiguration(param, message string) *Error {
	return invalidRequest(http.StatusBadRequest, "invalid_configuration", param, "Invalid configuration: %s", message)
}

// ConfigurationTooLarge answers a configuration over the per-session size
// limit.
func ConfigurationTooLarge(limit int64) *Error {
	return invalidRequest(http.StatusBadRequest, "configuration_too_large", "",
		"The configuration exceeds the limit of %d bytes.", limit)
}

// ShuttingDown answers a session creation while the server shuts down.
func ShuttingDown() *Error {
	return &Error{Status: http.StatusServiceUnavailable, Type: typeServer, Code: "server_shutting_down",
		Message: "The server is shutting down and admits no new sessions."}
}

// StatusError builds an error of any status, as a scenario scripts it: the
// type and, when message is empty, the message follow the real API's for
// that status.
func StatusError(status int, code, param, message string) *Error {
	typ, text := typeInvalidRequest, http.StatusText(status)
	switch {
	case status == http.StatusTooManyRequests:
		typ, text = "requests", "Rate limit reached for requests. Please try again later."
		if code == "insufficient_quota" {
			typ, text = "insufficient_quota", "You exceeded your current quota, please check your plan and billing details."
		}
	case status == http.StatusServiceUnavailable:
		typ, text = typeServer, "That model is currently overloaded with other requests. You can retry your request."
	case status >= 500:
		typ, text = typeServer, "The server had an error while processing your request. Sorry about that!"
	}
	if message == "" {
		message = text
	}
	return &Error{Status: status, Type: typ, Code: code, Param: param, Message: message}
}

// ServerError answers a fault of the server itself.
func ServerError() *Error {
	return &Error{Status: http.StatusInternalServerError, Type: typeServer,
		Message: "The server had an error while processing your request. Sorry about that!"}
}

// PreviousResponseNotFound answers a previous_response_id the session does
// not keep: unknown, deleted, evicted, or stored with store:false.
func PreviousResponseNotFound(id string) *Error {
	return invalidRequest(http.StatusBadRequest, "previous_response_not_found", "previous_response_id",
		"Previous response with id '%s' not found.", id)
}

// ResponseNotFound answers a retrieval of a response the session does not
// keep.
func ResponseNotFound(id string) *Error {
	return invalidRequest(http.StatusNotFound, "", "", "Response with id '%s' not found.", id)
}

// NotAChatModel answers a conversational request for a model of another
// kind, such as an embedding or video model, at the given endpoint path.
func NotAChatModel(path string) *Error {
	return invalidRequest(http.StatusNotFound, "", "model",
		"This is not a chat model and thus not supported in the %s endpoint.", strings.TrimPrefix(path, "/"))
}

// StatusClientClosed is what the journal records for a request whose client
// went away before its answer was delivered (nginx's 499).
const StatusClientClosed = 499

// ClientClosed is the journal's record of a request that ended before its
// answer was delivered, because its client left or its session was
// deleted; message says when. The client never reads it.
func ClientClosed(message string) *Error {
	return &Error{Status: StatusClientClosed, Type: "client_closed_request", Message: message}
}
