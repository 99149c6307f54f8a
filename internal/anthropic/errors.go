package anthropic

import (
	"fmt"
	"net/http"
	"strings"

	"github.com/llmtestserver/llmtestserver/internal/apierr"
	"github.com/llmtestserver/llmtestserver/scenario"
)

// Anthropic's error types (https://docs.claude.com/en/api/errors).
const (
	typeInvalidRequest = "invalid_request_error"
	typeAuthentication = "authentication_error"
	typeBilling        = "billing_error"
	typePermission     = "permission_error"
	typeNotFound       = "not_found_error"
	typeConflict       = "conflict_error"
	typeTooLarge       = "request_too_large"
	typeRateLimit      = "rate_limit_error"
	typeAPI            = "api_error"
	typeTimeout        = "timeout_error"
	typeOverloaded     = "overloaded_error"
)

// errorTypes lists Anthropic's types with the default message each gets
// when an error has none. The API's own defaults are inferred except
// "Overloaded", which the API sends.
var errorTypes = map[string]string{
	typeInvalidRequest: "Invalid request",
	typeAuthentication: "Authentication failed",
	typeBilling:        "Billing error",
	typePermission:     "Permission denied",
	typeNotFound:       "Not found",
	typeConflict:       "Conflict",
	typeTooLarge:       "Request exceeds the maximum allowed number of bytes.",
	typeRateLimit:      "Rate limited",
	typeAPI:            "Internal server error",
	typeTimeout:        "Request timed out",
	typeOverloaded:     "Overloaded",
}

// kinds maps a neutral error kind to Anthropic's status and type.
var kinds = map[scenario.ErrorKind]struct {
	status int
	typ    string
}{
	scenario.ErrorInvalidRequest: {http.StatusBadRequest, typeInvalidRequest},
	scenario.ErrorAuthentication: {http.StatusUnauthorized, typeAuthentication},
	scenario.ErrorPermission:     {http.StatusForbidden, typePermission},
	scenario.ErrorNotFound:       {http.StatusNotFound, typeNotFound},
	scenario.ErrorConflict:       {http.StatusConflict, typeConflict},
	scenario.ErrorTooLarge:       {http.StatusRequestEntityTooLarge, typeTooLarge},
	scenario.ErrorRateLimit:      {http.StatusTooManyRequests, typeRateLimit},
	scenario.ErrorServer:         {http.StatusInternalServerError, typeAPI},
	scenario.ErrorTimeout:        {http.StatusGatewayTimeout, typeTimeout},
	scenario.ErrorOverloaded:     {529, typeOverloaded},
}

// statusAndType is e's status (its own, else its kind's) and Anthropic
// type (its own when it is Anthropic's, else its kind's).
func statusAndType(e *apierr.Error) (int, string) {
	k, ok := kinds[e.KindOrStatus()]
	if !ok {
		k = kinds[scenario.ErrorInvalidRequest]
		if e.Status >= 500 {
			k = kinds[scenario.ErrorServer]
		}
	}
	status, typ := e.Status, k.typ
	if status == 0 {
		status = k.status
	}
	if _, own := errorTypes[e.Type]; own {
		typ = e.Type
	} else if status == http.StatusPaymentRequired {
		typ = typeBilling
	}
	return status, typ
}

// errorBody is the inner "error" object.
type errorBody struct {
	Type    string        `json:"type"`
	Message string        `json:"message"`
	Details *errorDetails `json:"details,omitempty"`
}

type errorDetails struct {
	ErrorCode string `json:"error_code"`
	// Unsupported names, for thread_unsupported_request, the field a
	// thread does not support (ThreadUnsupportedRequestErrorDetails).
	Unsupported []string `json:"unsupported,omitempty"`
}

type envelope struct {
	Type      string    `json:"type"`
	Error     errorBody `json:"error"`
	RequestID string    `json:"request_id,omitempty"`
}

func errorBodyOf(e *apierr.Error, typ string) errorBody {
	b := errorBody{Type: typ, Message: e.Message}
	if b.Message == "" {
		b.Message = errorTypes[typ]
	}
	if e.Code != "" {
		b.Details = &errorDetails{ErrorCode: e.Code}
		if e.Code == codeThreadUnsupported && e.Param != "" {
			b.Details.Unsupported = []string{e.Param}
		}
	}
	return b
}

// Envelope renders e as the API does: {"type":"error","error":{"type",
// "message","details"?},"request_id"} with its status.
func Envelope(e *apierr.Error, requestID string) (int, any) {
	status, typ := statusAndType(e)
	return status, envelope{Type: "error", Error: errorBodyOf(e, typ), RequestID: requestID}
}

// AuthError is the 401 for a request without a key (missing) or with a
// wrong one, in the API's words. A bearer token is accepted too (what the
// v2 SDK sends), though the missing-key message names only x-api-key, as
// the API's does.
func AuthError(missing bool) *apierr.Error {
	e := &apierr.Error{Kind: scenario.ErrorAuthentication, Status: http.StatusUnauthorized, Type: typeAuthentication,
		Message: "invalid x-api-key"}
	if missing {
		e.Message = "x-api-key header is required" // n8n-io/n8n#37930
	}
	return e
}

// APIKey returns the key a request presents: its x-api-key header (curl
// and the v1 SDKs), else its Authorization bearer token (what the v2 SDK
// sends).
func APIKey(h http.Header) (string, bool) {
	if vs, ok := h["X-Api-Key"]; ok && len(vs) > 0 {
		return vs[0], true
	}
	auth := h.Get("Authorization")
	if auth == "" {
		return "", false
	}
	if k, ok := strings.CutPrefix(auth, "Bearer "); ok {
		return strings.TrimSpace(k), true
	}
	return auth, true
}

// ModelNotFound answers a request for a model the session does not serve:
// the API's "model: <id>", then what is served, so that a test whose
// session lists too few models sees why at once.
func ModelNotFound(model string, served []string, allowList bool) *apierr.Error {
	which := "This server's catalog has"
	if allowList {
		which = "This session serves only"
	}
	return &apierr.Error{Kind: scenario.ErrorNotFound, Status: http.StatusNotFound, Type: typeNotFound, Param: "model",
		Message: fmt.Sprintf("model: %s. %s: %s.", model, which, strings.Join(served, ", "))}
}

// InvalidJSON answers a body that is not valid JSON.
func InvalidJSON() *apierr.Error {
	return invalid("", "The request body is not valid JSON.")
}

// PromptTooLong answers a request whose prompt tokens plus max_tokens pass
// the model's context window (window), in the real API's two wordings, both
// seen in its answers: a prompt over the window by itself, and one that
// leaves too little room for max_tokens.
func PromptTooLong(prompt, maxTokens, window int) *apierr.Error {
	if prompt > window {
		return invalid("", "prompt is too long: %d tokens > %d maximum", prompt, window)
	}
	return invalid("", "input length and `max_tokens` exceed context limit: %d + %d > %d, decrease input length or `max_tokens` and try again",
		prompt, maxTokens, window)
}
