package runtime

import (
	"fmt"
	"slices"

	"github.com/llmtestserver/llmtestserver/internal/apierr"
	"github.com/llmtestserver/llmtestserver/journal"
	"github.com/llmtestserver/llmtestserver/scenario"
)

// queue is the live state of one scenario: a position in the scenario's own
// replies, either one for the whole session or, for a per-conversation
// scenario, one per conversation. The replies are held once, by the
// scenario; a position is an index into them and the few replies rolled
// back since, so a queue costs a few words however many replies it has.
type queue struct {
	scenario *scenario.Scenario
	global   position             // unused for per-conversation scenarios
	byConv   map[string]*position // per conversation key, created on first use
}

// position is how far a queue has got through its scenario's replies.
// Replies are only ever appended to a live scenario, so an index stays
// valid for the life of its queue.
type position struct {
	next int          // index in the scenario's replies of the next unused one
	back []rolledBack // replies rolled back, head first, used before next
}

// rolledBack is a reply rolled back to its queue, with its index among
// the scenario's replies.
type rolledBack struct {
	reply scenario.Reply
	index int
}

// left counts the replies a position has left in replies.
func (p *position) left(replies []scenario.Reply) int {
	return len(p.back) + len(replies) - p.next
}

func newQueue(s *scenario.Scenario) *queue { return &queue{scenario: s} }

func newQueues(scenarios []scenario.Scenario) []*queue {
	qs := make([]*queue, len(scenarios))
	for i := range scenarios {
		qs[i] = newQueue(&scenarios[i])
	}
	return qs
}

// position returns the position of conversation key, or nil for a
// per-conversation scenario that conversation has not used yet (it starts
// from the first reply). The caller holds mu.
func (q *queue) position(key string) *position {
	if !q.scenario.PerConversation {
		return &q.global
	}
	return q.byConv[key]
}

// remaining counts the replies left in the session-wide queue, or for a
// conversation that has not started yet. The caller holds mu.
func (q *queue) remaining() int {
	if q.scenario.PerConversation {
		return len(q.scenario.Replies)
	}
	return q.global.left(q.scenario.Replies)
}

// Reservation is a reply taken from its queue. It counts as used unless
// Rollback is called because the response could not be delivered.
type Reservation struct {
	// Scenario names the scenario the reply came from.
	Scenario string
	// Reply is the reserved reply, and ReplyIndex its index among the
	// scenario's replies, from 0.
	Reply      scenario.Reply
	ReplyIndex int

	rt       *Runtime
	queue    *queue
	convKey  string // the queue's conversation key
	index    int    // the reply's index in the scenario's replies; -1 if it came from the rolled-back ones
	repeated bool   // a repeating last reply, which was not taken off its queue
}

// Of reports whether r was taken from rt's queues: a fork shares its
// parent's jobs, and a reservation a job keeps goes back to the queue it
// came from only when the job is cancelled there.
func (r *Reservation) Of(rt *Runtime) bool { return r.rt == rt }

// Rollback returns the reply to the head of its queue, so that the next
// matching request, typically the client's retry, gets it. A reply whose
// queue was replaced meanwhile by Configure or Reset is dropped, and so is
// every reply of a retired runtime, or of a conversation whose queue
// positions started over.
func (r *Reservation) Rollback() {
	if r.repeated {
		return
	}
	r.rt.mu.Lock()
	defer r.rt.mu.Unlock()
	if r.rt.retired || !slices.Contains(r.rt.queues, r.queue) {
		return
	}
	p := r.queue.position(r.convKey)
	if p == nil {
		return
	}
	if len(p.back) == 0 && r.index >= 0 && r.index == p.next-1 {
		p.next-- // the common case: the last reply taken comes back
		return
	}
	p.back = slices.Insert(p.back, 0, rolledBack{reply: r.Reply, index: r.ReplyIndex})
}

// ReserveScripted is ReserveAfter, with nothing earlier, for requests that
// have an answer of their own when nothing is scripted, such as
// embeddings: it returns nil, and no error, when no scenario answers or
// the runtime is retired. A match function that panics (see matches)
// ends the search with nothing taken, and the error that answers the
// request.
func (rt *Runtime) ReserveScripted(req *scenario.Request, declared string) (*Reservation, *apierr.Error) {
	rt.mu.Lock()
	defer rt.mu.Unlock()
	if rt.retired {
		return nil, nil
	}
	res, _, failed := rt.reserve(req, declared)
	return res, failed
}

