package admin

import (
	"net/http"
	"strings"

	"github.com/llmtestserver/llmtestserver/internal/apierr"
	"github.com/llmtestserver/llmtestserver/internal/httpx"
	"github.com/llmtestserver/llmtestserver/internal/runtime"
)

// Inspector is the part of Sessions that lets the holder of the
// management key read a session by its ID alone, without its key: what the
// dashboard shows of the working set.
type Inspector interface {
	// Inspect returns the runtime of the live session id and its row of
	// the working-set listing. It is no use of the session: it changes
	// neither its last access nor its journal.
	Inspect(id string) (*runtime.Runtime, SessionInfo, bool)
}

// inspectRoutes are the read-only views of one session under
// /admin-api/sessions/{id}/, by the path's last element; the session
// itself is served at /admin-api/sessions/{id}.
var inspectRoutes = map[string]func(h *Handler, w http.ResponseWriter, r *http.Request, sel selected){
	"journal":    (*Handler).journal,
	"scenarios":  (*Handler).listScenarios,
	"assertions": (*Handler).assertions,
}

// inspect serves the inspection routes, GET /admin-api/sessions/{id} and
// GET /admin-api/sessions/{id}/{journal,scenarios,assertions}, where rest
// is the path after /admin-api/sessions/. It reports false, having written
// nothing, for any other request under /admin-api/sessions/ (DELETE of a
// session, routes of other owners).
//
// The routes are guarded by the management key and refuse session headers,
// as GET /admin-api/sessions does: they are the server's view of its
// sessions, not a session's own control routes. They take the same query
// filters and answer the same bodies as their counterparts on the selected
// runtime.
func (h *Handler) inspect(w http.ResponseWriter, r *http.Request, rest string) bool {
	id, view, sub := strings.Cut(rest, "/")
	serve, known := inspectRoutes[view]
	switch {
	case sub && !known:
		return false
	case !sub && r.Method == http.MethodDelete:
		return false
	case !sub && r.Method != http.MethodGet:
		writeError(w, apierr.MethodNotAllowed(r.Method, r.URL.Path, "GET, DELETE"))
		return true
	case sub && r.Method != http.MethodGet:
		writeError(w, apierr.MethodNotAllowed(r.Method, r.URL.Path, http.MethodGet))
		return true
	}
	if httpx.HasSelector(r.Header) {
		writeError(w, apierr.SessionSelectorNotAllowed())
		return true
	}
	if err := authorize(r, h.sessions.Default().KeyAccepted); err != nil {
		writeError(w, err)
		return true
	}
	rt, info, ok := h.sessions.Inspect(id)
	if !ok {
		writeError(w, noSessionWithID(id))
		return true
	}
	w.Header().Set("Cache-Control", "no-store")
	if !sub {
		writeJSON(w, http.StatusOK, info)
		return true
	}
	serve(h, w, r, selected{rt, id})
	return true
}

// noSessionWithID answers an inspection of a session that does not exist,
// or no longer does, with the code a session request gets for it.
func noSessionWithID(id string) *apierr.Error {
	const shown = 64 // an ID is 36 bytes; anything longer is not one
	if len(id) > shown {
		id = id[:shown] + "…"
	}
	return &apierr.Error{Status: http.StatusNotFound, Code: "session_not_found",
		Message: "No live session has the ID '" + id + "'. GET /admin-api/sessions lists the live ones."}
}

// Guard serves next to the holder of the management key only (as a bearer
// token, or as the password of HTTP Basic auth), and refuses session
// headers as the inspection routes do. Its 401 asks for Basic auth
// (WWW-Authenticate), so that a browser opening the dashboard prompts for
// the key; the admin API's own 401s do not, since its clients are programs.
func (h *Handler) Guard(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if httpx.HasSelector(r.Header) {
			writeError(w, apierr.SessionSelectorNotAllowed())
			return
		}
		if err := authorize(r, h.sessions.Default().KeyAccepted); err != nil {
			w.Header().Set("WWW-Authenticate", `Basic realm="llmtestserver"`)
			writeError(w, err)
			return
		}
		next.ServeHTTP(w, r)
	})
}

// crossSite reports whether a browser sent r from a page of another site
// (its Sec-Fetch-Site header says so). A browser sends the Basic
// credentials it logged in to the dashboard with on such requests too, so
// a page elsewhere could otherwise reset or reconfigure the server by a
// form: credentials the browser adds by itself count only from the
// server's own pages. Programs send no such header.
func crossSite(r *http.Request) bool {
	switch r.Header.Get("Sec-Fetch-Site") {
	case "cross-site", "same-site":
		return true
	}
	return false
}

func crossSiteRefused() *apierr.Error {
	return &apierr.Error{Status: http.StatusForbidden, Type: "invalid_request_error", Code: "cross_site_request",
		Message: "Basic credentials are accepted only from the server's own pages, and this request came from another site. Send the key as a bearer token."}
}
