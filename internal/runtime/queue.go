package runtime

import (
	"fmt"
	"slices"
	"strings"

	"github.com/llmtestserver/llmtestserver/internal/openai"
	"github.com/llmtestserver/llmtestserver/scenario"
)

// queue is the live state of one scenario: the replies not used yet.
type queue struct {
	scenario *scenario.Scenario
	pending  []scenario.Reply // head first
}

func newQueues(scenarios []scenario.Scenario) []*queue {
	qs := make([]*queue, len(scenarios))
	for i := range scenarios {
		qs[i] = &queue{scenario: &scenarios[i], pending: slices.Clone(scenarios[i].Replies)}
	}
	return qs
}

// Reservation is a reply taken from its queue. It counts as used unless
// Rollback is called because the response could not be delivered.
type Reservation struct {
	// Scenario names the scenario the reply came from.
	Scenario string
	// Reply is the reserved reply.
	Reply scenario.Reply

	rt    *Runtime
	queue *queue
}

// Rollback returns the reply to the head of its queue, so that the next
// matching request, typically the client's retry, gets it. A reply whose
// queue was replaced meanwhile by Configure or Reset is dropped, and so is
// every reply of a retired runtime.
func (r *Reservation) Rollback() {
	r.rt.mu.Lock()
	defer r.rt.mu.Unlock()
	if !r.rt.retired && slices.Contains(r.rt.queues, r.queue) {
		r.queue.pending = slices.Insert(r.queue.pending, 0, r.Reply)
	}
}

// Reserve takes the reply that answers req: the head of the first scenario
// that matches and has a reply left. When none does, the error names the
// request and says why each scenario was passed over.
func (rt *Runtime) Reserve(req *scenario.Request) (*Reservation, *openai.Error) {
	rt.mu.Lock()
	defer rt.mu.Unlock()
	for _, q := range rt.queues {
		if len(q.pending) == 0 || !q.scenario.Match.Matches(req) {
			continue
		}
		reply := q.pending[0]
		q.pending = q.pending[1:]
		return &Reservation{Scenario: q.scenario.Name, Reply: reply, rt: rt, queue: q}, nil
	}
	return nil, openai.NoScenario(rt.describeMiss(req))
}

// describeMiss explains why no scenario answered req. The caller holds mu.
func (rt *Runtime) describeMiss(req *scenario.Request) string {
	var b strings.Builder
	fmt.Fprintf(&b, "No scenario answers %s for model %q with last user message %q.", req.Endpoint, req.Model, req.LastUserText())
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
			b.WriteString("(does not match " + describeMatch(&q.scenario.Match) + ")")
		default:
			fmt.Fprintf(&b, "(all %d replies used)", len(q.scenario.Replies))
		}
	}
	b.WriteString(".")
	return b.String()
}

func describeMatch(m *scenario.Match) string {
	var parts []string
	if m.Endpoint != "" {
		parts = append(parts, "endpoint "+string(m.Endpoint))
	}
	if m.Model != "" {
		parts = append(parts, fmt.Sprintf("model %q", m.Model))
	}
	if m.UserContains != "" {
		parts = append(parts, fmt.Sprintf("user message containing %q", m.UserContains))
	}
	return strings.Join(parts, ", ")
}

// AddReplies appends replies to the scenario called name, creating it with
// match after the existing scenarios if there is none. The scripted replies
// become part of the settings, so Reset makes them available again. A
// retired runtime ignores them.
func (rt *Runtime) AddReplies(name string, match scenario.Match, replies ...scenario.Reply) {
	rt.mu.Lock()
	defer rt.mu.Unlock()
	if rt.retired {
		return
	}
	// Settings are shared by value with readers: copy before changing.
	scenarios := slices.Clone(rt.settings.Scenarios)
	i := slices.IndexFunc(scenarios, func(s scenario.Scenario) bool { return s.Name == name })
	if i < 0 {
		scenarios = append(scenarios, scenario.Scenario{Name: name, Match: match})
		i = len(scenarios) - 1
	}
	scenarios[i].Replies = append(slices.Clone(scenarios[i].Replies), replies...)
	rt.settings.Scenarios = scenarios
	// Re-point the live queues at the new scenario values, keeping what
	// each has left.
	live := make([]*queue, len(scenarios))
	for j := range scenarios {
		if j < len(rt.queues) {
			live[j] = rt.queues[j]
			live[j].scenario = &scenarios[j]
		} else {
			live[j] = &queue{scenario: &scenarios[j]}
		}
	}
	live[i].pending = append(live[i].pending, replies...)
	rt.queues = live
}

// Pending returns the number of scripted replies not used yet.
func (rt *Runtime) Pending() int {
	rt.mu.Lock()
	defer rt.mu.Unlock()
	n := 0
	for _, q := range rt.queues {
		n += len(q.pending)
	}
	return n
}
