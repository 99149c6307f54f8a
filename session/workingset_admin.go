package session

import "github.com/llmtestserver/llmtestserver/internal/admin"

// List gives the admin API the working set, for GET /admin-api/sessions.
func (c control) List() []admin.SessionInfo {
	sessions := c.m.Sessions()
	out := make([]admin.SessionInfo, len(sessions))
	for i, s := range sessions {
		out[i] = adminInfo(s)
	}
	return out
}

// adminInfo is info as the admin API lists it, its times in UTC.
func adminInfo(s Info) admin.SessionInfo {
	return admin.SessionInfo{ID: s.ID, CreatedAt: s.Created.UTC(), LastAccessedAt: s.LastAccess.UTC(),
		Requests: s.Requests, PendingReplies: s.PendingReplies, ReservationBytes: s.ReservationBytes}
}
