package openai

import (
	"fmt"
	"net/http"
	"strings"

	"github.com/llmtestserver/llmtestserver/internal/apierr"
	"github.com/llmtestserver/llmtestserver/internal/provider"
	"github.com/llmtestserver/llmtestserver/journal"
	"github.com/llmtestserver/llmtestserver/scenario"
)

// Error is an API error: the neutral apierr.Error, whose Type this package
// sets to OpenAI's words. Envelope renders it in OpenAI's envelope,
// {"error":{"message","type","param","code"}}, where an empty param and
// code encode as null, as the real API sends them. See
// https://platform.openai.com/docs/guides/error-codes for the catalogue the
// constructors below imitate.
type Error = apierr.Error

// errorBody is the inside of OpenAI's error envelope.
type errorBody struct {
	Message string  `json:"message"`
	Type    string  `json:"type"`
	Param   *string `json:"param"`
	Code    *string `json:"code"`
}

// envelope is OpenAI's error envelope.
type envelope struct {
	Error errorBody `json:"error"`
}

// Resolve returns e in OpenAI's words: a status for its kind when it has
// none, the type the real API gives that status (unless e carries its
// own), and the real API's message for it when e has none.
func Resolve(e *Error) *Error {
	out := *e
	if out.Status == 0 {
		out.Status = statusOf(e.Kind)
	}
	typ, text := typeAndText(out.Status, out.Code)
	if out.Type == "" {
		out.Type = typ
	}
	if out.Message == "" {
		out.Message = text
		if out.Status == http.StatusTooManyRequests {
			out.Message = rateLimitText(out.Type, out.Header, text)
		}
	}
	return &out
}

// Envelope returns e, resolved, in OpenAI's error envelope.
func Envelope(e *Error) any { return envelopeOf(Resolve(e)) }

// envelopeOf is the envelope of an error already resolved.
func envelopeOf(e *Error) envelope {
	return envelope{errorBody{Message: e.Message, Type: e.Type, Param: nullable(e.Param), Code: nullable(e.Code)}}
}

