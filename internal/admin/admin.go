package admin

import (
	"net/http"
	"slices"
	"strings"

	"github.com/llmtestserver/llmtestserver/internal/apierr"
	"github.com/llmtestserver/llmtestserver/internal/httpx"
	"github.com/llmtestserver/llmtestserver/internal/provider"
	"github.com/llmtestserver/llmtestserver/internal/runtime"
	"github.com/llmtestserver/llmtestserver/journal"
)

// createSession serves POST /admin-api/sessions. It is guarded by the default
// runtime's bearer token, the management key, and refuses session headers.
func (h *Handler) createSession(w http.ResponseWriter, r *http.Request) {
	if httpx.HasSelector(r.Header) {
		writeError(w, apierr.SessionSelectorNotAllowed())
		return
	}
	if err := authorize(r, h.sessions.Default().KeyAccepted); err != nil {
		writeError(w, err)
		return
	}
	body, err := provider.ReadBody(r, h.maxBody)
	if err != nil {
		writeError(w, err)
		return
	}
	created, cerr := h.sessions.Create(body)
	if cerr != nil {
		writeError(w, asAPIError(cerr))
		return
	}
	w.Header().Set("Location", sessionsPath+"/"+created.ID)
	w.Header().Set("Cache-Control", "no-store")
	writeJSON(w, http.StatusCreated, created)
}

// deleteSession serves DELETE /admin-api/sessions/{id}. Only the session's
// own headers authorize it, so a changed provider key never blocks cleanup.
func (h *Handler) deleteSession(w http.ResponseWriter, r *http.Request, id string) {
	ids, keys := r.Header.Values(httpx.HeaderSession), r.Header.Values(httpx.HeaderSessionKey)
	if len(ids) != 1 || len(keys) != 1 || ids[0] != id {
		writeError(w, apierr.SessionNotFound())
		return
	}
	if err := h.sessions.Delete(id, keys[0]); err != nil {
		writeError(w, asAPIError(err))
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

// serveControl serves the control routes of the selected runtime, guarded by
// its bearer token. Control calls are not journaled: the journal records what
// the code under test sent to the provider.
func (h *Handler) serveControl(w http.ResponseWriter, r *http.Request, sel selected) {
	routes, ok := controlRoutes[r.URL.Path]
	if !ok {
		writeError(w, apierr.RouteNotFound(r.Method, r.URL.Path, ""))
		return
	}
	i := slices.IndexFunc(routes, func(c controlRoute) bool { return c.method == r.Method })
	if i < 0 {
		methods := make([]string, len(routes))
		for j, c := range routes {
			methods[j] = c.method
		}
		writeError(w, apierr.MethodNotAllowed(r.Method, r.URL.Path, strings.Join(methods, ", ")))
		return
	}
	route := routes[i]
	if err := authorize(r, sel.rt.KeyAccepted); err != nil {
		writeError(w, err)
		return
	}
	route.serve(h, w, r, sel)
}

type controlRoute struct {
	method string
	serve  func(h *Handler, w http.ResponseWriter, r *http.Request, sel selected)
}

var controlRoutes = map[string][]controlRoute{
	"/admin-api/config":     {{http.MethodPut, (*Handler).configure}},
	"/admin-api/reset":      {{http.MethodPost, (*Handler).reset}},
	"/admin-api/journal":    {{http.MethodGet, (*Handler).journal}},
	"/admin-api/scenarios":  {{http.MethodGet, (*Handler).listScenarios}, {http.MethodPost, (*Handler).addScenarios}},
	"/admin-api/assertions": {{http.MethodGet, (*Handler).assertions}},
}

func (h *Handler) configure(w http.ResponseWriter, r *http.Request, sel selected) {
	body, err := provider.ReadBody(r, h.maxBody)
	if err != nil {
		writeError(w, err)
		return
	}
	if cerr := h.sessions.Configure(sel.id, body); cerr != nil {
		writeError(w, asAPIError(cerr))
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

func (h *Handler) reset(w http.ResponseWriter, _ *http.Request, sel selected) {
	sel.rt.Reset()
	w.WriteHeader(http.StatusNoContent)
}

// selected is the runtime a control request is for, with its session ID
// ("" for the default runtime).
type selected struct {
	rt *runtime.Runtime
	id string
}

// assertionsBody is the body of GET /admin-api/assertions.
type assertionsBody struct {
	Unmatched           []journal.Entry `json:"unmatched"`
	UnmatchedTotal      int             `json:"unmatched_total"`
	SchemaMismatches    []journal.Entry `json:"schema_mismatches"`
	SchemaMismatchTotal int             `json:"schema_mismatch_total"`
	// Contradictions are the entries whose reply contradicts the request.
	Contradictions     []journal.Entry `json:"contradictions"`
	ContradictionTotal int             `json:"contradiction_total"`
	UnusedReplies      map[string]int  `json:"unused_replies"`
	// Unused lists the unused replies one by one, with their index.
	Unused []journal.UnusedReply `json:"unused"`
	// Faults counts the fired faults by kind.
	Faults map[string]int `json:"faults"`
}

func (h *Handler) assertions(w http.ResponseWriter, _ *http.Request, sel selected) {
	r := sel.rt.Assertions()
	body := assertionsBody{Unmatched: r.Unmatched, UnmatchedTotal: r.UnmatchedTotal,
		SchemaMismatches: r.SchemaMismatches, SchemaMismatchTotal: r.SchemaMismatchTotal,
		Contradictions: r.Contradictions, ContradictionTotal: r.ContradictionTotal, UnusedReplies: r.UnusedReplies,
		Unused: r.Unused, Faults: r.Faults}
	if body.Unused == nil {
		body.Unused = []journal.UnusedReply{}
	}
	if body.Unmatched == nil {
		body.Unmatched = []journal.Entry{}
	}
	if body.SchemaMismatches == nil {
		body.SchemaMismatches = []journal.Entry{}
	}
	if body.Contradictions == nil {
		body.Contradictions = []journal.Entry{}
	}
	if body.UnusedReplies == nil {
		body.UnusedReplies = map[string]int{}
	}
	if body.Faults == nil {
		body.Faults = map[string]int{}
	}
	writeJSON(w, http.StatusOK, body)
}
