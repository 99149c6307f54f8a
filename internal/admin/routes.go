package admin

import (
	"net/http"
	"strings"

	"github.com/llmtestserver/llmtestserver/internal/apierr"
	"github.com/llmtestserver/llmtestserver/internal/httpx"
)

// Route is one operation of the admin API: what Routes lists, and what
// the OpenAPI description documents under the same path and method.
type Route struct {
	// Method is the HTTP method, such as "GET".
	Method string
	// Path is the path, in which "{id}" stands for one path segment: a
	// session's ID.
	Path string
}

// guard says what authorizes a route.
type guard int

const (
	// public routes need nothing: the API's description.
	public guard = iota
	// management routes belong to the server: the default runtime's
	// bearer token, the management key, and no session headers.
	management
	// sessionOwner routes act on the session the path names ({id}): its
	// own two headers, as deletion takes them, so that a changed provider
	// key never blocks them.
	sessionOwner
	// control routes act on the runtime the session headers select (none:
	// the default runtime), guarded by its bearer token.
	control
)

// call is what a route's handler is given beside the request.
type call struct {
	// id is the {id} segment of the path, and key the session key the
	// request presents, for sessionOwner routes.
	id, key string
	// sel is the selected runtime, for control routes.
	sel selected
}

// route is one row of the routing table.
type route struct {
	Route
	guard guard
	serve func(h *Handler, w http.ResponseWriter, r *http.Request, c call)
}

// routes is the admin API. A route is found by its path (a "{id}" segment
// matches any one non-empty segment) and then its method: a path served
// with other methods only is 405 with Allow, an unknown path 404. A new
// route is one more row; one on a session the path names is a row under
// "/admin-api/sessions/{id}/..." with the guard that fits it.
var routes = []route{
	{Route{http.MethodGet, openAPIPath}, public, (*Handler).openAPI},

	{Route{http.MethodGet, sessionsPath}, management, (*Handler).listSessions},
	{Route{http.MethodPost, sessionsPath}, management, (*Handler).createSession},
	{Route{http.MethodDelete, sessionsPath + "/{id}"}, sessionOwner, (*Handler).deleteSession},
	{Route{http.MethodPost, sessionsPath + "/{id}/fork"}, sessionOwner, (*Handler).forkSession},
	{Route{http.MethodGet, sessionsPath + "/{id}"}, management, inspected(nil)},
	{Route{http.MethodGet, sessionsPath + "/{id}/journal"}, management, inspected((*Handler).journal)},
	{Route{http.MethodGet, sessionsPath + "/{id}/scenarios"}, management, inspected((*Handler).listScenarios)},
	{Route{http.MethodGet, sessionsPath + "/{id}/assertions"}, management, inspected((*Handler).assertions)},
	{Route{http.MethodGet, sessionsPath + "/{id}/jobs"}, management, inspected((*Handler).jobs)},
	{Route{http.MethodGet, "/admin-api/clock"}, management, (*Handler).readClock},
	{Route{http.MethodPost, "/admin-api/clock/advance"}, management, (*Handler).advanceClock},

	{Route{http.MethodGet, "/admin-api/config"}, control, (*Handler).readConfig},
	{Route{http.MethodPut, "/admin-api/config"}, control, (*Handler).configure},
	{Route{http.MethodPost, "/admin-api/reset"}, control, (*Handler).reset},
	{Route{http.MethodGet, "/admin-api/journal"}, control, (*Handler).journal},
	{Route{http.MethodGet, "/admin-api/scenarios"}, control, (*Handler).listScenarios},
	{Route{http.MethodPost, "/admin-api/scenarios"}, control, (*Handler).addScenarios},
	{Route{http.MethodDelete, "/admin-api/scenarios"}, control, (*Handler).clearScenarios},
	{Route{http.MethodGet, "/admin-api/assertions"}, control, (*Handler).assertions},
	{Route{http.MethodGet, "/admin-api/chaos"}, control, (*Handler).readChaos},
	{Route{http.MethodPut, "/admin-api/chaos"}, control, (*Handler).setChaos},
	{Route{http.MethodGet, "/admin-api/rate-limits"}, control, (*Handler).readRateLimits},
	{Route{http.MethodPut, "/admin-api/rate-limits"}, control, (*Handler).setRateLimits},
	{Route{http.MethodGet, "/admin-api/history"}, control, (*Handler).history},
	{Route{http.MethodGet, "/admin-api/jobs"}, control, (*Handler).jobs},
}

// Routes lists every operation the admin API serves, in the order of its
// routing table. The OpenAPI description's test checks it against the
// description, both ways.
func Routes() []Route {
	out := make([]Route, len(routes))
	for i, r := range routes {
		out[i] = r.Route
	}
	return out
}

// ServeHTTP serves one admin request: it finds the route, checks what
// guards it, and serves it. Control calls are not journaled: the journal
// records what the code under test sent to the provider.
func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	var allow []string
	for i := range routes {
		rt := &routes[i]
		id, ok := matchPath(rt.Path, r.URL.Path)
		if !ok {
			continue
		}
		if rt.Method != r.Method {
			allow = append(allow, rt.Method)
			continue
		}
		c, err := h.admit(rt.guard, r, id)
		if err != nil {
			writeError(w, err)
			return
		}
		rt.serve(h, w, r, c)
		return
	}
	if len(allow) > 0 {
		writeError(w, apierr.MethodNotAllowed(r.Method, r.URL.Path, strings.Join(allow, ", ")))
		return
	}
	writeError(w, apierr.RouteNotFound(r.Method, r.URL.Path, ""))
}

// admit checks what guards a route for r, and returns what its handler
// is given.
func (h *Handler) admit(g guard, r *http.Request, id string) (call, *apierr.Error) {
	c := call{id: id}
	switch g {
	case management:
		if httpx.HasSelector(r.Header) {
			return c, apierr.SessionSelectorNotAllowed()
		}
		return c, authorize(r, h.sessions.Default().KeyAccepted)
	case sessionOwner:
		ids, keys := r.Header.Values(httpx.HeaderSession), r.Header.Values(httpx.HeaderSessionKey)
		if len(ids) != 1 || len(keys) != 1 || ids[0] != id {
			return c, apierr.SessionNotFound()
		}
		c.key = keys[0]
	case control:
		rt, sid, err := httpx.Select(h.sessions, r.Header)
		if err != nil {
			return c, err
		}
		c.sel = selected{rt, sid}
		return c, authorize(r, rt.KeyAccepted)
	}
	return c, nil
}

// matchPath reports whether path is served by the route path pattern,
// and returns what its "{id}" segment matched.
func matchPath(pattern, path string) (string, bool) {
	var id string
	for {
		pseg, prest, pmore := strings.Cut(pattern, "/")
		seg, rest, more := strings.Cut(path, "/")
		switch {
		case pseg == "{id}":
			if seg == "" {
				return "", false
			}
			id = seg
		case pseg != seg:
			return "", false
		}
		if pmore != more {
			return "", false
		}
		if !pmore {
			return id, true
		}
		pattern, path = prest, rest
	}
}
