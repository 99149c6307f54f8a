package journal

import (
	"fmt"
	"slices"
	"strings"
)

// The text of a report, as llmtest prints it when a test fails and the
// admin API answers it (GET /admin-api/assertions' explanation): one header
// line per problem, then lines indented by one tab per level. The
// functions here only format; they never read the clock or anything else
// that differs between two runs of the same test.

// Problems returns one message per kind of problem in r, each a header
// line naming the session id and what went wrong, then its details: the
// errors llmtest.CheckAssertions fails a test with. A clean report has
// none.
func (r *Report) Problems(id string) []string {
	var msgs []string
	if r.UnmatchedTotal > 0 {
		var b strings.Builder
		fmt.Fprintf(&b, "llmtest: session %s: %d request(s) matched no scenario, want 0", id, r.UnmatchedTotal)
		for i := range r.Unmatched {
			e := &r.Unmatched[i]
			fmt.Fprintf(&b, "\n\t#%d %s %s model %q user %q", e.Seq, e.Method, e.Path, e.Model, e.UserText)
			writeTried(&b, e, "\t\t")
		}
		writeEvicted(&b, r.UnmatchedTotal-len(r.Unmatched))
		msgs = append(msgs, b.String())
	}
	if r.SchemaMismatchTotal > 0 {
		msgs = append(msgs, describeAnswered(
			fmt.Sprintf("llmtest: session %s: %d structured output(s) failed the request's schema, want 0", id, r.SchemaMismatchTotal),
			r.SchemaMismatches, r.SchemaMismatchTotal, func(e *Entry) []string { return e.SchemaErrors }))
	}
	if r.ContradictionTotal > 0 {
		msgs = append(msgs, describeAnswered(
			fmt.Sprintf("llmtest: session %s: %d reply(ies) contradict their request, which the real model could not answer so, want 0", id, r.ContradictionTotal),
			r.Contradictions, r.ContradictionTotal, func(e *Entry) []string { return e.Contradictions }))
	}
	if len(r.UnusedReplies) > 0 {
		var b strings.Builder
		fmt.Fprintf(&b, "llmtest: session %s: %d scripted reply(ies) never used (%s), want all used",
			id, unusedTotal(r), describeCounts(r.UnusedReplies, "%q: %d", ", "))
		writeUnused(&b, r, "\t")
		msgs = append(msgs, b.String())
	}
	return msgs
}

// writeTried writes why no scenario answered e, one scenario a line,
// nearest first, each line prefixed with indent.
func writeTried(b *strings.Builder, e *Entry, indent string) {
	if len(e.Tried) == 0 {
		fmt.Fprintf(b, "\n%sno scenario to try: the session had none", indent)
		return
	}
	for _, t := range e.Tried {
		fmt.Fprintf(b, "\n%stried %q: %s", indent, t.Scenario, t.Why)
	}
}

// writeUnused writes the unused replies of r, one a line, each with the
// file:line that scripted it.
func writeUnused(b *strings.Builder, r *Report, indent string) {
	for _, u := range r.Unused {
		at := "scripted as data (Configure or the admin API), no call site"
		if u.ScriptedAt != "" {
			at = "scripted at " + u.ScriptedAt
		}
		fmt.Fprintf(b, "\n%s%q replies[%d] %s", indent, u.Scenario, u.Index, at)
	}
	if n := unusedTotal(r) - len(r.Unused); n > 0 {
		fmt.Fprintf(b, "\n%sand %d more", indent, n)
	}
}

// unusedTotal sums r's counts of unused replies.
func unusedTotal(r *Report) int {
	n := 0
	for _, c := range r.UnusedReplies {
		n += c
	}
	return n
}

// answeredBy names the scenario and reply that answered e, and where the
// reply was scripted when the journal knows.
func answeredBy(e *Entry) string {
	if e.Scenario == "" {
		return ""
	}
	s := fmt.Sprintf(" scenario %q replies[%d]", e.Scenario, e.ReplyIndex)
	if e.ScriptedAt != "" {
		s += " scripted at " + e.ScriptedAt
	}
	return s
}

// writeLines writes each of lines on its own line after indent.
func writeLines(b *strings.Builder, indent string, lines []string) {
	for _, l := range lines {
		b.WriteString("\n" + indent + l)
	}
}

// writeEvicted says how many entries of a count the journal no longer
// keeps.
func writeEvicted(b *strings.Builder, n int) {
	if n > 0 {
		fmt.Fprintf(b, "\n\tand %d more no longer kept by the journal", n)
	}
}

