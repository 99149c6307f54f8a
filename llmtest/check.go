package llmtest

import (
	"fmt"
	"sort"
	"strings"

	"github.com/llmtestserver/llmtestserver/journal"
	"github.com/llmtestserver/llmtestserver/session"
)

// CheckAssertions fails t, with one error per problem, if sess answered a
// request with llm_test_server_no_scenario, served a structured output that
// failed its schema, served a reply that contradicts its request (a tool
// call the request's tool_choice, tools or parallel_tool_calls rule out,
// or no tool call where they demand one), or has scripted replies no
// request used. It reports
// whether everything was clean.
func CheckAssertions(t TB, sess *session.Session) bool {
	t.Helper()
	r := sess.Assertions()
	if r.UnmatchedTotal > 0 {
		t.Errorf("llmtest: session %s: %d request(s) matched no scenario, want 0%s",
			sess.ID(), r.UnmatchedTotal, describeEntries(r.Unmatched))
	}
	if r.SchemaMismatchTotal > 0 {
		t.Errorf("llmtest: session %s: %d structured output(s) failed the request's schema, want 0%s",
			sess.ID(), r.SchemaMismatchTotal, describeSchemaErrors(r.SchemaMismatches))
	}
	if r.ContradictionTotal > 0 {
		t.Errorf("llmtest: session %s: %d reply(ies) contradict their request, which the real model could not answer so, want 0%s",
			sess.ID(), r.ContradictionTotal, describeContradictions(r.Contradictions))
	}
	if len(r.UnusedReplies) > 0 {
		names := make([]string, 0, len(r.UnusedReplies))
		for name, n := range r.UnusedReplies {
			names = append(names, fmt.Sprintf("%q: %d", name, n))
		}
		sort.Strings(names)
		t.Errorf("llmtest: session %s: scripted replies never used: %s; want all used", sess.ID(), strings.Join(names, ", "))
	}
	return r.Clean()
}

func describeEntries(entries []journal.Entry) string {
	var b strings.Builder
	for _, e := range entries {
		fmt.Fprintf(&b, "\n\t#%d %s %s model %q user %q", e.Seq, e.Method, e.Path, e.Model, e.UserText)
	}
	return b.String()
}

func describeSchemaErrors(entries []journal.Entry) string {
	var b strings.Builder
	for _, e := range entries {
		fmt.Fprintf(&b, "\n\t#%d scenario %q: %s", e.Seq, e.Scenario, strings.Join(e.SchemaErrors, "; "))
	}
	return b.String()
}

func describeContradictions(entries []journal.Entry) string {
	var b strings.Builder
	for _, e := range entries {
		fmt.Fprintf(&b, "\n\t#%d %s scenario %q: %s", e.Seq, e.Path, e.Scenario, strings.Join(e.Contradictions, "; "))
	}
	return b.String()
}

// Transcript renders a session's journal compactly, one line per request,
// for failure logs.
func Transcript(sess *session.Session) string {
	var b strings.Builder
	for _, e := range sess.Journal().Entries() {
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
		if e.ErrorCode != "" {
			fmt.Fprintf(&b, " error=%s", e.ErrorCode)
		}
		for _, c := range e.Contradictions {
			fmt.Fprintf(&b, " contradiction=%q", c)
		}
		b.WriteByte('\n')
	}
	return b.String()
}
