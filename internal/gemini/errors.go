package gemini

import (
	"fmt"
	"net/http"
	"strings"

	"github.com/llmtestserver/llmtestserver/internal/apierr"
	"github.com/llmtestserver/llmtestserver/internal/provider"
	"github.com/llmtestserver/llmtestserver/scenario"
)

// The canonical google.rpc.Code names the API answers with (wire.md Part 3
// §4.1).
const (
	statusInvalidArgument    = "INVALID_ARGUMENT"
	statusFailedPrecondition = "FAILED_PRECONDITION"
	statusUnauthenticated    = "UNAUTHENTICATED"
	statusPermissionDenied   = "PERMISSION_DENIED"
	statusNotFound           = "NOT_FOUND"
	statusAlreadyExists      = "ALREADY_EXISTS"
	statusResourceExhausted  = "RESOURCE_EXHAUSTED"
	statusCancelled          = "CANCELLED"
	statusInternal           = "INTERNAL"
	statusUnavailable        = "UNAVAILABLE"
	statusDeadlineExceeded   = "DEADLINE_EXCEEDED"
	statusUnimplemented      = "UNIMPLEMENTED"
)

// statusCodes is the HTTP status of each canonical code, as Google's APIs
// map them, with the message an error of that code gets when it has none
// (inferred: the API's own messages name the problem, these the code).
var statusCodes = map[string]struct {
	http    int
	message string
}{
	statusInvalidArgument:    {http.StatusBadRequest, "Request contains an invalid argument."},
	statusFailedPrecondition: {http.StatusBadRequest, "Precondition check failed."},
	statusUnauthenticated:    {http.StatusUnauthorized, "Request had invalid authentication credentials."},
	statusPermissionDenied:   {http.StatusForbidden, "The caller does not have permission"},
	statusNotFound:           {http.StatusNotFound, "Requested entity was not found."},
	statusAlreadyExists:      {http.StatusConflict, "Requested entity already exists"},
	statusResourceExhausted:  {http.StatusTooManyRequests, "Resource has been exhausted (e.g. check quota)."},
	statusCancelled:          {499, "The operation was cancelled."},
	statusInternal:           {http.StatusInternalServerError, "An internal error has occurred. Please retry or report in https://developers.generativeai.google/guide/troubleshooting"},
	statusUnavailable:        {http.StatusServiceUnavailable, "The model is overloaded. Please try again later."},
	statusDeadlineExceeded:   {http.StatusGatewayTimeout, "Deadline expired before operation could complete."},
	statusUnimplemented:      {http.StatusNotImplemented, "Method not found."},
}

// kindStatus maps a neutral error kind to the canonical code.
var kindStatus = map[scenario.ErrorKind]string{
	scenario.ErrorInvalidRequest: statusInvalidArgument,
	scenario.ErrorAuthentication: statusUnauthenticated,
	scenario.ErrorPermission:     statusPermissionDenied,
	scenario.ErrorNotFound:       statusNotFound,
	scenario.ErrorConflict:       statusAlreadyExists,
	scenario.ErrorTooLarge:       statusInvalidArgument,
	scenario.ErrorRateLimit:      statusResourceExhausted,
	scenario.ErrorServer:         statusInternal,
	scenario.ErrorTimeout:        statusDeadlineExceeded,
	scenario.ErrorOverloaded:     statusUnavailable,
}

// statusOf is e's canonical code: its own type when that is one, else the
// code of its HTTP status, else of its kind.
func statusOf(e *apierr.Error) string {
	if _, own := statusCodes[e.Type]; own {
		return e.Type
	}
	if _, own := statusCodes[e.Code]; own && e.Type == "" {
		return e.Code
	}
	switch e.Status {
	case 0:
	case http.StatusServiceUnavailable, 529:
		return statusUnavailable
	case http.StatusBadGateway:
		return statusUnavailable
	case http.StatusNotImplemented:
		return statusUnimplemented
	case 499:
		return statusCancelled
	default:
		for name, c := range statusCodes {
			if c.http == e.Status && name != statusFailedPrecondition {
				return name
			}
		}
		if e.Status >= 500 {
			return statusInternal
		}
	}
	if s, ok := kindStatus[e.KindOrStatus()]; ok {
		return s
	}
	if e.Status >= 500 {
		return statusInternal
	}
	return statusInvalidArgument
}

// rpcStatus is google.rpc.Status as the API renders it.
type rpcStatus struct {
	Code    int      `json:"code"`
	Message string   `json:"message"`
	Status  string   `json:"status"`
	Details []detail `json:"details,omitempty"`
}

// detail is one typed object of an error's details.
type detail map[string]any

type envelope struct {
	Error rpcStatus `json:"error"`
}

// Details of an error that carry over from its apierr form: the API's
// ErrorInfo reason (Code, when it names one), its RetryInfo delay
// (Retry-After), and, for a bad request, the field it names.
const (
	typeErrorInfo  = "type.googleapis.com/google.rpc.ErrorInfo"
	typeRetryInfo  = "type.googleapis.com/google.rpc.RetryInfo"
	typeBadRequest = "type.googleapis.com/google.rpc.BadRequest"
	typeHelp       = "type.googleapis.com/google.rpc.Help"
	typeLocalized  = "type.googleapis.com/google.rpc.LocalizedMessage"
	errorDomain    = "googleapis.com"
	serviceName    = "generativelanguage.googleapis.com"
)

