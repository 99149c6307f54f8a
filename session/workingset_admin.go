package session

import "github.com/llmtestserver/llmtestserver/internal/admin"

// List gives the admin API the working set, for GET /admin-api/sessions.
func (c control) List() []admin.SessionInfo {
	sessions := c.m.Sessions()
	out := make([]admin.SessionInfo, len(sessions))
	for i, s := range sessions {
		out[i] = admin.SessionInfo{ID: s.ID, CreatedAt: s.Created.UTC(), LastAccessedAt: s.LastAccess.UTC(),
			Requests: s.Requests, PendingReplies: s.PendingReplies, ReservationBytes: s.ReservationBytes}
	}
	return out
}