// statusOf is OpenAI's status for an error kind a script gave no status.
func statusOf(k scenario.ErrorKind) int {
	switch k {
	case scenario.ErrorAuthentication:
		return http.StatusUnauthorized
	case scenario.ErrorPermission:
		return http.StatusForbidden
	case scenario.ErrorNotFound:
		return http.StatusNotFound
	case scenario.ErrorConflict:
		return http.StatusConflict
	case scenario.ErrorTooLarge:
		return http.StatusRequestEntityTooLarge
	case scenario.ErrorRateLimit:
		return http.StatusTooManyRequests
	case scenario.ErrorOverloaded:
		return http.StatusServiceUnavailable
	case scenario.ErrorServer:
		return http.StatusInternalServerError
	case scenario.ErrorTimeout:
		return http.StatusGatewayTimeout
	}
	return http.StatusBadRequest
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

// InvalidAPIKey answers a provider request whose bearer token is wrong, in
// the real API's words (see maskKey).
func InvalidAPIKey(provided string) *Error {
	e := invalidRequest(http.StatusUnauthorized, "invalid_api_key", "",
		"Incorrect API key provided: %s. You can find your API key at %s.", maskKey(provided), apiKeysURL)
	e.JournalMessage = fmt.Sprintf("Incorrect API key provided: %s. You can find your API key at %s.", journal.Redacted, apiKeysURL)
	return e
}

// apiKeysURL closes the real API's message for a wrong key.
const apiKeysURL = "https://platform.openai.com/account/api-keys"

// Masking of a wrong key in the real API's 401: a key of up to
// maskMinLength bytes is shown whole; a longer one keeps its first
// maskHead and last maskTail bytes with one asterisk for each byte
// between ("sk-proj-" + asterisks + the last 4). This is the rule every
// real body published in GitHub issues follows: "sk-invalid" and
// "YOUR_API_KEY" whole, "sk-not-a*****-key", "your_key*here" (13 bytes)
// and "sk-proj-***...MxYA" masked.
const (
	maskMinLength = 12
	maskHead      = 8
	maskTail      = 4
)

// maskKey is key as the real API's 401 shows it.
func maskKey(key string) string {
	if len(key) <= maskMinLength {
		return key
	}
	return key[:maskHead] + strings.Repeat("*", len(key)-maskHead-maskTail) + key[len(key)-maskTail:]
}

// ModelNotFound answers a Chat Completions (or embeddings, or models)
// request for a model the session does not serve: 404 model_not_found
// without a param, as the real API answers. The message starts as the
// real API's and goes on to name what is served (see served).
func ModelNotFound(model string, served []string, allowList bool) *Error {
	return invalidRequest(http.StatusNotFound, "model_not_found", "",
		"The model `%s` does not exist or you do not have access to it. %s", model, servedModels(model, served, allowList))
}

// ResponsesModelNotFound answers a Responses API request for a model the
// session does not serve. The Responses API words it otherwise than Chat
// Completions: 400 with param "model" and "The requested model 'x' does
// not exist.", as real bodies of openai-python's responses.parse and of
// Codex CLI (a Responses API client) show. That an inaccessible model
// gets the same answer as an unknown one is inferred.
func ResponsesModelNotFound(model string, served []string, allowList bool) *Error {
	e := invalidRequest(http.StatusBadRequest, "model_not_found", "model", "The requested model '%s' does not exist.", model)
	if len(served) > 0 {
		e.Message += " " + servedModels(model, served, allowList)
	}
	return e
}

// servedModels names what the session serves: its allow-list when it has
// one, so that a test whose session lists too few models sees why at once;
// else the catalog's models nearest to model (a typo's intended name comes
// first), since the whole catalog is too long to read in an error.
func servedModels(model string, served []string, allowList bool) string {
	if allowList {
		return fmt.Sprintf("This session serves only: %s.", strings.Join(served, ", "))
	}
	return fmt.Sprintf("Nearest in this server's catalog: %s (GET /v1/models lists all %d).",
		strings.Join(provider.Nearest(model, served, 5), ", "), len(served))
}

// MissingModel answers a Chat Completions request without a model (or
// with an empty one) as the real API does: not with the usual
// missing_required_parameter, but a message of its own with neither param
// nor code.
func MissingModel() *Error {
	return invalidRequest(http.StatusBadRequest, "", "", "you must provide a model parameter")
}

// InvalidJSON answers a body that is not valid JSON.
func InvalidJSON() *Error {
	return invalidRequest(http.StatusBadRequest, "", "",
		"We could not parse the JSON body of your request. (HINT: This likely means you aren't using your HTTP library correctly. The OpenAI API expects a JSON payload, but what was sent was not valid JSON.)")
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

// typeAndText are the real API's type and message for an error of status
// with code.
func typeAndText(status int, code string) (typ, text string) {
	typ, text = typeInvalidRequest, http.StatusText(status)
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
	return typ, text
}

// ContextLengthExceeded answers a Chat Completions request whose messages
// (prompt tokens) and max_completion_tokens or max_tokens (maxOutput; 0 when
// unset) pass the model's context window. Both messages are the real API's:
// the one with the completion as published in many user reports, the one
// without as the wire notes record it.
func ContextLengthExceeded(window, prompt, maxOutput int) *Error {
	if maxOutput > 0 {
		return invalidRequest(http.StatusBadRequest, "context_length_exceeded", "messages",
			"This model's maximum context length is %d tokens. However, you requested %d tokens (%d in the messages, %d in the completion). Please reduce the length of the messages or completion.",
			window, prompt+maxOutput, prompt, maxOutput)
	}
	return invalidRequest(http.StatusBadRequest, "context_length_exceeded", "messages",
		"This model's maximum context length is %d tokens. However, your messages resulted in %d tokens. Please reduce the length of the messages.",
		window, prompt)
}

// InputExceedsContextWindow answers a Responses request whose input (and
// max_output_tokens) pass the model's context window, in the real API's
// words, which name no numbers. That max_output_tokens counts towards the
// window here as in Chat Completions is inferred, not seen.
func InputExceedsContextWindow() *Error {
	return invalidRequest(http.StatusBadRequest, "context_length_exceeded", "input",
		"Your input exceeds the context window of this model. Please adjust your input and try again.")
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
