package session

import (
	"slices"

	"github.com/llmtestserver/llmtestserver/scenario"
)

// ClearReplies implements scenario.Clearer, for Builder.Clear: the
// scenario called name drops the replies it has left (see
// runtime.Runtime.ClearReplies), and the session's size and reservation
// shrink by what they took. A deleted session does nothing.
func (k sink) ClearReplies(name string) { k.s.m.clearReplies(k.s.id, name) }

// clearReplies drops the replies left of session id's scenario name, and
// prices the configuration again.
func (m *Manager) clearReplies(id, name string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	e, ok := m.sessions[id]
	if !ok || !e.session.rt.ClearReplies(name) {
		return
	}
	e.gen++
	cfg := e.cfg
	cfg.Scenarios = e.session.rt.Settings().Scenarios
	size, reservation := cfg.Size(), cfg.Reservation()
	m.reserved += reservation - e.reservation
	e.size, e.reservation = size, reservation
}

// answering returns scenarios without those that have no reply, which
// Builder.Clear leaves: they answer nothing, and a configuration must give
// every scenario a reply, so that Config always applies again as it is.
func answering(scenarios []scenario.Scenario) []scenario.Scenario {
	for i := range scenarios {
		if len(scenarios[i].Replies) == 0 {
			out := slices.Clone(scenarios[:i])
			for _, s := range scenarios[i+1:] {
				if len(s.Replies) > 0 {
					out = append(out, s)
				}
			}
			return out
		}
	}
	return scenarios
}
