package session

import (
	"cmp"
	"slices"
	"sync"
	"time"
)

// Info describes a live session for the working-set listing. It never holds
// the session's key.
type Info struct {
	// ID is the session's ID.
	ID string
	// Created is when the session was admitted (for a fork: forked), and
	// LastAccess when it was last used, both on the manager's clock.
	//
	// A session is used by every request over HTTP that selects it with its
	// headers: provider requests and admin calls on it alike, refused ones
	// included (both say a client is working with the session; a standalone
	// server's client polling a session's journal is using it). Calls on
	// the Go handle (Session methods, scripting, Fork) do not count: they
	// are the test itself, its cleanup's checks included. Admission counts
	// as the first use.
	Created, LastAccess time.Time
	// Requests counts the provider requests the session's journal recorded
	// since the session was admitted or last reset, those it evicted
	// included.
	Requests int
	// PendingReplies counts the scripted replies not used yet (see
	// Session.Pending).
	PendingReplies int
	// ReservationBytes is what the session reserves of the manager's budget
	// (see Session.Reservation).
	ReservationBytes int64
}

// access is when a session was last used, and that use's number in the
// manager's sequence of uses, which orders uses at the same instant (a
// fake clock that stands still, a coarse real one).
type access struct {
	mu  sync.Mutex
	at  time.Time
	seq uint64
}

// touch records a use of e's session at now.
func (e *entry) touch(m *Manager, now time.Time) {
	seq := m.accesses.Add(1)
	e.access.mu.Lock()
	defer e.access.mu.Unlock()
	if seq > e.access.seq {
		e.access.at, e.access.seq = now, seq
	}
}

// lastAccess returns when e's session was last used, and that use's number.
func (e *entry) lastAccess() (time.Time, uint64) {
	e.access.mu.Lock()
	defer e.access.mu.Unlock()
	return e.access.at, e.access.seq
}

// fillInfo sets what info tells of e's use and state: its last access, its
// requests and its pending replies; it returns that use's number. It reads
// the runtime, so it is called outside the manager's lock.
func (e *entry) fillInfo(info *Info) uint64 {
	at, seq := e.lastAccess()
	info.LastAccess = at
	j := e.session.rt.Journal()
	info.Requests = j.Len() + int(j.Evicted())
	info.PendingReplies = e.session.rt.Pending()
	return seq
}

// Sessions returns the manager's working set: every live session, the most
// recently used first (see Info.LastAccess). Uses at the same instant of
// the manager's clock come in the order they were made, the latest first.
func (m *Manager) Sessions() []Info {
	type row struct {
		info Info
		seq  uint64
		e    *entry
	}
	m.mu.RLock()
	rows := make([]row, 0, len(m.sessions))
	for id, e := range m.sessions {
		rows = append(rows, row{info: Info{ID: id, Created: e.created, ReservationBytes: e.reservation}, e: e})
	}
	m.mu.RUnlock()
	// The runtimes are read outside the manager's lock, so that listing
	// holds no other session up.
	for i := range rows {
		rows[i].seq = rows[i].e.fillInfo(&rows[i].info)
	}
	slices.SortFunc(rows, func(a, b row) int {
		if c := b.info.LastAccess.Compare(a.info.LastAccess); c != 0 {
			return c
		}
		return cmp.Compare(b.seq, a.seq)
	})
	out := make([]Info, len(rows))
	for i, r := range rows {
		out[i] = r.info
	}
	return out
}
