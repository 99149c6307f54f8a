package gemini

import (
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/llmtestserver/llmtestserver/internal/apierr"
	"github.com/llmtestserver/llmtestserver/internal/provider"
)

// Codec is the Gemini API's wire format on the provider seam, as genai
// speaks it: the Developer API under /v1beta (and v1, v1alpha) and Vertex
// AI's paths under /v1beta1 (project and express mode), generation,
// token counting, embeddings, the models API and cached contents. Its SDK
// appends the API version to the base URL itself, so it is served from
// the server's root.
type Codec struct{}

var _ provider.Codec = Codec{}

// Name implements provider.Codec.
func (Codec) Name() string { return "gemini" }

// BasePath implements provider.Codec.
func (Codec) BasePath() string { return "" }

// routePrefixes are the paths the codec serves, each answered by serve,
// which reads the path as the API does (see parsePath). Under /v1 only
// the Gemini collections are taken: the rest of /v1 is OpenAI's and
// Anthropic's.
var routePrefixes = []string{"/v1beta/", "/v1alpha/", "/v1beta1/", "/v1/models", "/v1/models/",
	"/v1/cachedContents", "/v1/cachedContents/", "/v1/tunedModels/", "/v1/projects/", "/v1/publishers/"}

// Routes implements provider.Codec.
func (Codec) Routes() []provider.Route {
	routes := make([]provider.Route, len(routePrefixes))
	for i, p := range routePrefixes {
		routes[i] = provider.Route{Path: p, Serve: serve}
	}
	return routes
}

// Claims implements provider.Codec: genai sends x-goog-api-key and
// x-goog-api-client on every request, curl users a key= query; the
// version prefixes v1beta, v1alpha and v1beta1 and a model method
// ("models/x:generateContent") are Gemini's alone.
func (Codec) Claims(r *http.Request) bool {
	h := r.Header
	if h.Get("X-Goog-Api-Key") != "" || h.Get("X-Goog-Api-Client") != "" {
		return true
	}
	if r.URL.RawQuery != "" && r.URL.Query().Has("key") {
		return true
	}
	p := r.URL.Path
	for _, prefix := range []string{"/v1beta/", "/v1alpha/", "/v1beta1/", "/v1/cachedContents", "/v1/tunedModels/", "/v1/projects/", "/v1/publishers/"} {
		if strings.HasPrefix(p, prefix) {
			return true
		}
	}
	// Under /v1/models/ only a Gemini method is Gemini's: OpenAI's
	// fine-tuned model IDs (ft:gpt-4.1-mini:org::id) hold colons too.
	rest, ok := strings.CutPrefix(p, "/v1/models/")
	if i := strings.LastIndexByte(rest, ':'); ok && i >= 0 {
		_, known := wantMethod[rest[i+1:]]
		return known
	}
	return false
}

// APIKey implements provider.Codec: x-goog-api-key (what genai sends),
// else the key query parameter (the REST docs' curl examples), else a
// bearer token.
func (Codec) APIKey(r *http.Request) (string, bool) {
	if vs, ok := r.Header["X-Goog-Api-Key"]; ok && len(vs) > 0 {
		return vs[0], true
	}
	if r.URL.RawQuery != "" {
		if q := r.URL.Query(); q.Has("key") {
			return q.Get("key"), true
		}
	}
	if k, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer "); ok {
		return strings.TrimSpace(k), true
	}
	return "", false
}

// AuthError implements provider.Codec.
func (Codec) AuthError(missing bool, _ string) *apierr.Error { return AuthError(missing) }

// Resolve implements provider.Codec: e in the API's words, its canonical
// code as its type. A body that broke off is answered as one that is not
// JSON; a script's code that is a canonical code ("UNAVAILABLE") is the
// error's status; OpenAI's rate_limit_exceeded, which scenario.RateLimited
// scripts, is the bare RESOURCE_EXHAUSTED the API sends.
func (Codec) Resolve(e *apierr.Error) *apierr.Error {
	if provider.IsBodyUnreadable(e) {
		e = invalidJSON("Unexpected end of string.")
	}
	if _, own := statusCodes[e.Code]; own && (e.Type == "" || e.Type == e.Code) {
		out := *e
		out.Type, out.Code = e.Code, ""
		if e.Status == 0 || e.Status == http.StatusInternalServerError {
			out.Status = statusCodes[e.Code].http
		}
		e = &out
	} else if e.Code == "rate_limit_exceeded" {
		out := *e
		out.Code = ""
		e = &out
	}
	return resolve(e)
}

// RenderError implements provider.Codec.
func (Codec) RenderError(e *apierr.Error, _ uint64) (int, any) { return Envelope(e) }

// SetHeaders implements provider.Codec: the Server-Timing header Google's
// front end sends with every answer, with how long the request took.
func (Codec) SetHeaders(h http.Header, _ uint64, elapsed time.Duration) {
	h.Set("Server-Timing", "gfet4t7; dur="+strconv.FormatInt(elapsed.Milliseconds(), 10))
	h.Set("Vary", "Origin, X-Origin, Referer")
}

// Catalog implements provider.Codec.
func (Codec) Catalog() []string { return catalogIDs }

// ModelNotFound implements provider.Codec, in the words of
// generateContent on v1beta; the routes that know their method and
// version word it with them (modelNotFound).
func (Codec) ModelNotFound(model string, served []string, allowList bool) *apierr.Error {
	return ModelNotFound(model, served, allowList, "v1beta", methodGenerate)
}
