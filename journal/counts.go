package journal

// Counts tallies kept entries by the fields tests group them by, so that
// "two requests per scenario, none to another model" is one comparison.
// An entry without a value (no scenario answered it, it belongs to no
// conversation) is counted under "", so each map's counts sum to Total.
type Counts struct {
	// Total is the number of entries counted.
	Total int
	// ByProvider, ByEndpoint, ByModel, ByScenario and ByConversation count
	// the entries by the field of that name.
	ByProvider, ByEndpoint, ByModel, ByScenario, ByConversation map[string]int
	// ByStatus counts the entries by HTTP status.
	ByStatus map[int]int
}

// Counts tallies the kept entries q selects; Counts(Query{}) tallies them
// all. The maps are nil when nothing is selected.
func (j *Journal) Counts(q Query) Counts {
	j.mu.Lock()
	defer j.mu.Unlock()
	var c Counts
	for i := range j.count {
		e := &j.ring[(j.head+i)%len(j.ring)]
		if !q.match(e) {
			continue
		}
		if c.Total == 0 {
			c.ByProvider, c.ByEndpoint, c.ByModel = map[string]int{}, map[string]int{}, map[string]int{}
			c.ByScenario, c.ByConversation, c.ByStatus = map[string]int{}, map[string]int{}, map[int]int{}
		}
		c.Total++
		c.ByProvider[e.Provider]++
		c.ByEndpoint[e.Endpoint]++
		c.ByModel[e.Model]++
		c.ByScenario[e.Scenario]++
		c.ByConversation[e.Conversation]++
		c.ByStatus[e.Status]++
	}
	return c
}