// reserve identifies req's conversation and takes the reply that answers
// it, returning nil when none does, with the queue key of the conversation.
// A match function that panics ends the search with nothing taken, and
// the error that answers the request. The caller holds mu and has checked
// that the runtime is not retired.
func (rt *Runtime) reserve(req *scenario.Request, declared string) (*Reservation, string, *apierr.Error) {
	id, source := identify(req, declared)
	if req.Endpoint.Conversational() {
		rt.track(req, id, source)
	} else {
		// Embeddings inputs are no conversation: they must not move the
		// generation of a chat that happens to open with the same text.
		req.Conversation, req.ConversationSource, req.Generation, req.Turn = id, source, 1, req.UserTurns()
	}
	key := fmt.Sprintf("%s#%d", boundedKey(req.Conversation), req.Generation)
	for _, q := range rt.queues {
		replies := q.scenario.Replies
		p := q.position(key)
		if p == nil {
			p = &position{} // a conversation's first use of the queue
		}
		left := p.left(replies)
		if left == 0 {
			continue
		}
		ok, failed := matches(q.scenario, req)
		if failed != nil {
			return nil, key, failed
		}
		if !ok {
			continue
		}
		res := &Reservation{Scenario: q.scenario.Name, rt: rt, queue: q, convKey: key, index: -1}
		if len(p.back) > 0 {
			res.Reply, res.ReplyIndex = p.back[0].reply, p.back[0].index
		} else {
			res.Reply, res.index, res.ReplyIndex = replies[p.next], p.next, p.next
		}
		if left == 1 && q.scenario.Repeat {
			res.repeated = true
			return res, key, nil
		}
		if len(p.back) > 0 {
			p.back = slices.Delete(p.back, 0, 1)
		} else {
			p.next++
		}
		if q.scenario.PerConversation && q.byConv[key] == nil {
			rt.addPosition(q, key, p)
		}
		return res, key, nil
	}
	return nil, key, nil
}

// Pending returns the number of scripted replies not used yet in the
// session-wide queues; per-conversation scenarios count the replies a new
// conversation would get.
func (rt *Runtime) Pending() int {
	rt.mu.Lock()
	defer rt.mu.Unlock()
	n := 0
	for _, q := range rt.queues {
		n += q.remaining()
	}
	return n
}

// ScenarioState is a scenario with what is left of its queue.
type ScenarioState struct {
	Scenario scenario.Scenario
	// Remaining counts the replies left (for a per-conversation scenario:
	// those a new conversation gets).
	Remaining int
	// RemainingByConversation counts what each started conversation has
	// left, for per-conversation scenarios.
	RemainingByConversation map[string]int
}

// Scenarios returns every scenario with its remaining replies. The
// scenarios' reply slices are the runtime's own, clipped, so that a caller
// that appends to one gets a copy instead of writing into the runtime's.
func (rt *Runtime) Scenarios() []ScenarioState {
	rt.mu.Lock()
	defer rt.mu.Unlock()
	out := make([]ScenarioState, len(rt.queues))
	for i, q := range rt.queues {
		out[i] = ScenarioState{Scenario: *q.scenario, Remaining: q.remaining()}
		out[i].Scenario.Replies = slices.Clip(out[i].Scenario.Replies)
		if len(q.byConv) > 0 {
			out[i].RemainingByConversation = make(map[string]int, len(q.byConv))
			for k, p := range q.byConv {
				out[i].RemainingByConversation[k] = p.left(q.scenario.Replies)
			}
		}
	}
	return out
}

// AddReplies appends replies to the scenario called name, creating it with
// match after the existing scenarios if there is none. The scripted replies
// become part of the settings, so Reset makes them available again. A
// retired runtime ignores them.
func (rt *Runtime) AddReplies(name string, match scenario.Match, replies ...scenario.Reply) {
	rt.edit(func(scenarios []scenario.Scenario) []scenario.Scenario {
		scenarios, i := withScenario(scenarios, name, match)
		scenarios[i].Replies = append(scenarios[i].Replies, replies...)
		return scenarios
	})
}

// UpdateScenario applies change to the scenario called name, creating it
// with match and no replies if there is none. change may alter the
// scenario's match and flags; its replies stay as they were, and its queues
// keep what they have left.
func (rt *Runtime) UpdateScenario(name string, match scenario.Match, change func(*scenario.Scenario)) {
	rt.edit(func(scenarios []scenario.Scenario) []scenario.Scenario {
		scenarios, i := withScenario(scenarios, name, match)
		replies := scenarios[i].Replies
		change(&scenarios[i])
		scenarios[i].Replies = replies
		return scenarios
	})
}

