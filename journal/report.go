package journal

// NoScenarioCode is the error code of a request that no scenario answered.
const NoScenarioCode = "llm_test_server_no_scenario"

// MaxListItems is how many items the journal keeps of one list: of an
// entry's lists (Entry.Tried, its tool calls, ...) and of Report.Unused.
const MaxListItems = maxListItems

// UnusedReply is a scripted reply no request used.
type UnusedReply struct {
	// Scenario names the reply's scenario, and Index is the reply's index
	// among the scenario's replies, from 0 (as Entry.ReplyIndex).
	Scenario string `json:"scenario"`
	Index    int    `json:"index"`
	// ScriptedAt is the file:line where the reply was scripted; "" for a
	// reply given as data (Configure, the admin API).
	ScriptedAt string `json:"scripted_at,omitempty"`
}

// Report sums up what a test should assert on beyond the replies it got:
// requests nothing answered, structured outputs that failed their schema,
// replies that contradict their request, and scripted replies never used.
type Report struct {
	// Unmatched are the kept entries of requests no scenario answered;
	// UnmatchedTotal counts them all, evicted ones included.
	Unmatched      []Entry
	UnmatchedTotal int
	// SchemaMismatches are the kept entries whose structured-output reply
	// failed the request's JSON schema; SchemaMismatchTotal counts them all.
	SchemaMismatches    []Entry
	SchemaMismatchTotal int
	// Contradictions are the kept entries whose reply the real model
	// could not have given to the request (see Entry.Contradictions):
	// the script contradicts the request. ContradictionTotal counts them
	// all, evicted ones included.
	Contradictions     []Entry
	ContradictionTotal int
	// UnusedReplies counts, by scenario name, the scripted replies no
	// request used. Sessions fill it in.
	UnusedReplies map[string]int
	// Unused lists the scripted replies no request used, each with the
	// file:line that scripted it, in script order: scenario by scenario,
	// and within one in the order the scenario would have answered with
	// them. It keeps at most MaxListItems of them; UnusedReplies counts
	// them all. Sessions fill it in.
	Unused []UnusedReply
	// Faults counts, by kind, the scripted faults the session fired since
	// it was created or last reset, evicted entries included: the kinds
	// of Entry.Fault ("drop", "hang", "cut", "malformed", "error_event",
	// "http_error"). Scripted faults are what a test asked for, so they
	// leave the report Clean. Sessions fill it in; nil when none fired.
	Faults map[string]int
}

// Clean reports whether nothing in r calls for attention. Fired faults
// do not: the test scripted them.
func (r *Report) Clean() bool {
	return r.UnmatchedTotal == 0 && r.SchemaMismatchTotal == 0 && r.ContradictionTotal == 0 && len(r.UnusedReplies) == 0
}

// Report returns the journal's part of a report: unmatched requests,
// schema mismatches and contradictions.
func (j *Journal) Report() Report {
	j.mu.Lock()
	defer j.mu.Unlock()
	r := Report{UnmatchedTotal: j.unmatched, SchemaMismatchTotal: j.mismatches, ContradictionTotal: j.contradicted}
	for i := range j.count {
		e := &j.ring[(j.head+i)%len(j.ring)]
		if e.ErrorCode == NoScenarioCode {
			r.Unmatched = append(r.Unmatched, *e)
		}
		if len(e.SchemaErrors) > 0 {
			r.SchemaMismatches = append(r.SchemaMismatches, *e)
		}
		if len(e.Contradictions) > 0 {
			r.Contradictions = append(r.Contradictions, *e)
		}
	}
	return r
}
