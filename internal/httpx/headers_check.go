package httpx

import (
	"net/http"

	"github.com/llmtestserver/llmtestserver/internal/apierr"
	"github.com/llmtestserver/llmtestserver/internal/provider"
	"github.com/llmtestserver/llmtestserver/internal/runtime"
)

// checkHeaders is the codec's refusal of the request's API headers
// (provider.HeaderChecker), or nil when it has none or the session relaxes
// header checks.
func checkHeaders(codec provider.Codec, h http.Header, s *runtime.Settings) *apierr.Error {
	hc, ok := codec.(provider.HeaderChecker)
	if !ok || s.RelaxAPIHeaders {
		return nil
	}
	return hc.CheckHeaders(h)
}
