package anthropic

import (
	"net/http"
	"strings"
	"time"

	"github.com/llmtestserver/llmtestserver/internal/answer"
	"github.com/llmtestserver/llmtestserver/internal/apierr"
	"github.com/llmtestserver/llmtestserver/internal/provider"
)

// Codec is Anthropic's wire format on the provider seam: the Messages API,
// token counting and the model catalog. Its SDK appends /v1 to the base
// URL itself, so it is served from the server's root.
type Codec struct{}

var _ provider.Codec = Codec{}

// Name implements provider.Codec.
func (Codec) Name() string { return "anthropic" }

// BasePath implements provider.Codec.
func (Codec) BasePath() string { return "" }

// Routes implements provider.Codec.
func (Codec) Routes() []provider.Route {
	return []provider.Route{
		{Method: http.MethodPost, Path: "/v1/messages", Serve: answer.Serve(decodeMessages)},
		{Method: http.MethodPost, Path: "/v1/messages/count_tokens", Serve: answer.Count(decodeCountTokens, countBody)},
		{Path: "/v1/messages/batches", Serve: serveBatches},
		{Path: "/v1/messages/batches/", Serve: serveBatchByID},
		{Method: http.MethodGet, Path: "/v1/models", Serve: serveModels},
		{Method: http.MethodGet, Path: "/v1/models/", Serve: serveModel},
	}
}

// Claims implements provider.Codec: Anthropic's SDKs send anthropic-version
// on every request, and its curl examples an x-api-key.
func (Codec) Claims(r *http.Request) bool {
	return r.Header.Get("Anthropic-Version") != "" || r.Header.Get("X-Api-Key") != "" ||
		strings.HasPrefix(r.URL.Path, "/v1/messages")
}

// APIKey implements provider.Codec: x-api-key, or a bearer token, which
// is what v2 of the Go SDK sends.
func (Codec) APIKey(r *http.Request) (string, bool) {
	key, _ := APIKey(r.Header)
	return key, key != ""
}

// AuthError implements provider.Codec.
func (Codec) AuthError(missing bool, _ string) *apierr.Error { return AuthError(missing) }

// Resolve implements provider.Codec. A body that broke off is answered as
// the API answers a body that is not JSON.
func (Codec) Resolve(e *apierr.Error) *apierr.Error {
	if provider.IsBodyUnreadable(e) {
		e = InvalidJSON()
	}
	e = inAnthropicWords(e)
	out := *e
	out.Status, out.Type = statusAndType(e)
	if out.Message == "" {
		out.Message = errorTypes[out.Type]
	}
	return &out
}

// RenderError implements provider.Codec.
func (Codec) RenderError(e *apierr.Error, serial uint64) (int, any) {
	return Envelope(e, RequestID(serial))
}

// SetHeaders implements provider.Codec.
func (Codec) SetHeaders(h http.Header, serial uint64, _ time.Duration) { SetHeaders(h, serial) }

// Catalog implements provider.Codec.
func (Codec) Catalog() []string { return catalogIDs }

// catalogIDs is the catalog's IDs, listed once: requests ask for them every
// time, and must not change them.
var catalogIDs = CatalogIDs()

// ModelNotFound implements provider.Codec.
func (Codec) ModelNotFound(model string, served []string, allowList bool) *apierr.Error {
	return ModelNotFound(model, served, allowList)
}

// RequestHeaders implements provider.HeaderReader: the version and the
// betas the request asked for, which the journal shows (CheckHeaders
// refuses what the API refuses of them).
func (Codec) RequestHeaders(h http.Header) provider.RequestHeaders {
	out := provider.RequestHeaders{APIVersion: h.Get("Anthropic-Version")}
	for _, v := range h.Values("Anthropic-Beta") {
		for b := range strings.SplitSeq(v, ",") {
			if b = strings.TrimSpace(b); b != "" {
				out.Betas = append(out.Betas, b)
			}
		}
	}
	return out
}

// serveModels serves GET /v1/models: the models the runtime serves, at
// its clock, paged.
func serveModels(x *provider.Exchange) provider.Response {
	q, err := parseListQuery(x.Request.URL.Query())
	if err != nil {
		return provider.Response{Err: err}
	}
	return provider.Response{JSON: ModelList(x.Models(), x.Runtime.Now(), q)}
}

// serveModel serves GET /v1/models/{id}.
func serveModel(x *provider.Exchange) provider.Response {
	id := strings.TrimPrefix(x.Request.URL.Path, "/v1/models/")
	if !x.Serves(id) {
		return provider.Response{Err: answer.ModelNotFound(x, id), Model: id}
	}
	// A retired model is still described: it stays in the catalogue as
	// the record of its retirement (ModelInfo.Lifecycle doc).
	return provider.Response{JSON: ModelObject(id, x.Runtime.Now()), Model: id}
}
