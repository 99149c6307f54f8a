package journal

import (
	"cmp"
	"slices"
)

// Query selects entries by what a test asks of them: each field that is
// set must match, and a zero field matches every entry. The zero Query
// selects them all.
type Query struct {
	// Provider, Endpoint, Model, Scenario and Conversation must equal the
	// entry's field of the same name ("openai", "chat.completions",
	// "gpt-4.1-mini", "greeting", "conv_…").
	Provider, Endpoint, Model, Scenario, Conversation string
	// Generation must equal the entry's Generation: with Conversation, one
	// run of a conversation that started again from its opening.
	Generation int
	// Status must equal the entry's HTTP status.
	Status int
	// StatusClass, from 1 to 5, keeps the statuses of that hundred: 2 for
	// 2xx, 4 for 4xx. Any other value matches nothing.
	StatusClass int
	// ErrorCode must equal the entry's error code: NoScenarioCode selects
	// the requests no scenario answered.
	ErrorCode string
	// Fault must equal the fault the entry fired ("drop", "cut", …).
	Fault string
}

// Match reports whether q selects e, so that a test can filter entries it
// already holds (a Report's, say) as the journal's queries do.
func (q Query) Match(e Entry) bool { return q.match(&e) }

// match is Match without copying the entry, for the loops that run under
// the journal's lock.
func (q *Query) match(e *Entry) bool {
	switch {
	case q.Provider != "" && e.Provider != q.Provider,
		q.Endpoint != "" && e.Endpoint != q.Endpoint,
		q.Model != "" && e.Model != q.Model,
		q.Scenario != "" && e.Scenario != q.Scenario,
		q.Conversation != "" && e.Conversation != q.Conversation,
		q.Generation != 0 && e.Generation != q.Generation,
		q.Status != 0 && e.Status != q.Status,
		q.StatusClass != 0 && e.Status/100 != q.StatusClass,
		q.ErrorCode != "" && e.ErrorCode != q.ErrorCode,
		q.Fault != "" && e.Fault != q.Fault:
		return false
	}
	return true
}

// Find returns copies of the kept entries q selects, oldest first, and nil
// when it selects none. Only the matches are copied, so a narrow query on
// a full journal costs what it returns.
func (j *Journal) Find(q Query) []Entry {
	j.mu.Lock()
	defer j.mu.Unlock()
	var out []Entry
	for i := range j.count {
		if e := &j.ring[(j.head+i)%len(j.ring)]; q.match(e) {
			out = append(out, *e)
		}
	}
	return out
}

// Count returns how many kept entries q selects.
func (j *Journal) Count(q Query) int {
	j.mu.Lock()
	defer j.mu.Unlock()
	n := 0
	for i := range j.count {
		if q.match(&j.ring[(j.head+i)%len(j.ring)]) {
			n++
		}
	}
	return n
}

// Conversation returns the kept entries of conversation id in turn order:
// by Generation, then Turn, then Seq. Every generation is there, the first
// one first, so that a conversation the code under test started over
// reads as each of its runs whole, one after the other; select one run
// with Find(Query{Conversation: id, Generation: n}). Requests of one turn
// (a retry, or a tool round that adds no user message) keep the order
// they arrived in. An id of "" selects nothing: such entries belong to no
// conversation.
func (j *Journal) Conversation(id string) []Entry {
	if id == "" {
		return nil
	}
	entries := j.Find(Query{Conversation: id})
	// Sorted outside the lock: recording waits for no sort.
	slices.SortFunc(entries, func(a, b Entry) int {
		return cmp.Or(cmp.Compare(a.Generation, b.Generation), cmp.Compare(a.Turn, b.Turn), cmp.Compare(a.Seq, b.Seq))
	})
	return entries
}
