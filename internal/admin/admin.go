package admin

import (
	"net/http"

	"github.com/llmtestserver/llmtestserver/internal/runtime"
	"github.com/llmtestserver/llmtestserver/journal"
)

// createSession serves POST /admin-api/sessions. It is guarded by the default
// runtime's bearer token, the management key, and refuses session headers.
func (h *Handler) createSession(w http.ResponseWriter, r *http.Request, _ call) {
	body, err := h.readBody(r)
	if err != nil {
		writeError(w, err)
		return
	}
	created, cerr := h.sessions.Create(body)
	writeCreated(w, created, cerr)
}

// writeCreated answers the admission of a new session (created, or a
// fork): 201 with its Location and its ID and key, which no cache keeps;
// or err, if admission failed.
func writeCreated(w http.ResponseWriter, created Created, err error) {
	if err != nil {
		writeError(w, asAPIError(err))
		return
	}
	w.Header().Set("Location", sessionsPath+"/"+created.ID)
	w.Header().Set("Cache-Control", "no-store")
	writeJSON(w, http.StatusCreated, created)
}

// deleteSession serves DELETE /admin-api/sessions/{id}. Only the session's
// own headers authorize it, so a changed provider key never blocks cleanup.
func (h *Handler) deleteSession(w http.ResponseWriter, _ *http.Request, c call) {
	if err := h.sessions.Delete(c.id, c.key); err != nil {
		writeError(w, asAPIError(err))
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

func (h *Handler) configure(w http.ResponseWriter, r *http.Request, c call) {
	body, err := h.readBody(r)
	if err != nil {
		writeError(w, err)
		return
	}
	if cerr := h.sessions.Configure(c.sel.id, body); cerr != nil {
		writeError(w, asAPIError(cerr))
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

func (h *Handler) reset(w http.ResponseWriter, _ *http.Request, c call) {
	c.sel.rt.Reset()
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
	// Explanation is the text llmtest.CheckAssertions prints for the
	// report (journal.Report.Explanation), "" when it is clean.
	Explanation string `json:"explanation"`
}

func (h *Handler) assertions(w http.ResponseWriter, _ *http.Request, c call) {
	r := c.sel.rt.Assertions()
	body := assertionsBody{Unmatched: r.Unmatched, UnmatchedTotal: r.UnmatchedTotal,
		SchemaMismatches: r.SchemaMismatches, SchemaMismatchTotal: r.SchemaMismatchTotal,
		Contradictions: r.Contradictions, ContradictionTotal: r.ContradictionTotal, UnusedReplies: r.UnusedReplies,
		Unused: r.Unused, Faults: r.Faults, Explanation: r.Explanation(reportName(c.sel))}
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

// reportName names the selected runtime in the text of its report: the
// session's ID, or "default" for the default runtime.
func reportName(sel selected) string {
	if sel.id == "" {
		return "default"
	}
	return sel.id
}
