package admin

import (
	"encoding/json"
	"net/http"
)

// readConfig serves GET /admin-api/config: the selected runtime's
// configuration, scripted scenarios included, as PUT takes it.
func (h *Handler) readConfig(w http.ResponseWriter, _ *http.Request, c call) {
	b, err := h.sessions.ConfigJSON(c.sel.id, "")
	if err != nil {
		writeError(w, asAPIError(err))
		return
	}
	w.Header().Set("Cache-Control", "no-store") // it may hold the bearer token
	writeJSON(w, http.StatusOK, json.RawMessage(b))
}

// readMember answers one top-level member of the selected runtime's
// configuration, null when the configuration leaves it out. Only that
// member is encoded, so that a scenario holding a Go function does not
// keep the chaos rules or the rate limits from being read.
func (h *Handler) readMember(w http.ResponseWriter, c call, member string) {
	b, err := h.sessions.ConfigJSON(c.sel.id, member)
	if err != nil {
		writeError(w, asAPIError(err))
		return
	}
	writeJSON(w, http.StatusOK, json.RawMessage(b))
}

// setMember serves a PUT of one member of the configuration with set.
func (h *Handler) setMember(w http.ResponseWriter, r *http.Request, c call, set func(id string, body []byte) error) {
	body, err := h.readBody(r)
	if err != nil {
		writeError(w, err)
		return
	}
	if serr := set(c.sel.id, body); serr != nil {
		writeError(w, asAPIError(serr))
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

// readChaos serves GET /admin-api/chaos: the configuration's "chaos".
func (h *Handler) readChaos(w http.ResponseWriter, _ *http.Request, c call) {
	h.readMember(w, c, "chaos")
}

// setChaos serves PUT /admin-api/chaos: new chaos rules, null for none.
func (h *Handler) setChaos(w http.ResponseWriter, r *http.Request, c call) {
	h.setMember(w, r, c, h.sessions.SetChaos)
}

// readRateLimits serves GET /admin-api/rate-limits: the configuration's
// "rate_limits".
func (h *Handler) readRateLimits(w http.ResponseWriter, _ *http.Request, c call) {
	h.readMember(w, c, "rate_limits")
}

// setRateLimits serves PUT /admin-api/rate-limits: new limits, null for
// none.
func (h *Handler) setRateLimits(w http.ResponseWriter, r *http.Request, c call) {
	h.setMember(w, r, c, h.sessions.SetRateLimits)
}
