package server

import (
	"net/http"
	"strings"

	"github.com/llmtestserver/llmtestserver/internal/admin"
	"github.com/llmtestserver/llmtestserver/internal/anthropic"
	"github.com/llmtestserver/llmtestserver/internal/apierr"
	"github.com/llmtestserver/llmtestserver/internal/dashboard"
	"github.com/llmtestserver/llmtestserver/internal/gemini"
	"github.com/llmtestserver/llmtestserver/internal/httpx"
	"github.com/llmtestserver/llmtestserver/internal/openai"
	"github.com/llmtestserver/llmtestserver/internal/provider"
)

// HTTPMaxHeaderBytes is the MaxHeaderBytes the HTTP servers mounting the
// handler set (see httpx.MaxHeaderBytes).
const HTTPMaxHeaderBytes = httpx.HTTPMaxHeaderBytes

// Options tunes the handler.
type Options struct {
	// MaxRequestBytes bounds every request body.
	MaxRequestBytes int64
	// MaxConfigBytes is the most bytes of a session's configuration, which
	// bounds the admin API's bodies further (see admin.New).
	MaxConfigBytes int64
	// Dashboard serves the browser dashboard (internal/dashboard) at / to
	// the holder of the management key; without it / is a provider 404.
	Dashboard bool
}

// codecs are the providers the server speaks, in the order they are asked
// to claim a request to a route several of them serve. Gemini comes first:
// it claims only what its headers, key or paths say is its own. The last
// one, the fallback, also answers requests to routes nobody serves.
var codecs = []provider.Codec{gemini.Codec{}, anthropic.Codec{}, openai.Codec{}}

// BasePath is the path under the server's root that the SDKs of the
// provider called name (a codec's Name: "openai", "anthropic") take as
// their base URL, and false for a provider the server does not speak.
func BasePath(name string) (string, bool) {
	for _, c := range codecs {
		if c.Name() == name {
			return c.BasePath(), true
		}
	}
	return "", false
}

// handler routes every request of the server.
type handler struct {
	sessions admin.Sessions
	admin    *admin.Handler
	// dashboard serves the dashboard's GET and HEAD requests; nil without
	// Options.Dashboard.
	dashboard http.Handler
	opts      Options
	routes    []route
}

// route is one route of one codec.
type route struct {
	codec provider.Codec
	provider.Route
}

// New returns the server's handler.
func New(sessions admin.Sessions, opts Options) http.Handler {
	h := &handler{sessions: sessions, admin: admin.New(sessions, opts.MaxRequestBytes, opts.MaxConfigBytes), opts: opts}
	if opts.Dashboard {
		h.dashboard = h.admin.Guard(dashboard.Handler())
	}
	for _, c := range codecs {
		for _, r := range c.Routes() {
			h.routes = append(h.routes, route{c, r})
		}
	}
	return h
}

func (h *handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if h.dashboard != nil && dashboard.Serves(r) {
		if err := httpx.HeadersTooLarge(r); err != nil {
			httpx.WriteError(w, err, 0, admin.Render)
			return
		}
		h.dashboard.ServeHTTP(w, r)
		return
	}
	if strings.HasPrefix(r.URL.Path, admin.Prefix) {
		if err := httpx.HeadersTooLarge(r); err != nil {
			httpx.WriteError(w, err, 0, admin.Render)
			return
		}
		h.admin.ServeHTTP(w, r)
		return
	}
	served, codec, found := h.find(r)
	if err := httpx.HeadersTooLarge(r); err != nil {
		httpx.WriteCodecError(w, err, codec)
		return
	}
	sel, _, err := httpx.Select(h.sessions, r.Header)
	if err != nil {
		// Nothing is invoked or journaled: the request reached no runtime.
		httpx.WriteCodecError(w, err, codec)
		return
	}
	if !found {
		served = route{codec: codec, Route: provider.Route{Serve: h.notFound}}
	}
	httpx.Serve(w, r, sel, codec, served.Route, h.opts.MaxRequestBytes, sel == h.sessions.Default(), h)
}

// find returns the route that serves r, with the codec that speaks it: of
// the codecs serving r's path, the first that claims r. A path no codec
// serves goes to the first codec that claims r, for its error envelope.
func (h *handler) find(r *http.Request) (route, provider.Codec, bool) {
	var match *route
	for i := range h.routes {
		candidate := &h.routes[i]
		if !matches(candidate.Path, r.URL.Path) {
			continue
		}
		if candidate.codec.Claims(r) {
			return h.withMethod(*candidate, r), candidate.codec, true
		}
		if match == nil {
			match = candidate
		}
	}
	if match != nil {
		return h.withMethod(*match, r), match.codec, true
	}
	for _, c := range codecs {
		if c.Claims(r) {
			return route{}, c, false
		}
	}
	fallback := codecs[len(codecs)-1]
	return route{}, fallback, false
}

// withMethod returns served, or a route refusing r's method if served
// takes another.
func (h *handler) withMethod(served route, r *http.Request) route {
	if served.Method == "" || served.Method == r.Method {
		return served
	}
	allow := served.Method
	served.Serve = func(x *provider.Exchange) provider.Response {
		return provider.Response{Err: apierr.MethodNotAllowed(r.Method, r.URL.Path, allow)}
	}
	return served
}

// matches reports whether a route's path serves path: exactly, or, for a
// route path ending in "/", any longer path under it.
func matches(routePath, path string) bool {
	if strings.HasSuffix(routePath, "/") {
		return len(path) > len(routePath) && strings.HasPrefix(path, routePath)
	}
	return path == routePath
}

// notFound answers a path no codec serves, with a hint when the path
// lacks the base path the SDK's base URL should have carried.
func (h *handler) notFound(x *provider.Exchange) provider.Response {
	path := x.Request.URL.Path
	hint := ""
	for _, candidate := range h.routes {
		base := candidate.codec.BasePath()
		if base != "" && matches(candidate.Path, base+path) {
			hint = "; the API is served under " + base + ", so use the session's BaseURL() as the SDK's base URL"
			break
		}
	}
	if strings.HasPrefix(path, "/v1/v1/") {
		hint = "; Anthropic's SDK appends /v1 to its base URL itself, so give it the session's AnthropicBaseURL()"
	}
	return provider.Response{Err: apierr.RouteNotFound(x.Request.Method, path, hint)}
}