// MergeScenarios adds scenarios in one step, as POST /admin-api/scenarios
// does: one named like an existing scenario replaces its match and flags
// and appends its replies; the others are added after the existing ones.
func (rt *Runtime) MergeScenarios(add []scenario.Scenario) {
	rt.edit(func(scenarios []scenario.Scenario) []scenario.Scenario {
		for _, s := range add {
			var i int
			scenarios, i = withScenario(scenarios, s.Name, s.Match)
			cur := &scenarios[i]
			cur.Match, cur.Repeat, cur.PerConversation = s.Match, s.Repeat, s.PerConversation
			cur.Replies = append(cur.Replies, s.Replies...)
		}
		return scenarios
	})
}

// withScenario returns scenarios with one called name, appended with match
// if there was none, and its index.
func withScenario(scenarios []scenario.Scenario, name string, match scenario.Match) ([]scenario.Scenario, int) {
	i := slices.IndexFunc(scenarios, func(s scenario.Scenario) bool { return s.Name == name })
	if i < 0 {
		scenarios = append(scenarios, scenario.Scenario{Name: name, Match: match})
		i = len(scenarios) - 1
	}
	return scenarios, i
}

// edit changes the scenarios and re-points their queues in one critical
// section. change gets a copy of the scenario values, because readers share
// the settings' slice; it may append to a scenario's replies in place,
// since every holder of a reply slice sees only its own length and the
// runtime is the only one that appends to it (see ownReplies). A retired
// runtime stays as it is.
func (rt *Runtime) edit(change func([]scenario.Scenario) []scenario.Scenario) {
	rt.mu.Lock()
	defer rt.mu.Unlock()
	if rt.retired {
		return
	}
	scenarios := change(slices.Clone(rt.settings.Scenarios))
	// Re-point the live queues at the new scenario values, keeping what
	// each has left.
	live := make([]*queue, len(scenarios))
	for j := range scenarios {
		if j < len(rt.queues) {
			live[j] = rt.queues[j]
			live[j].scenario = &scenarios[j]
		} else {
			live[j] = newQueue(&scenarios[j])
		}
	}
	rt.settings.Scenarios = scenarios
	rt.queues = live
}

// ownReplies returns scenarios with every reply slice clipped, so that the
// runtime's first append to one copies it rather than writing into an
// array the caller may still append to.
func ownReplies(scenarios []scenario.Scenario) []scenario.Scenario {
	for i := range scenarios {
		if r := scenarios[i].Replies; cap(r) > len(r) {
			scenarios = slices.Clone(scenarios)
			for j := range scenarios {
				scenarios[j].Replies = slices.Clip(scenarios[j].Replies)
			}
			return scenarios
		}
	}
	return scenarios
}

// Assertions returns the journal's report with the scripted replies never
// used (counted by scenario, and listed with where each was scripted) and
// the faults fired. A repeating scenario's last reply and per-conversation
// scenarios have no fixed count and are left out.
func (rt *Runtime) Assertions() journal.Report {
	r := rt.journal.Report()
	r.Faults = rt.Faults()
	r.Unused = rt.unused()
	for _, st := range rt.Scenarios() {
		unused := st.Remaining
		switch {
		case st.Scenario.PerConversation:
			continue
		case st.Scenario.Repeat && unused > 0:
			unused--
		}
		if unused == 0 {
			continue
		}
		if r.UnusedReplies == nil {
			r.UnusedReplies = make(map[string]int)
		}
		r.UnusedReplies[st.Scenario.Name] = unused
	}
	return r
}

// unused lists the replies left in the session-wide queues, at most
// journal.MaxListItems of them, as Assertions counts them: in script order,
// each queue's rolled-back replies first, without a repeating scenario's
// last reply or per-conversation scenarios.
func (rt *Runtime) unused() []journal.UnusedReply {
	rt.mu.Lock()
	defer rt.mu.Unlock()
	var out []journal.UnusedReply
	add := func(s *scenario.Scenario, index int) bool {
		if len(out) == journal.MaxListItems {
			return false
		}
		out = append(out, journal.UnusedReply{Scenario: s.Name, Index: index, ScriptedAt: s.Replies[index].ScriptedAt})
		return true
	}
	for _, q := range rt.queues {
		s := q.scenario
		if s.PerConversation {
			continue
		}
		p := &q.global
		left := p.left(s.Replies)
		if s.Repeat && left > 0 {
			left-- // the repeating last reply is never unused
		}
		for _, b := range p.back {
			if left == 0 || !add(s, b.index) {
				break
			}
			left--
		}
		for i := p.next; left > 0 && i < len(s.Replies); i++ {
			if !add(s, i) {
				return out
			}
			left--
		}
	}
	return out
}
