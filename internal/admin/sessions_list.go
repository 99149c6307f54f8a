package admin

import (
	"net/http"
	"time"
)

// SessionInfo is one live session of the working set, as GET
// /admin-api/sessions lists it. It never holds the session's key.
type SessionInfo struct {
	ID string `json:"id"`
	// CreatedAt and LastAccessedAt are on the server's clock, in UTC.
	CreatedAt      time.Time `json:"created_at"`
	LastAccessedAt time.Time `json:"last_accessed_at"`
	// Requests counts the provider requests the session's journal recorded
	// since it was created or last reset.
	Requests int `json:"requests"`
	// PendingReplies counts the scripted replies not used yet.
	PendingReplies int `json:"pending_replies"`
	// ReservationBytes is what the session reserves of the server's budget.
	ReservationBytes int64 `json:"reservation_bytes"`
}

// Lister is the part of Sessions that lists the working set.
type Lister interface {
	// List returns the live sessions, the most recently used first.
	List() []SessionInfo
}

// sessionList is the body of GET /admin-api/sessions.
type sessionList struct {
	Object string        `json:"object"`
	Data   []SessionInfo `json:"data"`
}

// listSessions serves GET /admin-api/sessions: the working set. It is
// guarded as session creation is, by the management key, and refuses
// session headers the same way: the listing is the server's, not a
// session's.
func (h *Handler) listSessions(w http.ResponseWriter, _ *http.Request, _ call) {
	list := h.sessions.List()
	if list == nil {
		list = []SessionInfo{}
	}
	w.Header().Set("Cache-Control", "no-store")
	writeJSON(w, http.StatusOK, sessionList{Object: "list", Data: list})
}
