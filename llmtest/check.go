package llmtest

import (
	"github.com/llmtestserver/llmtestserver/session"
)

// CheckAssertions fails t, with one error per kind of problem, if sess
// answered a request with llm_test_server_no_scenario, served a structured
// output that failed its schema, served a reply that contradicts its
// request (a tool call the request's tool_choice, tools or
// parallel_tool_calls rule out, or no tool call where they demand one), or
// has scripted replies no request used. It reports whether everything was
// clean.
//
// Each error is one header line, then one indented line per request or
// reply concerned: an unmatched request is followed by every scenario it
// was offered and why that scenario passed over it, nearest first
// (journal.Entry.Tried); an unused reply names the file:line that scripted
// it. When the session is not clean and scripted faults fired, a log line
// lists them, since a fault is often why a script went off its course.
//
// CheckAssertions marks itself as a helper, so the errors point at the
// test's call (for strict mode, see WithStrict).
func CheckAssertions(t TB, sess *session.Session) bool {
	t.Helper()
	r := sess.Assertions()
	for _, msg := range r.Problems(sess.ID()) {
		t.Errorf("%s", msg)
	}
	if note := r.FaultsNote(sess.ID()); note != "" {
		t.Logf("%s", note)
	}
	return r.Clean()
}

// Transcript renders a session's journal for failure logs and golden
// files: one line per request, then indented lines for what needs
// explaining (for a request no scenario answered, each scenario tried and
// why, nearest first; schema errors; contradictions), and last the
// scripted replies never used with the file:line that scripted each, and
// the faults fired. The lines hold no times nor durations: under a
// session ID seed (session.WithIDSeed) the same test gives the same
// transcript, byte for byte. The call sites of unused replies change with
// the test file's lines.
func Transcript(sess *session.Session) string {
	r := sess.Assertions()
	return r.Transcript(sess.Journal().Entries())
}
