package apierr

import (
	"fmt"
	"net/http"

	"github.com/llmtestserver/llmtestserver/scenario"
)

func invalid(status int, code, format string, args ...any) *Error {
	return &Error{Kind: scenario.KindOfStatus(status), Status: status, Code: code, Message: fmt.Sprintf(format, args...)}
}

// NoScenario answers a request that no scripted scenario answers. Its status
// is 400 because the SDKs retry 408, 409, 429 and 5xx, and a retry would meet
// the same empty script.
func NoScenario(message string) *Error {
	return invalid(http.StatusBadRequest, "llm_test_server_no_scenario", "%s", message)
}

// RequestSuperseded answers a request whose session was deleted while it was
// in flight.
func RequestSuperseded() *Error {
	return invalid(http.StatusConflict, "llm_test_server_request_superseded",
		"The session was deleted while this request was in flight; nothing was recorded.")
}

// SessionNotFound answers a request whose session headers select no session.
// It never says which header was wrong, so it reveals nothing about which
// sessions exist.
func SessionNotFound() *Error {
	return invalid(http.StatusNotFound, "session_not_found",
		"No session matches the X-Llm-Test-Server-Session and X-Llm-Test-Server-Session-Key headers. Send both, once each, with the values returned when the session was created.")
}

// SessionSelectorNotAllowed answers session creation sent with session headers.
func SessionSelectorNotAllowed() *Error {
	return invalid(http.StatusBadRequest, "session_selector_not_allowed",
		"Sessions are created through the root management client: send POST /admin-api/sessions without X-Llm-Test-Server-Session headers.")
}

// SessionCapacityExceeded answers a session creation or configuration that
// does not fit the server's admission budget.
func SessionCapacityExceeded(message string) *Error {
	return invalid(http.StatusConflict, "session_capacity_exceeded", "%s", message)
}

// InvalidConfiguration answers a configuration that cannot be applied; param
// names the offending field.
func InvalidConfiguration(param, message string) *Error {
	e := invalid(http.StatusBadRequest, "invalid_configuration", "Invalid configuration: %s", message)
	e.Param = param
	return e
}

// ConfigurationTooLarge answers a configuration over the per-session size
// limit.
func ConfigurationTooLarge(limit int64) *Error {
	return invalid(http.StatusBadRequest, "configuration_too_large",
		"The configuration exceeds the limit of %d bytes.", limit)
}

// ShuttingDown answers a session creation while the server shuts down.
func ShuttingDown() *Error {
	return &Error{Kind: scenario.ErrorOverloaded, Status: http.StatusServiceUnavailable, Code: "server_shutting_down",
		Message: "The server is shutting down and admits no new sessions."}
}

// UnsupportedContentType answers a body that is not declared as JSON.
func UnsupportedContentType(contentType string) *Error {
	return invalid(http.StatusUnsupportedMediaType, "unsupported_content_type",
		"Unsupported Content-Type %q: send the request body as application/json.", contentType)
}

// BodyTooLarge answers a body over the server's request size limit.
func BodyTooLarge(limit int64) *Error {
	return invalid(http.StatusRequestEntityTooLarge, "request_too_large",
		"The request body exceeds the limit of %d bytes.", limit)
}

// BodyTimeout answers a body that did not arrive in time: the standalone
// server's body timeout passed, or the session was deleted meanwhile.
func BodyTimeout() *Error {
	return invalid(http.StatusRequestTimeout, "request_timeout", "The request body was not received in time.")
}

// HeadersTooLarge answers a request whose headers are n bytes, over limit.
func HeadersTooLarge(n, limit int) *Error {
	return invalid(http.StatusRequestHeaderFieldsTooLarge, "request_header_fields_too_large",
		"The request's headers are %d bytes, more than the %d bytes this server accepts.", n, limit)
}

// RouteNotFound answers a URL the API does not have; hint, if any, follows
// the message.
func RouteNotFound(method, path, hint string) *Error {
	return invalid(http.StatusNotFound, "", "Invalid URL (%s %s)%s", method, path, hint)
}

// MethodNotAllowed answers a known URL called with the wrong method; allow
// lists the methods it takes.
func MethodNotAllowed(method, path, allow string) *Error {
	e := invalid(http.StatusMethodNotAllowed, "method_not_allowed", "Invalid method for URL (%s %s): use %s.", method, path, allow)
	return e.WithHeader("Allow", allow)
}

// codeResponderFailed is the code of a request that a scenario's Go
// function failed: a fault of the test, not of the server.
const codeResponderFailed = "llm_test_server_responder_failed"

// ResponderFailed answers a request whose Go responder failed: a fault of
// the test, which the message explains.
func ResponderFailed(scenarioName, problem string) *Error {
	return &Error{Kind: scenario.ErrorServer, Status: http.StatusInternalServerError, Code: codeResponderFailed,
		Message: fmt.Sprintf("The Go responder of scenario %q failed: %s", scenarioName, problem)}
}

// MatchFailed answers a request during whose matching the match function
// (scenario.Func) of a scenario panicked with value: the same fault of the
// test as a failed Go responder, under the same code, so that clients and
// the journal see one kind of failure for a scenario's Go functions.
func MatchFailed(scenarioName string, value any) *Error {
	return &Error{Kind: scenario.ErrorServer, Status: http.StatusInternalServerError, Code: codeResponderFailed,
		Message: fmt.Sprintf("The match function of scenario %q panicked: %v", scenarioName, value)}
}

// Internal answers a fault of the server itself, with the provider's own
// message for it.
func Internal() *Error {
	return &Error{Kind: scenario.ErrorServer, Status: http.StatusInternalServerError}
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

// JobsFull refuses a job past the session's bounds: what names the jobs
// ("videos", "jobs") and setting the configuration that bounds them
// ("videos.capacity", "jobs.capacity and jobs.max_bytes"). No real API
// has such a bound per caller; a 429 is what a client that starts too
// much long work gets from the real ones, and its message says what to
// configure.
func JobsFull(what, setting string) *Error {
	return &Error{Kind: scenario.ErrorRateLimit, Status: http.StatusTooManyRequests, Code: "session_jobs_full",
		Message: "This session keeps no more " + what + ": raise " + setting + " in its configuration, " +
			"or delete or wait out the ones it keeps (an ended job is kept a day unless its scenario's plan says otherwise)."}
}
