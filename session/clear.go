package session

import (
	"slices"

	"github.com/llmtestserver/llmtestserver/internal/runtime"
	"github.com/llmtestserver/llmtestserver/scenario"
)

// ClearReplies implements friend.ScenarioSink, for Builder.Clear: the
// scenario called name drops the replies it has left (see
// runtime.Runtime.ClearReplies), and the session's size and reservation
// shrink by what they took. A deleted session does nothing.
func (k sink) ClearReplies(name string) { k.s.m.clearReplies(k.s.id, name) }

// clearReplies drops the replies left of session id's scenario name, and
// prices the configuration again.
func (m *Manager) clearReplies(id, name string) {
	m.clearAndPrice(id, func(rt *runtime.Runtime) bool { return rt.ClearReplies(name) })
}

// clearAndPrice runs clear on session id's runtime and, when it changed
// something, prices the configuration again, once, under the manager's
// lock. It reports whether the session exists.
func (m *Manager) clearAndPrice(id string, clear func(*runtime.Runtime) bool) bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	e, ok := m.entryOf(id)
	if !ok {
		return false
	}
	if !clear(e.session.rt) {
		return true
	}
	e.gen++
	cfg := e.cfg
	cfg.Scenarios = e.session.rt.Settings().Scenarios
	size, reservation := cfg.Size(), cfg.Reservation()
	m.reserved += reservation - e.reservation
	e.size, e.reservation = size, reservation
	return true
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
// "", in one step, and prices the configuration again once. It reports
// whether a scenario of that name exists; nothing changes when none does.
func (m *Manager) clearScenarios(id, name string) (bool, error) {
	clear := func(rt *runtime.Runtime) bool {
		if name == "" {
			return rt.ClearAllReplies() > 0
		}
		return rt.ClearReplies(name)
	}
	found := false
	if !m.clearAndPrice(id, func(rt *runtime.Runtime) bool { found = clear(rt); return found }) {
		return false, ErrNotFound
	}
	return found || name == "", nil
}
