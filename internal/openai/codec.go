package openai

import (
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/llmtestserver/llmtestserver/internal/answer"
	"github.com/llmtestserver/llmtestserver/internal/apierr"
	"github.com/llmtestserver/llmtestserver/internal/provider"
)

// Codec is OpenAI's wire format on the provider seam: Chat Completions,
// the Responses API and its conversations, embeddings and the model
// catalog, under /v1.
type Codec struct{}

var (
	_ provider.Codec   = Codec{}
	_ provider.Aliaser = Codec{}
)

// Name implements provider.Codec.
func (Codec) Name() string { return "openai" }

// BasePath implements provider.Codec: the SDKs take the server's root
// plus /v1 as their base URL.
func (Codec) BasePath() string { return "/v1" }

// Routes implements provider.Codec.
func (Codec) Routes() []provider.Route {
	return []provider.Route{
		{Path: "/v1/chat/completions", Serve: serveChatCompletions},
		{Path: "/v1/chat/completions/", Serve: serveStoredChat},
		{Method: http.MethodPost, Path: "/v1/embeddings", Serve: serveEmbeddings},
		{Method: http.MethodPost, Path: "/v1/responses", Serve: answer.Serve(decodeResponses)},
		{Method: http.MethodPost, Path: "/v1/responses/input_tokens", Serve: answer.Count(decodeInputTokens, inputTokenCount)},
		{Method: http.MethodPost, Path: "/v1/responses/compact", Serve: serveCompact},
		{Path: "/v1/responses/", Serve: serveResponseByID},
		{Method: http.MethodPost, Path: conversationsPath, Serve: serveConversations},
		{Path: conversationsPath + "/", Serve: serveConversationByID},
		{Method: http.MethodGet, Path: "/v1/models", Serve: serveModels},
		{Method: http.MethodGet, Path: "/v1/models/", Serve: serveModel},
		{Path: "/v1/videos", Serve: serveVideos},
		{Path: "/v1/videos/", Serve: serveVideoByID},
		{Path: "/v1/files", Serve: serveFiles},
		{Path: "/v1/files/", Serve: serveFileByID},
		{Path: "/v1/batches", Serve: serveBatches},
		{Path: "/v1/batches/", Serve: serveBatchByID},
	}
}

// Claims implements provider.Codec: OpenAI's is the format of every
// request that no other codec claims.
func (Codec) Claims(*http.Request) bool { return true }

// APIKey implements provider.Codec: OpenAI's SDKs send the key as a
// bearer token.
func (Codec) APIKey(r *http.Request) (string, bool) {
	token, found := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
	return token, found && token != ""
}

// AuthError implements provider.Codec.
func (Codec) AuthError(missing bool, key string) *apierr.Error {
	if missing {
		return MissingAPIKey()
	}
	return InvalidAPIKey(key)
}

// Resolve implements provider.Codec. A body that broke off is answered as
// the API answers a body that is not JSON.
func (Codec) Resolve(e *apierr.Error) *apierr.Error {
	if provider.IsBodyUnreadable(e) {
		e = InvalidJSON()
	}
	return Resolve(e)
}

// RenderError implements provider.Codec.
func (Codec) RenderError(e *apierr.Error, _ uint64) (int, any) {
	e = Resolve(e)
	return e.Status, envelopeOf(e)
}

// SetHeaders implements provider.Codec with the headers the real API sends
// on every response.
func (Codec) SetHeaders(h http.Header, serial uint64, elapsed time.Duration) {
	h.Set("X-Request-Id", RequestID(serial))
	h.Set("Openai-Version", "2020-10-01")
	h.Set("Openai-Processing-Ms", strconv.FormatInt(elapsed.Milliseconds(), 10))
}

// RequestID is the x-request-id of the runtime's request numbered serial:
// "req_" and 32 lowercase hexadecimal digits, as the real API's. Serials
// are unique per runtime and start at a random number (or one drawn from
// the session's ID seed), and the digits mix the serial with two
// bijections (splitmix64), so that IDs neither look like a counter nor
// repeat across sessions.
func RequestID(serial uint64) string {
	return fmt.Sprintf("req_%016x%016x", mix64(serial), mix64(serial^0x5bd1e995_5bd1e995))
}

// mix64 is splitmix64's finalizer, a bijection of uint64.
func mix64(z uint64) uint64 {
	z += 0x9e3779b97f4a7c15
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

// AliasOf implements provider.Aliaser.
func (Codec) AliasOf(model string) string { return AliasOf(model) }

// Catalog implements provider.Codec.
func (Codec) Catalog() []string { return catalogIDs }

// catalogIDs is the catalog's IDs, listed once: requests ask for them every
// time, and must not change them.
var catalogIDs = CatalogIDs()

// ModelNotFound implements provider.Codec.
func (Codec) ModelNotFound(model string, served []string, allowList bool) *apierr.Error {
	return ModelNotFound(model, served, allowList)
}

func serveModels(x *provider.Exchange) provider.Response {
	return provider.Response{JSON: Models(x.Models())}
}

// serveModel serves GET /v1/models/{id}.
func serveModel(x *provider.Exchange) provider.Response {
	id := strings.TrimPrefix(x.Request.URL.Path, "/v1/models/")
	if !x.Serves(id) {
		return provider.Response{Err: answer.ModelNotFound(x, id), Model: id}
	}
	return provider.Response{JSON: Models([]string{id}).Data[0], Model: id}
}
