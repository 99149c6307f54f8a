package runtime

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/llmtestserver/llmtestserver/internal/apierr"
	"github.com/llmtestserver/llmtestserver/journal"
	"github.com/llmtestserver/llmtestserver/scenario"
)

// candidate is one scenario a request no scenario answered was offered,
// with how near the request came to it.
type candidate struct {
	order  int // the scenario's place in the script
	name   string
	usedUp bool // it matches, but has no reply left
	expl   scenario.Explanation
	// replies counts the scenario's replies, perConv says they are
	// counted per conversation.
	replies int
	perConv bool
}

// nearer orders candidates nearest first:
//
//  1. a scenario that matches the request but has used all its replies,
//     since one more reply there is the likeliest fix;
//  2. then the scenarios that do not match, by how many of their
//     conditions the request satisfies, most first, then by how many it
//     fails, fewest first (see scenario.Match.Explain for what a
//     condition is);
//  3. ties in script order.
func nearer(a, b candidate) int {
	if a.usedUp != b.usedUp {
		if a.usedUp {
			return -1
		}
		return 1
	}
	if c := cmp.Compare(b.expl.Held, a.expl.Held); c != 0 {
		return c
	}
	if c := cmp.Compare(len(a.expl.Failed), len(b.expl.Failed)); c != 0 {
		return c
	}
	return cmp.Compare(a.order, b.order)
}

// why says why the scenario passed over the request, in one line without
// semicolons (the error message separates scenarios with them).
func (c *candidate) why() string {
	if c.usedUp {
		if c.replies == 0 {
			return "no replies left: its replies were cleared"
		}
		if c.perConv {
			return fmt.Sprintf("all %d replies used in this conversation", c.replies)
		}
		return fmt.Sprintf("all %d replies used", c.replies)
	}
	w := "does not match " + strings.Join(c.expl.Failed, " and ")
	if c.expl.Held > 0 {
		w += fmt.Sprintf(", %d of %d conditions hold", c.expl.Held, c.expl.Held+len(c.expl.Failed))
	}
	return w
}

// offer is a scenario a request was offered, as it stood when no scenario
// answered: its place, its value, and the replies its queue had left for
// the request's conversation.
type offer struct {
	order int
	s     scenario.Scenario
	left  int
}

// offered takes what explaining a miss needs of the queues, so that the
// explanation itself (every condition of every scenario against a request
// that may hold thousands of messages) runs after mu is released and holds
// up no other request. Scenarios are never changed in place, so the values
// copied stay what they were. The caller holds mu.
func (rt *Runtime) offered(key string) []offer {
	out := make([]offer, len(rt.queues))
	for i, q := range rt.queues {
		p := q.position(key)
		if p == nil {
			p = &position{}
		}
		out[i] = offer{order: i, s: *q.scenario, left: p.left(q.scenario.Replies)}
	}
	return out
}

// tried explains why no scenario answered req: every scenario offered,
// nearest first (see nearer), at most journal.MaxListItems of them, and how
// many more there were. A match function that panics (see explain) ends
// the explanation with the error that answers the request instead.
func tried(req *scenario.Request, offers []offer) ([]journal.Tried, int, *apierr.Error) {
	cands := make([]candidate, len(offers))
	for i := range offers {
		o := &offers[i]
		c := candidate{order: o.order, name: o.s.Name, replies: len(o.s.Replies), perConv: o.s.PerConversation}
		var failed *apierr.Error
		if c.expl, failed = explain(&o.s, req); failed != nil {
			return nil, 0, failed
		}
		c.usedUp = c.expl.Matched() && o.left == 0
		cands[i] = c
	}
	slices.SortFunc(cands, nearer)
	more := 0
	if len(cands) > journal.MaxListItems {
		more = len(cands) - journal.MaxListItems
		cands = cands[:journal.MaxListItems]
	}
	out := make([]journal.Tried, len(cands))
	for i := range cands {
		out[i] = journal.Tried{Scenario: cands[i].name, Why: cands[i].why()}
	}
	return out, more, nil
}

// miss is the error of a request no scenario answered: its message names
// the request and every scenario offered with why it passed, nearest first,
// and its Tried carries the same list for the journal; or, when a match
// function panics while explaining, the error that says so.
func miss(req *scenario.Request, offers []offer) *apierr.Error {
	var b strings.Builder
	fmt.Fprintf(&b, "No scenario answers %s for model %q with last user message %q (conversation %s, turn %d).",
		req.Endpoint, req.Model, req.LastUserText(), req.Conversation, req.Turn)
	if len(offers) == 0 {
		b.WriteString(" The session has no scenarios: script one, e.g. sess.Chat(name).Responds(text).")
		return apierr.NoScenario(b.String())
	}
	tried, more, failed := tried(req, offers)
	if failed != nil {
		return failed
	}
	b.WriteString(" Tried, nearest first:")
	for i, t := range tried {
		if i > 0 {
			b.WriteString(";")
		}
		fmt.Fprintf(&b, " %q (%s)", t.Scenario, t.Why)
	}
	if more > 0 {
		fmt.Fprintf(&b, "; and %d more scenario(s)", more)
	}
	b.WriteString(".")
	err := apierr.NoScenario(b.String())
	err.Tried = tried
	return err
}
