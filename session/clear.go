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

// clearScenarios drops the replies left of session id's scenario name (the
// default runtime's when id is ""), or of all its scenarios when name is
// "", and prices the configuration again. It reports whether a scenario
// of that name exists; nothing changes when none does.
func (m *Manager) clearScenarios(id, name string) (bool, error) {
	if id != "" {
		m.mu.RLock()
		e, ok := m.sessions[id]
		m.mu.RUnlock()
		if !ok {
			return false, ErrNotFound
		}
		names := scenarioNames(e.session.rt.Settings().Scenarios, name)
		for _, n := range names {
			m.clearReplies(id, n)
		}
		return len(names) > 0 || name == "", nil
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	names := scenarioNames(m.fallback.Settings().Scenarios, name)
	for _, n := range names {
		m.fallback.ClearReplies(n)
	}
	return len(names) > 0 || name == "", nil
}

// scenarioNames returns the names of scenarios, or only name when one of
// them has it, or none.
func scenarioNames(scenarios []scenario.Scenario, name string) []string {
	var names []string
	for _, s := range scenarios {
		if name == "" || s.Name == name {
			names = append(names, s.Name)
		}
	}
	return names
}
