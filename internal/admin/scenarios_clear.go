package admin

import (
	"net/http"
)

// clearScenarios serves DELETE /admin-api/scenarios: every scenario of the
// selected runtime, or only the one ?name= names, drops the replies it has
// left, as scenario.Builder.Clear does. The scenarios stay listed, with
// nothing remaining, and answer again once replies are added to them. A
// parameter other than name, or name given twice, empty or naming no
// scenario, is 400 and clears nothing.
func (h *Handler) clearScenarios(w http.ResponseWriter, r *http.Request, c call) {
	values := r.URL.Query()
	for p, vs := range values {
		switch {
		case p != "name":
			writeError(w, badJournalParam(p, "Unknown query parameter '%s' for DELETE /admin-api/scenarios. The only one is name.", p))
			return
		case len(vs) != 1:
			writeError(w, badJournalParam(p, "The query parameter '%s' is given %d times; give it once.", p, len(vs)))
			return
		case vs[0] == "":
			writeError(w, badJournalParam(p, "The query parameter '%s' is empty; leave it out to clear every scenario.", p))
			return
		}
	}
	if err := h.sessions.ClearScenarios(c.sel.id, values.Get("name")); err != nil {
		writeError(w, asAPIError(err))
		return
	}
	w.WriteHeader(http.StatusNoContent)
}
