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

// tried explains why no scenario answered req: every scenario, nearest
// first (see nearer), at most journal.MaxListItems of them, and how many
// more there were. The caller holds mu.
func (rt *Runtime) tried(req *scenario.Request, key string) ([]journal.Tried, int) {
	cands := make([]candidate, len(rt.queues))
	for i, q := range rt.queues {
		p := q.position(key)
		if p == nil {
			p = &position{}
		}
		s := q.scenario
		c := candidate{order: i, name: s.Name, replies: len(s.Replies), perConv: s.PerConversation}
		c.expl = s.Match.Explain(req)
		c.usedUp = c.expl.Matched() && p.left(s.Replies) == 0
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
	return out, more
}

// miss is the error of a request no scenario answered: its message names
// the request and every scenario tried with why it passed, nearest first,
// and its Tried carries the same list for the journal. The caller holds mu.
func (rt *Runtime) miss(req *scenario.Request, key string) *apierr.Error {
	var b strings.Builder
	fmt.Fprintf(&b, "No scenario answers %s for model %q with last user message %q (conversation %s, turn %d).",
		req.Endpoint, req.Model, req.LastUserText(), req.Conversation, req.Turn)
	if len(rt.queues) == 0 {
		b.WriteString(" The session has no scenarios: script one, e.g. sess.Chat(name).Responds(text).")
		return apierr.NoScenario(b.String())
	}
	tried, more := rt.tried(req, key)
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
