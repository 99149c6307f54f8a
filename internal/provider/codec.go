// Package provider is the seam between the provider-neutral core and the
// codecs that speak each provider's wire format. A codec registers its
// routes, authenticates its requests, decodes and validates their bodies
// into scenario.Request, and renders answers (JSON and event streams) and
// errors in its provider's shapes; the HTTP core (internal/httpx) and the
// answer layer (internal/answer) do everything else, once, for every
// provider.
package provider

import (
	"net/http"
	"time"

	"github.com/llmtestserver/llmtestserver/internal/apierr"
)

// Codec is one provider's wire format.
type Codec interface {
	// Name is the provider's name, as the journal records it: "openai",
	// "anthropic".
	Name() string
	// Routes are the routes the codec serves.
	Routes() []Route
	// Claims reports whether a request to a route that several codecs
	// serve (GET /v1/models) speaks this codec, as its headers tell.
	Claims(r *http.Request) bool
	// APIKey returns the provider key the request presents, and whether
	// it presents one at all: in a header, or (Gemini's ?key=) in its
	// query.
	APIKey(r *http.Request) (key string, present bool)
	// AuthError is the error for a request that presents no key (missing)
	// or a wrong one (key).
	AuthError(missing bool, key string) *apierr.Error
	// Resolve returns e in the provider's words: its status for e's kind
	// when e has none, its error type, and its message for the status when
	// e has none. The journal records the code or type of the result.
	Resolve(e *apierr.Error) *apierr.Error
	// RenderError returns the status and the JSON body of e in the
	// provider's envelope; serial is the runtime's number of the request,
	// for envelopes that carry a request ID (0 before a runtime is known).
	RenderError(e *apierr.Error, serial uint64) (status int, body any)
	// SetHeaders sets the headers the provider sends with every response:
	// its request ID, made from the runtime's serial number, and how long
	// the request took.
	SetHeaders(h http.Header, serial uint64, elapsed time.Duration)
	// Catalog lists the models the codec serves when a session names
	// none.
	Catalog() []string
	// ModelNotFound refuses a model the session does not serve, naming
	// those it does (served), which are its allow-list when allowList.
	ModelNotFound(model string, served []string, allowList bool) *apierr.Error
	// BasePath is the path under the server's root that the provider's
	// SDK takes as its base URL ("/v1" for OpenAI, "" for Anthropic, whose
	// SDK appends /v1 itself).
	BasePath() string
}

// Route is one route of a codec.
type Route struct {
	// Method is the HTTP method the route takes.
	Method string
	// Path is the route's path; one that ends in "/" matches every longer
	// path under it.
	Path string
	// Serve answers the request.
	Serve func(x *Exchange) Response
}

// HeaderReader is implemented by a codec whose requests carry headers the
// journal shows besides those every request's entry keeps: the HTTP core
// records what it returns, before the route runs.
type HeaderReader interface {
	RequestHeaders(h http.Header) RequestHeaders
}

// HeaderChecker is implemented by a codec whose API refuses requests for
// their headers alone (Anthropic's anthropic-version and anthropic-beta):
// the HTTP core asks it once the key is accepted, unless the session
// relaxes header checks, and answers its error instead of the route.
type HeaderChecker interface {
	CheckHeaders(h http.Header) *apierr.Error
}

// RequestHeaders is what a codec reads of a request's own headers for the
// journal.
type RequestHeaders struct {
	// APIVersion is the API version the request asked for (Anthropic's
	// anthropic-version).
	APIVersion string
	// Betas are the beta features it asked for (anthropic-beta), in order.
	Betas []string
}
