package llmtest

import "github.com/llmtestserver/llmtestserver/journal"

// The failure output of CheckAssertions, strict mode and Transcript is
// built by the journal's report (journal/explain.go), so that the admin
// API explains a session's assertions with the same text.

// reportProblems returns one message per kind of problem in r, each a
// header line naming the session and what went wrong, then its details.
func reportProblems(id string, r *journal.Report) []string { return r.Problems(id) }

// describeFaults renders fault counts as "drop 2, hang 1".
func describeFaults(faults map[string]int) string {
	r := journal.Report{Faults: faults}
	return r.FaultSummary()
}

// transcript renders entries and the end of report r; see Transcript.
func transcript(entries []journal.Entry, r *journal.Report) string { return r.Transcript(entries) }
