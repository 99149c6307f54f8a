package anthropic

import (
	"net/http"

	"github.com/llmtestserver/llmtestserver/internal/apierr"
)

// openAIRateLimitCode is the error code scenario.RateLimited scripts, which
// is OpenAI's: Anthropic's 429 has no error code, only its type.
const openAIRateLimitCode = "rate_limit_exceeded"

// inAnthropicWords rewrites a scripted error's code into Anthropic's terms
// (B9 of the December 2026 audit):
//   - a code that is one of Anthropic's error types, as a test scripts
//     FailsAfter(n, "overloaded_error", msg), is the error's type, with no
//     error_code; a request that does not stream then gets that type's
//     status, unless the error scripted a status of its own other than
//     FailsAfter's 500;
//   - OpenAI's rate_limit_exceeded on a 429 is dropped, leaving the bare
//     rate_limit_error the API sends.
//
// Any other code stays in details.error_code, which the SDKs read (the
// message threads' codes among them).
func inAnthropicWords(e *apierr.Error) *apierr.Error {
	if _, own := errorTypes[e.Code]; own && (e.Type == "" || e.Type == e.Code) {
		out := *e
		out.Type, out.Code = e.Code, ""
		if e.Status == 0 || e.Status == http.StatusInternalServerError {
			out.Status = statusOfType(e.Code)
		}
		return &out
	}
	if e.Code == openAIRateLimitCode && (e.Status == http.StatusTooManyRequests || e.Status == 0) {
		out := *e
		out.Code = ""
		return &out
	}
	return e
}

// statusOfType is the status the API answers an error type with.
func statusOfType(typ string) int {
	for _, k := range kinds {
		if k.typ == typ {
			return k.status
		}
	}
	if typ == typeBilling {
		return http.StatusPaymentRequired
	}
	return http.StatusBadRequest
}
