package runtime

import (
	"fmt"
	"slices"
	"strings"

	"github.com/llmtestserver/llmtestserver/internal/openai"
	"github.com/llmtestserver/llmtestserver/journal"
	"github.com/llmtestserver/llmtestserver/scenario"
)

// queue is the live state of one scenario: the replies not used yet, either
// one queue for the whole session or, for a per-conversation scenario, one
// per conversation, each starting from all the scenario's replies.
type queue struct {
	scenario *scenario.Scenario
	global   []scenario.Reply            // head first; unused for per-conversation scenarios
	byConv   map[string][]scenario.Reply // per conversation key, created on first use
}

func newQueue(s *scenario.Scenario) *queue {
	return &queue{scenario: s, global: slices.Clone(s.Replies)}
}

func newQueues(scenarios []scenario.Scenario) []*queue {
	qs := make([]*queue, len(scenarios))
	for i := range scenarios {
		qs[i] = newQueue(&scenarios[i])
	}
	return qs
}

// pending returns the replies left for a request of conversation key.
// The caller holds mu.
func (q *queue) pending(key string) []scenario.Reply {
	if !q.scenario.PerConversation {
		return q.global
	}
	if p, ok := q.byConv[key]; ok {
		return p
	}
	return q.scenario.Replies
}

// setPending stores the replies left for conversation key. The caller holds mu.
func (q *queue) setPending(key string, p []scenario.Reply) {
	if !q.scenario.PerConversation {
		q.global = p
		return
	}
	if q.byConv == nil {
		q.byConv = make(map[string][]scenario.Reply)
	}
	q.byConv[key] = p
}

// appendAll adds replies to every live queue of q. The caller holds mu.
func (q *queue) appendAll(replies []scenario.Reply) {
	q.global = append(q.global, replies...)
	for k, p := range q.byConv {
		q.byConv[k] = append(p, replies...)
	}
}

// remaining counts the replies left in the session-wide queue, or for a
// conversation that has not started yet. The caller holds mu.
func (q *queue) remaining() int {
	if q.scenario.PerConversation {
		return len(q.scenario.Replies)
	}
	return len(q.global)
}

// Reservation is a reply taken from its queue. It counts as used unless
// Rollback is called because the response could not be delivered.
type Reservation struct {
	// Scenario names the scenario the reply came from.
	Scenario string
	// Reply is the reserved reply.
	Reply scenario.Reply

	rt       *Runtime
	queue    *queue
	convKey  string // the queue's conversation key
	repeated bool   // a repeating last reply, which was not taken off its queue
}

// Rollback returns the reply to the head of its queue, so that the next
// matching request, typically the client's retry, gets it. A reply whose
// queue was replaced meanwhile by Configure or Reset is dropped, and so is
// every reply of a retired runtime.
func (r *Reservation) Rollback() {
	if r.repeated {
		return
	}
	r.rt.mu.Lock()
	defer r.rt.mu.Unlock()
	if !r.rt.retired && slices.Contains(r.rt.queues, r.queue) {
		r.queue.setPending(r.convKey, slices.Insert(slices.Clone(r.queue.pending(r.convKey)), 0, r.Reply))
	}
}

// Reserve takes the reply that answers req: the head of the first scenario
// that matches and has a reply left. It first fills in req's conversation
// identity, generation and turn (see Identify). When no scenario answers, the
// error names the request and says why each scenario was passed over.
func (rt *Runtime) Reserve(req *scenario.Request, declared string) (*Reservation, *openai.Error) {
	rt.mu.Lock()
	defer rt.mu.Unlock()
	res, key := rt.reserve(req, declared)
	if res == nil {
		return nil, openai.NoScenario(rt.describeMiss(req, key))
	}
	return res, nil
}

// ReserveScripted is Reserve for requests that have an answer of their own
// when nothing is scripted, such as embeddings: it returns nil, and no
// error, when no scenario answers.
func (rt *Runtime) ReserveScripted(req *scenario.Request, declared string) *Reservation {
	rt.mu.Lock()
	defer rt.mu.Unlock()
	res, _ := rt.reserve(req, declared)
	return res
}

