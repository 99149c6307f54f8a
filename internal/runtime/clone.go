package runtime

import (
	"maps"
	"math/rand/v2"
	"slices"

	"github.com/llmtestserver/llmtestserver/scenario"
)

// Clone returns a new runtime that starts where rt stands: its settings and
// every piece of state that decides the answers to come, copied in one
// critical section, so that the two never see each other's later changes.
// It reports false, and clones nothing, when rt is retired.
//
// Copied: the settings (scenarios, models, rate limits and chaos rules
// deep-copied); every scenario queue with what it has left (its position,
// the replies rolled back to it, the positions of each conversation); the
// conversation identities and their generations; the history (stored
// responses, chat completions and conversations); the jobs, each where
// its plan and the shared clock put it; the prompt cache; the
// rate-limit buckets; the chaos rules' counts and the state of their
// generator; the Idempotency-Key answers kept.
//
// Not copied, because they belong to the original: the requests in flight,
// and the keys they hold in the Idempotency-Key store (a retry of such a
// request at the clone is answered afresh). The journal and the fault
// counts start empty: they record what a runtime was asked, and a clone has
// been asked nothing yet. The ID sequence starts from idSeed, which becomes
// the clone's IDSeed setting (nil: a fresh random sequence), so that the
// clone never hands out the IDs rt hands out next. The clock is shared.
//
// Values that nobody changes once made are shared rather than copied: the
// scripted replies inside a reservation rolled back, the stored records of
// the history (codecs put a new record in place of one they change; one
// that holds a claim of a request in flight is copied without it, see
// Claimed) and the kept Idempotency-Key answers.
func (rt *Runtime) Clone(idSeed *uint64) (*Runtime, bool) {
	rt.mu.Lock()
	defer rt.mu.Unlock()
	if rt.retired {
		return nil, false
	}
	s := cloneSettings(rt.settings)
	s.IDSeed = cloneSeed(idSeed)
	c := &Runtime{
		clock:    rt.clock,
		settings: s,
		inflight: make(map[*flight]struct{}),
		ids:      newIDSequence(s.IDSeed),

		conversations: maps.Clone(rt.conversations),
		positions:     rt.positions,
		history:       rt.history.clone(),
		jobs:          rt.jobs.clone(),
		prefixes:      maps.Clone(rt.prefixes),
		rates:         cloneRates(rt.rates),
		chaos:         rt.chaos.clone(),
		idempotency:   rt.idempotency.clone(),
	}
	c.journal, c.journalWriter = newJournal(&s)
	if c.conversations == nil {
		c.conversations = make(map[identityKey]conversation)
	}
	c.queues = make([]*queue, len(rt.queues))
	for i, q := range rt.queues {
		c.queues[i] = q.clone(&c.settings.Scenarios[i])
	}
	return c, true
}

// cloneSettings returns a deep copy of s.
func cloneSettings(s Settings) Settings {
	s.Models = slices.Clone(s.Models)
	if s.Scenarios != nil {
		scenarios := make([]scenario.Scenario, len(s.Scenarios))
		for i := range s.Scenarios {
			scenarios[i] = s.Scenarios[i].Clone()
		}
		s.Scenarios = scenarios
	}
	s.RateLimits.Models = maps.Clone(s.RateLimits.Models)
	if s.Chaos.Rules != nil {
		rules := make([]ChaosRule, len(s.Chaos.Rules))
		for i, r := range s.Chaos.Rules {
			r.Endpoints, r.Models = slices.Clone(r.Endpoints), slices.Clone(r.Models)
			r.Reply = cloneReply(r.Reply)
			rules[i] = r
		}
		s.Chaos.Rules = rules
	}
	s.IDSeed = cloneSeed(s.IDSeed)
	return s
}

// cloneReply returns a deep copy of r.
func cloneReply(r scenario.Reply) scenario.Reply {
	s := scenario.Scenario{Replies: []scenario.Reply{r}}
	return s.Clone().Replies[0]
}

func cloneSeed(seed *uint64) *uint64 {
	if seed == nil {
		return nil
	}
	v := *seed
	return &v
}

// clone returns a copy of q's positions for the scenario s, the clone's
// copy of q's scenario.
func (q *queue) clone(s *scenario.Scenario) *queue {
	c := &queue{scenario: s, global: q.global.clone()}
	if q.byConv != nil {
		c.byConv = make(map[string]*position, len(q.byConv))
		for k, p := range q.byConv {
			p := p.clone()
			c.byConv[k] = &p
		}
	}
	return c
}

func (p *position) clone() position {
	return position{next: p.next, back: slices.Clone(p.back)}
}

// clone returns a copy of h; the records are shared (see Clone), but for
// those that hold a claim of a request in flight, which the copy keeps
// without it (see Claimed).
func (h *history) clone() history {
	byID := maps.Clone(h.byID)
	for id, k := range byID {
		if c, ok := k.r.(Claimed); ok {
			k.r = c.Unclaimed()
			byID[id] = k
		}
	}
	return history{byID: byID, order: slices.Clone(h.order), bytes: h.bytes, seq: h.seq}
}

func cloneRates(rates map[string]*modelBuckets) map[string]*modelBuckets {
	if rates == nil {
		return nil
	}
	c := make(map[string]*modelBuckets, len(rates))
	for m, b := range rates {
		b := *b
		c[m] = &b
	}
	return c
}

// clone returns a copy of the rules' counts and of their generator, at the
// same point of its sequence.
func (c chaosState) clone() chaosState {
	if c.src == nil {
		return chaosState{tried: slices.Clone(c.tried)}
	}
	src := *c.src
	return chaosState{tried: slices.Clone(c.tried), rng: rand.New(&src), src: &src}
}

// clone returns the kept answers of s, without the keys in flight: their
// requests belong to the original store, and nothing would ever release
// them in the copy.
func (s *idempotency) clone() idempotency {
	c := idempotency{seq: s.seq}
	for k, slot := range s.slots {
		if slot.answer == nil {
			continue
		}
		if c.slots == nil {
			c.slots = make(map[string]*idemSlot, len(s.slots))
		}
		kept := *slot
		c.slots[k] = &kept
		c.bytes += kept.size
	}
	return c
}
