package session

import (
	"fmt"

	"github.com/llmtestserver/llmtestserver/internal/runtime"
	"github.com/llmtestserver/llmtestserver/scenario"
)

// scriptStep is one change to a session's scenarios: the scenario called
// name (created with match if there is none) gets its header changed by
// head, if set, and replies appended.
type scriptStep struct {
	name    string
	match   scenario.Match
	head    func(*scenario.Scenario)
	replies []scenario.Reply
}

// price returns what applying steps to the scenarios cur adds to a
// configuration's Size and configurationCost. It only reads cur.
func price(cur []scenario.Scenario, steps []scriptStep) (size, cost int64) {
	type state struct {
		head       scenario.Scenario // without replies
		hadReplies bool
	}
	touched := make(map[string]*state, len(steps))
	count, perConvBefore := len(cur), 0
	for i := range cur {
		if cur[i].PerConversation {
			perConvBefore++
		}
	}
	perConv := perConvBefore
	for _, st := range steps {
		s, ok := touched[st.name]
		if !ok {
			s = &state{}
			if i := indexOf(cur, st.name); i >= 0 {
				s.head, s.hadReplies = cur[i], len(cur[i].Replies) > 0
				s.head.Replies = nil
			} else {
				s.head = scenario.Scenario{Name: st.name, Match: st.match}
				if count > 0 {
					size++ // the separator before it
				} else {
					size += int64(len(`,"scenarios":[]`))
				}
				count++
				size += scenarioSize(&s.head)
				cost += scenarioHeadCost(&s.head)
			}
			touched[st.name] = s
		}
		if st.head != nil {
			old := s.head
			st.head(&s.head)
			s.head.Replies = nil
			size += scenarioSize(&s.head) - scenarioSize(&old)
			cost += scenarioHeadCost(&s.head) - scenarioHeadCost(&old)
			if old.PerConversation != s.head.PerConversation {
				if s.head.PerConversation {
					perConv++
				} else {
					perConv--
				}
			}
		}
		size += repliesSize(st.replies, s.hadReplies)
		for i := range st.replies {
			cost += replyCost(&st.replies[i])
		}
		s.hadReplies = s.hadReplies || len(st.replies) > 0
	}
	cost += perConversationCost(perConv > 0) - perConversationCost(perConvBefore > 0)
	return size, cost
}

func indexOf(scenarios []scenario.Scenario, name string) int {
	for i := range scenarios {
		if scenarios[i].Name == name {
			return i
		}
	}
	return -1
}

// script prices steps for session id (the default runtime when id is ""),
// and applies them with apply if the configuration stays within the size
// limit and the reservation within the budget. On any error nothing
// changes.
func (m *Manager) script(id string, steps []scriptStep, apply func(*runtime.Runtime)) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	e, ok := m.entryOf(id)
	if !ok {
		return ErrNotFound
	}
	size, cost := price(e.session.rt.Settings().Scenarios, steps)
	if err := m.checkSizeOf(e.size + size); err != nil {
		return err
	}
	if free := m.cfg.Bounds.MaxReservedBytes - m.reserved; cost > free {
		return fmt.Errorf("%w: the scenarios reserve %d bytes more, %d are free", ErrCapacityExceeded, cost, free)
	}
	apply(e.session.rt)
	e.gen++
	e.size += size
	e.reservation += cost
	m.reserved += cost
	return nil
}

// addScenarios merges scenarios into session id's (the default runtime's
// when id is ""), as POST /admin-api/scenarios does: all of them or, on any
// error, none.
func (m *Manager) addScenarios(id string, scenarios []scenario.Scenario) error {
	seen := make(map[string]bool, len(scenarios))
	for i := range scenarios {
		s := &scenarios[i]
		if err := s.Validate(); err != nil {
			return fieldError(fmt.Sprintf("scenarios[%d]", i), err)
		}
		if seen[s.Name] {
			return &ConfigError{fmt.Sprintf("scenarios[%d].name", i), fmt.Sprintf("%q is named twice", s.Name)}
		}
		seen[s.Name] = true
	}
	steps := make([]scriptStep, len(scenarios))
	for i, s := range scenarios {
		steps[i] = scriptStep{name: s.Name, match: s.Match, replies: s.Replies, head: func(cur *scenario.Scenario) {
			cur.Match, cur.Repeat, cur.PerConversation = s.Match, s.Repeat, s.PerConversation
		}}
	}
	return m.script(id, steps, func(rt *runtime.Runtime) { rt.MergeScenarios(scenarios) })
}

// sink is the friend.ScenarioSink of a session's builders: it prices every step
// with the manager before the runtime sees it, and panics, at the builder
// call that made the mistake, when the step would pass the configuration
// limit or the budget. Steps for a deleted session do nothing.
type sink struct{ s *Session }

// AddReplies implements friend.ScenarioSink.
func (k sink) AddReplies(name string, match scenario.Match, replies ...scenario.Reply) {
	k.check(name, k.s.m.script(k.s.id, []scriptStep{{name: name, match: match, replies: replies}},
		func(rt *runtime.Runtime) { rt.AddReplies(name, match, replies...) }))
}

// UpdateScenario implements friend.ScenarioSink.
func (k sink) UpdateScenario(name string, match scenario.Match, change func(*scenario.Scenario)) {
	k.check(name, k.s.m.script(k.s.id, []scriptStep{{name: name, match: match, head: change}},
		func(rt *runtime.Runtime) { rt.UpdateScenario(name, match, change) }))
}

func (k sink) check(name string, err error) {
	if err != nil && !isNotFound(err) {
		panic(fmt.Sprintf("scenario: %s: %v", name, err))
	}
}