// describeCounts renders counts sorted by key, each with format, joined by
// sep.
func describeCounts(counts map[string]int, format, sep string) string {
	keys := make([]string, 0, len(counts))
	for k := range counts {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = fmt.Sprintf(format, k, counts[k])
	}
	return strings.Join(parts, sep)
}

// describeAnswered is a problem with answered requests: header, then each
// kept entry with the reply that answered it and the entry's problems
// (problems), then how many entries were evicted of total.
func describeAnswered(header string, entries []Entry, total int, problems func(*Entry) []string) string {
	var b strings.Builder
	b.WriteString(header)
	for i := range entries {
		e := &entries[i]
		fmt.Fprintf(&b, "\n\t#%d %s %s%s", e.Seq, e.Method, e.Path, answeredBy(e))
		writeLines(&b, "\t\t", problems(e))
	}
	writeEvicted(&b, total-len(entries))
	return b.String()
}

// FaultSummary renders r's fault counts as "drop 2, hang 1", by kind.
func (r *Report) FaultSummary() string { return describeFaults(r.Faults) }

// FaultsNote returns the line that lists the faults fired when r is not
// clean, since a fault is often why a script went off its course (the
// line llmtest.CheckAssertions logs); "" when r is clean or no fault
// fired.
func (r *Report) FaultsNote(id string) string {
	if r.Clean() || len(r.Faults) == 0 {
		return ""
	}
	return fmt.Sprintf("llmtest: session %s: scripted faults fired: %s", id, r.FaultSummary())
}

// Explanation is the whole text llmtest.CheckAssertions prints for r:
// each message of Problems, then FaultsNote, one after the other on their
// own lines; "" when r is clean.
func (r *Report) Explanation(id string) string {
	parts := r.Problems(id)
	if note := r.FaultsNote(id); note != "" {
		parts = append(parts, note)
	}
	return strings.Join(parts, "\n")
}

// describeFaults renders fault counts as "drop 2, hang 1".
func describeFaults(faults map[string]int) string {
	return describeCounts(faults, "%s %d", ", ")
}

// Transcript renders entries, one line each with indented lines for what
// needs explaining, and then the end of r: the unused replies and the
// faults fired (see llmtest.Transcript). It holds no times nor durations.
func (r *Report) Transcript(entries []Entry) string {
	var b strings.Builder
	for i := range entries {
		e := &entries[i]
		fmt.Fprintf(&b, "#%d %s %s -> %d", e.Seq, e.Method, e.Path, e.Status)
		if e.Model != "" {
			fmt.Fprintf(&b, " model=%s", e.Model)
		}
		if e.Conversation != "" {
			fmt.Fprintf(&b, " conversation=%s/%d turn=%d", e.Conversation, e.Generation, e.Turn)
		}
		fmt.Fprintf(&b, " user=%q", e.UserText)
		if e.Scenario != "" {
			fmt.Fprintf(&b, " scenario=%s", e.Scenario)
		}
		for _, c := range e.ToolCalls {
			fmt.Fprintf(&b, " call=%s(%s)", c.Name, c.Arguments)
		}
		if e.ReplyText != "" {
			fmt.Fprintf(&b, " reply=%q", e.ReplyText)
		}
		if e.Refusal != "" {
			fmt.Fprintf(&b, " refusal=%q", e.Refusal)
		}
		if e.ErrorCode != "" {
			fmt.Fprintf(&b, " error=%s", e.ErrorCode)
		}
		if e.Fault != "" {
			fmt.Fprintf(&b, " fault=%s", e.Fault)
		}
		if e.Replay {
			b.WriteString(" replay")
		}
		if e.ErrorCode == NoScenarioCode {
			writeTried(&b, e, "\t")
		}
		for _, s := range e.SchemaErrors {
			b.WriteString("\n\tschema: " + s)
		}
		for _, c := range e.Contradictions {
			b.WriteString("\n\tcontradiction: " + c)
		}
		b.WriteByte('\n')
	}
	if len(r.UnusedReplies) > 0 {
		fmt.Fprintf(&b, "unused: %d scripted reply(ies) never used", unusedTotal(r))
		writeUnused(&b, r, "\t")
		b.WriteByte('\n')
	}
	if len(r.Faults) > 0 {
		fmt.Fprintf(&b, "faults fired: %s\n", describeFaults(r.Faults))
	}
	return b.String()
}