// reserve identifies req's conversation and takes the reply that answers
// it, returning nil when none does, with the queue key of the conversation.
// The caller holds mu.
func (rt *Runtime) reserve(req *scenario.Request, declared string) (*Reservation, string) {
	id, source := identify(req, declared)
	if req.Endpoint.Conversational() {
		rt.track(req, id, source)
	} else {
		// Embeddings inputs are no conversation: they must not move the
		// generation of a chat that happens to open with the same text.
		req.Conversation, req.ConversationSource, req.Generation, req.Turn = id, source, 1, req.UserTurns()
	}
	key := fmt.Sprintf("%s#%d", req.Conversation, req.Generation)
	for _, q := range rt.queues {
		p := q.pending(key)
		if len(p) == 0 || !q.scenario.Match.Matches(req) {
			continue
		}
		res := &Reservation{Scenario: q.scenario.Name, Reply: p[0], rt: rt, queue: q, convKey: key}
		if len(p) == 1 && q.scenario.Repeat {
			res.repeated = true
		} else {
			q.setPending(key, p[1:])
		}
		return res, key
	}
	return nil, key
}

// describeMiss explains why no scenario answered req. The caller holds mu.
func (rt *Runtime) describeMiss(req *scenario.Request, key string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "No scenario answers %s for model %q with last user message %q (conversation %s, turn %d).",
		req.Endpoint, req.Model, req.LastUserText(), req.Conversation, req.Turn)
	if len(rt.queues) == 0 {
		b.WriteString(" The session has no scenarios: script one, e.g. sess.Chat(name).Responds(text).")
		return b.String()
	}
	b.WriteString(" Tried:")
	for i, q := range rt.queues {
		if i > 0 {
			b.WriteString(";")
		}
		fmt.Fprintf(&b, " %q ", q.scenario.Name)
		switch {
		case !q.scenario.Match.Matches(req):
			b.WriteString("(does not match " + q.scenario.Match.Describe() + ")")
		case q.scenario.PerConversation:
			fmt.Fprintf(&b, "(all %d replies used in this conversation)", len(q.scenario.Replies))
		default:
			fmt.Fprintf(&b, "(all %d replies used)", len(q.scenario.Replies))
		}
	}
	b.WriteString(".")
	return b.String()
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

// Scenarios returns every scenario with its remaining replies.
func (rt *Runtime) Scenarios() []ScenarioState {
	rt.mu.Lock()
	defer rt.mu.Unlock()
	out := make([]ScenarioState, len(rt.queues))
	for i, q := range rt.queues {
		out[i] = ScenarioState{Scenario: *q.scenario, Remaining: q.remaining()}
		if len(q.byConv) > 0 {
			out[i].RemainingByConversation = make(map[string]int, len(q.byConv))
			for k, p := range q.byConv {
				out[i].RemainingByConversation[k] = len(p)
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
	rt.edit(name, match, func(s *scenario.Scenario, q *queue) {
		s.Replies = append(slices.Clone(s.Replies), replies...)
		q.appendAll(replies)
	})
}

// UpdateScenario applies change to the scenario called name, creating it
// with match and no replies if there is none. Its queues keep what they have
// left.
func (rt *Runtime) UpdateScenario(name string, match scenario.Match, change func(*scenario.Scenario)) {
	rt.edit(name, match, func(s *scenario.Scenario, _ *queue) { change(s) })
}

// edit changes the scenario called name and its queue in one critical
// section, copying the settings' scenarios first because readers share them.
func (rt *Runtime) edit(name string, match scenario.Match, change func(*scenario.Scenario, *queue)) {
	rt.mu.Lock()
	defer rt.mu.Unlock()
	if rt.retired {
		return
	}
	scenarios := slices.Clone(rt.settings.Scenarios)
	i := slices.IndexFunc(scenarios, func(s scenario.Scenario) bool { return s.Name == name })
	if i < 0 {
		scenarios = append(scenarios, scenario.Scenario{Name: name, Match: match})
		i = len(scenarios) - 1
	}
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
	change(&scenarios[i], live[i])
	rt.settings.Scenarios = scenarios
	rt.queues = live
}

// Assertions returns the journal's report with the scripted replies never
// used. A repeating scenario's last reply and per-conversation scenarios have
// no fixed count and are left out.
func (rt *Runtime) Assertions() journal.Report {
	r := rt.journal.Report()
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
