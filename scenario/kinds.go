package scenario

import "net/http"

// FinishKind is why the model stopped, in words of no provider. Each codec
// says it in its own: FinishStop is OpenAI's "stop" and Anthropic's
// "end_turn", FinishLength is "length" and "max_tokens", FinishToolCalls is
// "tool_calls" and "tool_use". A FinishKind is a string, so a reply's
// FinishReason can still be written as the OpenAI word it always was.
type FinishKind = string

// Finish kinds a reply may set.
const (
	FinishStop          FinishKind = "stop"
	FinishLength        FinishKind = "length"
	FinishToolCalls     FinishKind = "tool_calls"
	FinishContentFilter FinishKind = "content_filter"
	FinishRefusal       FinishKind = "refusal"
	// FinishPauseTurn is Anthropic's pause_turn: a long turn of server
	// tools paused, for the client to send back as it is (OpenAI: "stop").
	FinishPauseTurn FinishKind = "pause_turn"
	// FinishContextWindow is Anthropic's model_context_window_exceeded:
	// the answer stopped at the context window rather than max_tokens
	// (OpenAI: "length").
	FinishContextWindow FinishKind = "model_context_window_exceeded"
	// FinishStopSequence stops at the first of the request's stop
	// sequences, which Anthropic names in stop_sequence (OpenAI: "stop").
	FinishStopSequence FinishKind = "stop_sequence"
)

// finishAliases are the providers' own words a script may use for a finish
// kind: they mean the same on every provider.
var finishAliases = map[string]FinishKind{
	"end_turn":   FinishStop,
	"max_tokens": FinishLength,
	"tool_use":   FinishToolCalls,
}

// NormalizeFinish returns the finish kind a reply's FinishReason names,
// accepting the providers' own words ("end_turn", "max_tokens",
// "tool_use"), and false when it names none.
func NormalizeFinish(reason string) (FinishKind, bool) {
	switch reason {
	case "", FinishStop, FinishLength, FinishToolCalls, FinishContentFilter, FinishRefusal,
		FinishPauseTurn, FinishContextWindow, FinishStopSequence:
		return reason, true
	}
	k, ok := finishAliases[reason]
	return k, ok
}

// ErrorKind is what went wrong, in words of no provider; each codec maps it
// to its own error type and, when a script gives no status, its own status:
// ErrorRateLimit is OpenAI's 429 "rate_limit_exceeded" and Anthropic's 429
// "rate_limit_error"; ErrorOverloaded is OpenAI's 503 and Anthropic's 529
// "overloaded_error".
type ErrorKind string

// Error kinds.
const (
	ErrorInvalidRequest ErrorKind = "invalid_request"
	ErrorAuthentication ErrorKind = "authentication"
	ErrorPermission     ErrorKind = "permission"
	ErrorNotFound       ErrorKind = "not_found"
	ErrorConflict       ErrorKind = "conflict"
	ErrorTooLarge       ErrorKind = "request_too_large"
	ErrorRateLimit      ErrorKind = "rate_limit"
	ErrorOverloaded     ErrorKind = "overloaded"
	ErrorServer         ErrorKind = "server"
	ErrorTimeout        ErrorKind = "timeout"
)

// errorKinds lists the valid kinds.
var errorKinds = map[ErrorKind]bool{
	ErrorInvalidRequest: true, ErrorAuthentication: true, ErrorPermission: true, ErrorNotFound: true,
	ErrorConflict: true, ErrorTooLarge: true, ErrorRateLimit: true, ErrorOverloaded: true, ErrorServer: true,
	ErrorTimeout: true,
}

// Valid reports whether k is one of the error kinds.
func (k ErrorKind) Valid() bool { return errorKinds[k] }

// KindOfStatus is the error kind an HTTP status stands for.
func KindOfStatus(status int) ErrorKind {
	switch status {
	case http.StatusUnauthorized:
		return ErrorAuthentication
	case http.StatusForbidden:
		return ErrorPermission
	case http.StatusNotFound:
		return ErrorNotFound
	case http.StatusConflict:
		return ErrorConflict
	case http.StatusRequestEntityTooLarge:
		return ErrorTooLarge
	case http.StatusTooManyRequests:
		return ErrorRateLimit
	case http.StatusServiceUnavailable, 529:
		return ErrorOverloaded
	case http.StatusRequestTimeout, http.StatusGatewayTimeout:
		return ErrorTimeout
	}
	if status >= 500 {
		return ErrorServer
	}
	return ErrorInvalidRequest
}
