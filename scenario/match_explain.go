package scenario

import (
	"fmt"
	"strings"
)

// Explanation says how a request fares against a match, condition by
// condition: what a failure message needs to tell why a scenario passed
// over a request, and how near the request came to it.
type Explanation struct {
	// Held counts the conditions the request satisfies.
	Held int
	// Failed describes each condition the request fails, in the match's
	// order, with what the request had instead, such as
	// `model "gpt-4o" (got "gpt-4.1-mini")`.
	Failed []string
}

// Matched reports whether the request satisfies every condition.
func (e Explanation) Matched() bool { return len(e.Failed) == 0 }

// Explain checks r against m condition by condition. A condition is one
// field of m that is set (Endpoint, Model, UserEquals, UserContains,
// UserRegex, SystemContains, ToolResult, ToolOffered, Turn, Func), the Any
// list as a whole, or Not; the conditions of the matches in All count as
// m's own, since all of them must hold just as m's own do. For a request to
// a non-conversational endpoint, a match that holds otherwise but does not
// name that endpoint fails one condition more (see Match.Endpoint).
//
// Explain agrees with Matches: its Failed is empty exactly when Matches
// reports true. It allocates, and is meant for the failure path.
func (m *Match) Explain(r *Request) Explanation {
	var e Explanation
	m.explain(r, &e)
	if e.Matched() && !r.Endpoint.Conversational() && !m.reaches(r) {
		e.Failed = append(e.Failed, fmt.Sprintf("endpoint %s named (a match that names no endpoint answers conversational requests only)", r.Endpoint))
	}
	return e
}

// explain adds m's conditions to e; see Explain.
func (m *Match) explain(r *Request, e *Explanation) {
	check := func(holds bool, format string, args ...any) {
		if holds {
			e.Held++
		} else {
			e.Failed = append(e.Failed, fmt.Sprintf(format, args...))
		}
	}
	if m.Endpoint != "" {
		check(m.Endpoint == r.Endpoint, "endpoint %s (got %s)", m.Endpoint, r.Endpoint)
	}
	if m.Model != "" {
		check(m.Model == r.Model, "model %q (got %q)", m.Model, r.Model)
	}
	user := r.LastUserText()
	if m.UserEquals != "" {
		check(user == m.UserEquals, "user message %q (got %s)", m.UserEquals, quoteClipped(user))
	}
	if m.UserContains != "" {
		check(strings.Contains(user, m.UserContains), "user message containing %q (got %s)", m.UserContains, quoteClipped(user))
	}
	if m.UserRegex != "" {
		check(m.regex().MatchString(user), "user message matching /%s/ (got %s)", m.UserRegex, quoteClipped(user))
	}
	if m.SystemContains != "" {
		got := "no system prompt"
		if r.System != "" {
			got = quoteClipped(r.System)
		}
		check(strings.Contains(r.System, m.SystemContains), "system prompt containing %q (got %s)", m.SystemContains, got)
	}
	if m.ToolResult != "" {
		check(r.hasToolResult(m.ToolResult), "a tool result for %q (got %s)", m.ToolResult, toolResultsGot(r))
	}
	if m.ToolOffered != "" {
		check(r.offers(m.ToolOffered), "tool %q offered (got %s)", m.ToolOffered, toolsGot(r))
	}
	if m.Turn != 0 {
		check(m.Turn == r.Turn, "turn %d (got turn %d)", m.Turn, r.Turn)
	}
	for i := range m.All {
		m.All[i].explain(r, e)
	}
	if len(m.Any) > 0 {
		alts := make([]string, len(m.Any))
		for i := range m.Any {
			alts[i] = m.Any[i].Describe()
		}
		check(m.anyMatches(r), "any of (%s) (got none of them)", strings.Join(alts, " | "))
	}
	if m.Not != nil {
		check(!m.Not.matches(r), "not (%s) (got a request that matches it)", m.Not.Describe())
	}
	if m.Func != nil {
		check(m.Func(r), "a Go predicate (got false)")
	}
}

// clipBytes is how much of a request's text an explanation quotes.
const clipBytes = 60

// quoteClipped quotes s, cut to its first clipBytes bytes (on a rune
// boundary) with an ellipsis after the quote when it was longer.
func quoteClipped(s string) string {
	if len(s) <= clipBytes {
		return fmt.Sprintf("%q", s)
	}
	cut := clipBytes
	for cut > 0 && !isRuneStart(s[cut]) {
		cut--
	}
	return fmt.Sprintf("%q…", s[:cut])
}

func isRuneStart(b byte) bool { return b&0xC0 != 0x80 }

// maxNamesListed is how many tool names an explanation lists.
const maxNamesListed = 8

// namesGot renders names for an explanation: none when there are none,
// else what and at most maxNamesListed quoted names.
func namesGot(names []string, what, none string) string {
	if len(names) == 0 {
		return none
	}
	more := ""
	if len(names) > maxNamesListed {
		more = fmt.Sprintf(" and %d more", len(names)-maxNamesListed)
		names = names[:maxNamesListed]
	}
	quoted := make([]string, len(names))
	for i, n := range names {
		quoted[i] = fmt.Sprintf("%q", n)
	}
	return what + " " + strings.Join(quoted, ", ") + more
}

func toolsGot(r *Request) string {
	names := make([]string, len(r.Tools))
	for i := range r.Tools {
		names[i] = r.Tools[i].Name
	}
	return namesGot(names, "tools", "no tools")
}

func toolResultsGot(r *Request) string {
	var names []string
	for _, res := range r.ToolResults() {
		n := res.Name
		if n == "" {
			n = res.CallID
		}
		names = append(names, n)
	}
	return namesGot(names, "tool results for", "no tool results")
}
