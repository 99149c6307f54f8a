package admin

import (
	"net/http"
)

// forkRequest is the optional body of POST /admin-api/sessions/{id}/fork.
type forkRequest struct {
	// Name names the fork for the ID seed it derives from a seeded
	// parent's (session.ForkName); left out, the fork is named by its
	// ordinal.
	Name *string `json:"name"`
}

// forkSession serves POST /admin-api/sessions/{id}/fork: a new session
// that starts as a copy of session id (session.Session.Fork), admitted
// within the server's bounds as a created session is. Like deletion, only
// the session's own two headers authorize it. 201 with the new session's
// Location and its ID, key and reservation.
func (h *Handler) forkSession(w http.ResponseWriter, r *http.Request, c call) {
	body, err := h.readBody(r)
	if err != nil {
		writeError(w, err)
		return
	}
	var req forkRequest
	if err := decodeBody(body, &req); err != nil {
		writeError(w, err)
		return
	}
	name := ""
	if req.Name != nil {
		if *req.Name == "" {
			writeError(w, badBody("name", "Invalid request body: name must not be empty; leave it out to name the fork by its ordinal."))
			return
		}
		name = *req.Name
	}
	created, ferr := h.sessions.Fork(c.id, c.key, name)
	writeCreated(w, created, ferr)
}
