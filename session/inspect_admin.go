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
	var info admin.SessionInfo
	if ok {
		info = admin.SessionInfo{ID: id, CreatedAt: e.created.UTC(), ReservationBytes: e.reservation}
	}
	c.m.mu.RUnlock()
	if !ok {
		return nil, admin.SessionInfo{}, false
	}
	// As Sessions reads them: the runtime outside the manager's lock.
	at, _ := e.lastAccess()
	info.LastAccessedAt = at.UTC()
	j := e.session.rt.Journal()
	info.Requests = j.Len() + int(j.Evicted())
	info.PendingReplies = e.session.rt.Pending()
	return e.session.rt, info, true
}
