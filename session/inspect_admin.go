package session

import (
	"github.com/llmtestserver/llmtestserver/internal/admin"
	"github.com/llmtestserver/llmtestserver/internal/runtime"
)

// Inspect gives the admin API the live session id by its ID alone, for the
// inspection routes (GET /admin-api/sessions/{id}...) that only the holder
// of the management key reaches. Unlike Lookup it is no use of the session:
// the dashboard polling it must not reorder the working set.
func (c control) Inspect(id string) (*runtime.Runtime, admin.SessionInfo, bool) {
	c.m.mu.RLock()
	e, ok := c.m.sessions[id]
	var info Info
	if ok { // the reservation changes under the manager's lock
		info = Info{ID: id, Created: e.created, ReservationBytes: e.reservation}
	}
	c.m.mu.RUnlock()
	if !ok {
		return nil, admin.SessionInfo{}, false
	}
	e.fillInfo(&info) // as Sessions reads them: the runtime outside the manager's lock
	return e.session.rt, adminInfo(info), true
}
