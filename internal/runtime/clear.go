package runtime

import (
	"slices"

	"github.com/llmtestserver/llmtestserver/scenario"
)

// ClearReplies drops the replies the scenario called name has left, from
// its queue and from the settings, so that Reset does not bring them back,
// and reports whether the runtime has such a scenario. The scenario stays
// where it is, with its match and flags, and answers again once replies are
// added to it.
//
// For a session-wide scenario, the replies it has used stay in the
// settings (Reset gives them again); those left, the rolled-back ones and a
// repeating last reply included, are gone. A per-conversation scenario has
// every reply left for the conversations to come, so it loses them all,
// and the positions of its conversations with them. A reply taken by a
// request still in flight counts as used: if that request fails to deliver
// it, it comes back to the queue, as after any rollback. A retired runtime
// stays as it is.
func (rt *Runtime) ClearReplies(name string) bool {
	return rt.clearReplies(name) > 0
}

// ClearAllReplies drops the replies every scenario has left, as
// ClearReplies does for one, in one step, and returns how many scenarios
// the runtime has.
func (rt *Runtime) ClearAllReplies() int { return rt.clearReplies("") }

// clearReplies clears the first scenario called name, or every scenario
// when name is "", and returns how many it cleared: one copy of the
// settings whatever their number.
func (rt *Runtime) clearReplies(name string) int {
	rt.mu.Lock()
	defer rt.mu.Unlock()
	if rt.retired {
		return 0
	}
	var clear []int
	if name == "" {
		for i := range rt.settings.Scenarios {
			clear = append(clear, i)
		}
	} else if i := slices.IndexFunc(rt.settings.Scenarios, func(s scenario.Scenario) bool { return s.Name == name }); i >= 0 {
		clear = []int{i}
	}
	if len(clear) == 0 {
		return 0
	}
	// A copy of the scenario values, because readers share the settings'
	// slice; the kept replies clipped, so that the next append copies them
	// rather than writing over a reply a reader still holds.
	scenarios := slices.Clone(rt.settings.Scenarios)
	for _, i := range clear {
		q := rt.queues[i]
		keep := q.global.next
		if q.scenario.PerConversation {
			keep = 0
			rt.positions -= len(q.byConv)
			q.byConv = nil
		}
		q.global.back = nil
		scenarios[i].Replies = slices.Clip(scenarios[i].Replies[:keep])
		if keep == 0 {
			scenarios[i].Replies = nil
		}
	}
	for j := range scenarios {
		rt.queues[j].scenario = &scenarios[j]
	}
	rt.settings.Scenarios = scenarios
	return len(clear)
}
