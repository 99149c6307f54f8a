package anthropic

import (
	"net/http"
	"strings"

	"github.com/llmtestserver/llmtestserver/internal/apierr"
	"github.com/llmtestserver/llmtestserver/internal/provider"
)

var _ provider.HeaderChecker = Codec{}

// apiVersions are the anthropic-version values the API publishes: the
// first, the one SDKs sent until the v2 bump, and 2026-10-21, which
// anthropic-sdk-go v2 and @anthropic-ai/sdk send (requestconfig.go). The
// API answers any other date as not a valid version (a real report:
// sseshachala/conductai#2179).
var apiVersions = map[string]bool{"2023-01-01": true, "2023-06-01": true, "2026-10-21": true}

// CheckHeaders implements provider.HeaderChecker with the API's checks of
// anthropic-version and anthropic-beta, on every route. The HTTP core runs
// it once the key is accepted: a request with neither key nor version is
// refused for its key (inferred; the order is not documented).
func (Codec) CheckHeaders(h http.Header) *apierr.Error {
	versions := h.Values("Anthropic-Version")
	if len(versions) == 0 {
		// The real wording (PipedreamHQ/pipedream#9697,
		// envoyproxy/ai-gateway#1909).
		return invalid("", "anthropic-version: header is required")
	}
	// Repeated headers reach the API joined, and are then no valid
	// version: the real wording quotes the joined value
	// (decolua/9router#1227).
	if v := strings.Join(versions, ", "); !apiVersions[v] {
		return invalid("", "anthropic-version: %q is not a valid version", v)
	}
	var unknown []string
	for _, v := range h.Values("Anthropic-Beta") {
		for b := range strings.SplitSeq(v, ",") {
			if b = strings.TrimSpace(b); b != "" && !knownBeta(b) {
				unknown = append(unknown, "`"+b+"`")
			}
		}
	}
	if len(unknown) > 0 {
		// The real wording for one value (anthropics/claude-code#53855,
		// #13770); several are listed with commas (inferred).
		return invalid("", "Unexpected value(s) %s for the `anthropic-beta` header. Please consult our documentation at docs.anthropic.com or try again without the header.",
			strings.Join(unknown, ", "))
	}
	return nil
}
