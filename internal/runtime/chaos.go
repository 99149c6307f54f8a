package runtime

import (
	"fmt"
	"math/rand/v2"
	"slices"

	"github.com/llmtestserver/llmtestserver/scenario"
)

// Chaos is a session's rules for chaos tests: faults that replace the
// scripted answer of some of the requests, such as "every 3rd request
// fails with 500" or "10% of streams fail". The zero value has no rules.
type Chaos struct {
	// Seed seeds the random draws of the rules with a probability, so that
	// the same seed gives the same outcomes, request after request, on
	// every run.
	Seed uint64
	// Rules are tried in order on each request; the first that fires
	// answers it.
	Rules []ChaosRule
}

// ChaosRule is one rule: the requests it applies to, when it fires, and
// the reply it answers with.
type ChaosRule struct {
	// Name names the rule in the journal, as the scenario "chaos:<name>";
	// empty names it by its index, "chaos:rules[i]".
	Name string
	// Every fires the rule on every Every-th request it applies to (the
	// Every-th, the 2×Every-th ...); 0 uses Probability instead.
	Every int
	// Probability fires the rule on each request it applies to with this
	// probability, drawn from the seeded generator.
	Probability float64
	// StreamsOnly applies the rule to streamed requests only.
	StreamsOnly bool
	// Endpoints, when not empty, are the only endpoints the rule applies
	// to.
	Endpoints []scenario.Endpoint
	// Models, when not empty, are the only models the rule applies to.
	Models []string
	// Reply answers a request the rule fires on, instead of its scenario.
	// It is never a Go responder.
	Reply scenario.Reply
}

// label is the rule's name in the journal.
func (r *ChaosRule) label(i int) string {
	if r.Name != "" {
		return "chaos:" + r.Name
	}
	return fmt.Sprintf("chaos:rules[%d]", i)
}

// appliesTo reports whether the rule is one for req.
func (r *ChaosRule) appliesTo(req *scenario.Request) bool {
	return (!r.StreamsOnly || req.Stream) &&
		(len(r.Endpoints) == 0 || slices.Contains(r.Endpoints, req.Endpoint)) &&
		(len(r.Models) == 0 || slices.Contains(r.Models, req.Model))
}

// chaosState is the live state of a session's rules: how many requests
// each rule was tried on, and the generator of their draws.
type chaosState struct {
	tried []int
	rng   *rand.Rand
	src   *rand.PCG // rng's source, whose state a clone copies
}

// newChaosState starts the rules of c from the beginning: no request
// tried, the generator at its seed.
func newChaosState(c Chaos) chaosState {
	if len(c.Rules) == 0 {
		return chaosState{}
	}
	// The second word of the PCG state is fixed, so the seed alone
	// decides the sequence.
	src := rand.NewPCG(c.Seed, 0x9e3779b97f4a7c15)
	return chaosState{tried: make([]int, len(c.Rules)), rng: rand.New(src), src: src}
}

// FireChaos returns the reply of the first chaos rule that fires for req, as a
// reservation of the rule's own that takes nothing from any scenario, or
// nil when none fires. Rules are tried in order, each on the requests it
// applies to, until one fires: a rule counts (Every) and draws
// (Probability) only for the requests it is tried on, so with requests
// arriving in the same order the same seed gives the same outcomes. A
// retired runtime faults nothing and changes nothing.
func (rt *Runtime) FireChaos(req *scenario.Request) *Reservation {
	rt.mu.Lock()
	defer rt.mu.Unlock()
	rules := rt.settings.Chaos.Rules
	if rt.retired || len(rules) == 0 {
		return nil
	}
	for i := range rules {
		r := &rules[i]
		if !r.appliesTo(req) {
			continue
		}
		rt.chaos.tried[i]++
		var fires bool
		if r.Every > 0 {
			fires = rt.chaos.tried[i]%r.Every == 0
		} else {
			fires = rt.chaos.rng.Float64() < r.Probability
		}
		if fires {
			// A fault counts as delivered: rolling it back returns
			// nothing to any queue.
			return &Reservation{Scenario: r.label(i), Reply: r.Reply, rt: rt, index: -1, repeated: true}
		}
	}
	return nil
}
