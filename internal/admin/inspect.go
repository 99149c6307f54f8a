package admin

import (
	"net/http"

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

// inspected serves a read-only view of the session the path names ({id})
// to the holder of the management key, without the session's key: view
// with the session's runtime, or, when view is nil, its row of the
// working-set listing. These routes are the server's view of its sessions,
// not a session's own control routes, so they are guarded as GET
// /admin-api/sessions is (the management guard of the routing table); they
// take the same query filters and answer the same bodies as their
// counterparts on the selected runtime.
func inspected(view func(h *Handler, w http.ResponseWriter, r *http.Request, c call)) func(h *Handler, w http.ResponseWriter, r *http.Request, c call) {
	return func(h *Handler, w http.ResponseWriter, r *http.Request, c call) {
		if err := h.needManagementKey(); err != nil {
			writeError(w, err)
			return
		}
		rt, info, ok := h.sessions.Inspect(c.id)
		if !ok {
			writeError(w, noSessionWithID(c.id))
			return
		}
		w.Header().Set("Cache-Control", "no-store")
		if view == nil {
			writeJSON(w, http.StatusOK, info)
			return
		}
		view(h, w, r, call{id: c.id, sel: selected{rt, c.id}})
	}
}

// needManagementKey refuses to show a session by its ID alone on a server
// that has no management key: there anyone may list the IDs, and the
// session key would no longer guard a session's journal.
func (h *Handler) needManagementKey() *apierr.Error {
	if !h.sessions.Default().KeyAccepted("") {
		return nil
	}
	return &apierr.Error{Status: http.StatusForbidden, Code: "management_key_required",
		Message: "This server has no management key, so it shows no session by its ID alone: start it with one (session.ManagerConfig.ManagementKey; the standalone server always has one)."}
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
		if err := h.needManagementKey(); err != nil {
			writeError(w, err)
			return
		}
		next.ServeHTTP(w, r)
	})
}

// basicOrigin refuses a request that changes something (not GET, HEAD or
// OPTIONS) and that a browser sent from a page of another origin, by
// Sec-Fetch-Site, or by Origin against Host where a browser sends no
// Sec-Fetch-Site (a plain-http host that is not localhost). A browser
// sends the Basic credentials it logged in to the dashboard with on such
// requests too, so a page elsewhere could otherwise reset or reconfigure
// the server by a form; those credentials count only from the server's
// own pages. Reads stay open to a link from elsewhere: another origin's
// page cannot read their answers. Programs send neither header.
var basicOrigin = http.NewCrossOriginProtection()

func crossSiteRefused() *apierr.Error {
	return &apierr.Error{Status: http.StatusForbidden, Type: "invalid_request_error", Code: "cross_site_request",
		Message: "Basic credentials change the server only from its own pages, and this request came from a page of another origin. Send the key as a bearer token."}
}