// statusBody renders e, in the provider's words (Resolve), as the
// envelope's inner status.
func statusBody(e *apierr.Error) rpcStatus {
	st := rpcStatus{Code: e.Status, Message: e.Message, Status: e.Type}
	if e.Code != "" && !strings.HasPrefix(e.Code, "llm_test_server_") || e.Code == codeAPIKeyInvalid {
		st.Details = append(st.Details, detail{"@type": typeErrorInfo, "reason": e.Code, "domain": errorDomain,
			"metadata": map[string]string{"service": serviceName}})
	} else if e.Code != "" {
		// The server's own codes (no scenario, a session problem) go out
		// as ErrorInfo from this server's domain, so a test can tell them
		// from the API's.
		st.Details = append(st.Details, detail{"@type": typeErrorInfo, "reason": e.Code, "domain": "llmtestserver"})
	}
	if e.Code == codeAPIKeyInvalid {
		st.Details = append(st.Details, detail{"@type": typeLocalized, "locale": "en-US", "message": e.Message})
	}
	if e.Param != "" && st.Status == statusInvalidArgument {
		st.Details = append(st.Details, detail{"@type": typeBadRequest,
			"fieldViolations": []map[string]string{{"field": e.Param, "description": e.Message}}})
	}
	if own, ok := e.Details.([]detail); ok {
		st.Details = append(st.Details, own...)
	}
	if ra := e.Header.Get("Retry-After"); ra != "" && st.Status == statusResourceExhausted {
		st.Details = append(st.Details, detail{"@type": typeRetryInfo, "retryDelay": ra + "s"})
	}
	return st
}

// Envelope renders e as the API does: {"error":{"code","message","status",
// "details"?}} with its status.
func Envelope(e *apierr.Error) (int, any) {
	r := resolve(e)
	return r.Status, envelope{Error: statusBody(r)}
}

// resolve returns e with its HTTP status, canonical code (as Type) and
// message filled in.
func resolve(e *apierr.Error) *apierr.Error {
	out := *e
	out.Type = statusOf(e)
	c := statusCodes[out.Type]
	if out.Status == 0 {
		out.Status = c.http
	}
	if out.Message == "" {
		out.Message = c.message
	}
	return &out
}

// codeAPIKeyInvalid is the ErrorInfo reason of a wrong key.
const codeAPIKeyInvalid = "API_KEY_INVALID"

// AuthError answers a request without a key (missing: 403
// PERMISSION_DENIED, as the API answers one) or with a wrong one (400
// INVALID_ARGUMENT with API_KEY_INVALID, the API's documented answer).
func AuthError(missing bool) *apierr.Error {
	if missing {
		return &apierr.Error{Kind: scenario.ErrorPermission, Status: http.StatusForbidden, Type: statusPermissionDenied,
			Message: "Method doesn't allow unregistered callers (callers without established identity). Please use API Key or other form of API consumer identity to call this API."}
	}
	return &apierr.Error{Kind: scenario.ErrorAuthentication, Status: http.StatusBadRequest, Type: statusInvalidArgument,
		Code: codeAPIKeyInvalid, Message: "API key not valid. Please pass a valid API key."}
}

// invalid is a 400 INVALID_ARGUMENT about field (its path in the request,
// "" for none).
func invalid(field, format string, args ...any) *apierr.Error {
	return &apierr.Error{Kind: scenario.ErrorInvalidRequest, Status: http.StatusBadRequest, Type: statusInvalidArgument,
		Param: field, Message: fmt.Sprintf(format, args...)}
}

// notFound is a 404 NOT_FOUND.
func notFound(format string, args ...any) *apierr.Error {
	return &apierr.Error{Kind: scenario.ErrorNotFound, Status: http.StatusNotFound, Type: statusNotFound,
		Message: fmt.Sprintf(format, args...)}
}

// invalidJSON answers a body that is not JSON, in the words of Google's
// JSON transcoder (the API adds the parser's position, which this server
// does not reproduce).
func invalidJSON(problem string) *apierr.Error {
	return invalid("", "Invalid JSON payload received. %s", problem)
}

// unknownField answers a field the API does not know: the transcoder's
// message, with the field's path in the request.
func unknownField(path, name string) *apierr.Error {
	at := ""
	if path != "" {
		at = " at '" + path + "'"
	}
	return invalid(path, "Invalid JSON payload received. Unknown name %q%s: Cannot find field.", name, at)
}

// wrongType answers a field whose value has the wrong JSON type, in the
// transcoder's words.
func wrongType(path, protoType, value string) *apierr.Error {
	if len(value) > 40 {
		value = value[:40] + "…"
	}
	return invalid(path, "Invalid value at '%s' (%s), %s", path, protoType, value)
}

// ModelNotFound answers a model the session does not serve, in the API's
// words for a model it does not know, then what is served, the nearest
// first, so that a test whose session lists too few models sees why.
func ModelNotFound(model string, served []string, allowList bool, version, method string) *apierr.Error {
	which := "This server's catalog has"
	if allowList {
		which = "This session serves only"
	}
	if method == "" {
		method = "generateContent"
	}
	e := notFound("models/%s is not found for API version %s, or is not supported for %s. Call ListModels to see the list of available models and their supported methods. %s: %s.",
		model, version, method, which, strings.Join(provider.Nearest(model, served, 8), ", "))
	e.Param = "model"
	return e
}
