package session

import (
	"cmp"
	"slices"
	"time"

	"github.com/llmtestserver/llmtestserver/journal"
)

// Evicted describes a session that EvictIdle deleted.
type Evicted struct {
	// ID is the session's ID.
	ID string
	// Created is when the session was admitted (for a fork: forked), and
	// IdleSince when it was last active: the later of its last use (see
	// Info.LastAccess) and the end of its last provider request, both on
	// the manager's clock.
	Created, IdleSince time.Time
	// Journal is the session's journal as the session left it: frozen,
	// so that it can be read and written out at leisure.
	Journal *journal.Journal
	// ExportErr is what the export function returned for the session; nil
	// when it succeeded or there was none. The session is deleted either
	// way: a server that keeps idle sessions because their export fails
	// would fill up.
	ExportErr error
}

// EvictIdle deletes every session idle for longer than idle on the
// manager's clock (see Evicted.IdleSince) and returns them, the longest idle
// first (ties by ID). A session with a request in flight is never evicted,
// however old its last use: a delayed reply or a long stream goes on.
// idle <= 0 evicts nothing.
//
// This is the opt-in idle eviction of long-running shared servers (the
// standalone server's -evict-idle); nothing calls it on its own, as the
// sessions contract has no expiry by timer. The caller decides when to
// call it, so a test drives it with a fake clock and no timers.
//
// Each session is retired first, in one step with the check that no
// request is in flight in it and none ended after the cutoff, so that no
// request can start in it in between; one that comes later is refused as
// after a deletion, and so is one that had looked the session up but not
// started yet when its last use was read. Then export, when not nil, is
// called with the session and its frozen journal, before the session
// leaves the working set and releases its capacity: when a listing no
// longer shows it, its journal has been exported.
func (m *Manager) EvictIdle(idle time.Duration, export func(Evicted) error) []Evicted {
	if idle <= 0 {
		return nil
	}
	cutoff := m.cfg.Clock.Now().Add(-idle)
	m.mu.RLock()
	candidates := make([]*entry, 0, len(m.sessions))
	for _, e := range m.sessions {
		candidates = append(candidates, e)
	}
	m.mu.RUnlock()

	type victim struct {
		e   *entry
		out Evicted
	}
	var victims []victim
	for _, e := range candidates {
		used, _ := e.lastAccess()
		if !used.Before(cutoff) {
			continue
		}
		lastEnd, retired := e.session.rt.RetireIfIdle(cutoff)
		if !retired {
			continue
		}
		victims = append(victims, victim{e, Evicted{ID: e.session.id, Created: e.created,
			IdleSince: later(used, lastEnd), Journal: e.session.rt.Journal()}})
	}
	slices.SortFunc(victims, func(a, b victim) int {
		if c := a.out.IdleSince.Compare(b.out.IdleSince); c != 0 {
			return c
		}
		return cmp.Compare(a.out.ID, b.out.ID)
	})
	if export != nil {
		for i := range victims {
			victims[i].out.ExportErr = export(victims[i].out)
		}
	}

	m.mu.Lock()
	out := make([]Evicted, 0, len(victims))
	for _, v := range victims {
		// A session deleted meanwhile (or the manager closed) has left
		// already, and released its capacity.
		if m.sessions[v.out.ID] == v.e {
			delete(m.sessions, v.out.ID)
			m.reserved -= v.e.reservation
			out = append(out, v.out)
		}
	}
	m.mu.Unlock()
	return out
}

// later returns the later of a and b.
func later(a, b time.Time) time.Time {
	if b.After(a) {
		return b
	}
	return a
}
