package scenario

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/llmtestserver/llmtestserver/internal/plainjson"
)

// Scenario is a named rule: requests that Match are answered by Replies, each
// reply used once, in order.
type Scenario struct {
	// Name identifies the scenario in errors, the journal and the admin API.
	Name string `json:"name"`
	// Match selects the requests this scenario answers.
	Match Match `json:"match"`
	// Replies are used one per matching request, in order.
	Replies []Reply `json:"replies"`
	// Repeat keeps the last reply: once the others are used, it answers
	// every matching request.
	Repeat bool `json:"repeat,omitempty"`
	// PerConversation gives every conversation its own copy of the queue,
	// so parallel conversations in one session each get the whole sequence.
	PerConversation bool `json:"per_conversation,omitempty"`
}

// Validate reports what makes s unusable, naming the offending field, and
// prepares its matchers for use.
func (s *Scenario) Validate() error {
	if strings.TrimSpace(s.Name) == "" {
		return errors.New("name: must not be empty")
	}
	if len(s.Replies) == 0 {
		return errors.New("replies: must hold at least one reply")
	}
	if err := s.Match.validate("match"); err != nil {
		return err
	}
	for i := range s.Replies {
		if err := s.Replies[i].Validate(); err != nil {
			return fmt.Errorf("replies[%d].%v", i, err)
		}
	}
	return nil
}

// Clone returns a deep copy of s: its match tree and its replies, with
// their tool calls, JSON, errors and their headers, vectors and usage, are
// copied, so the copy can be validated and used by one session while others
// use s. Go functions (Match.Func, Reply.Func) are shared.
func (s *Scenario) Clone() Scenario {
	c := *s
	c.Match = s.Match.clone()
	if s.Replies != nil {
		c.Replies = make([]Reply, len(s.Replies))
		for i := range s.Replies {
			c.Replies[i] = cloneReply(&s.Replies[i])
		}
	}
	return c
}

// cloneReply returns a deep copy of r.
func cloneReply(r *Reply) Reply {
	c := *r
	c.ToolCalls = slices.Clone(r.ToolCalls)
	c.JSON = slices.Clone(r.JSON)
	c.RedactedThinking = slices.Clone(r.RedactedThinking)
	c.Citations = slices.Clone(r.Citations)
	c.Iterations = slices.Clone(r.Iterations)
	c.AppliedEdits = slices.Clone(r.AppliedEdits)
	if r.WebSearches != nil {
		c.WebSearches = make([]WebSearch, len(r.WebSearches))
		for i, w := range r.WebSearches {
			c.WebSearches[i] = w
			c.WebSearches[i].Results = slices.Clone(w.Results)
		}
	}
	if r.Error != nil {
		e := *r.Error
		e.Headers = maps.Clone(r.Error.Headers)
		c.Error = &e
	}
	if r.Vectors != nil {
		c.Vectors = make([][]float32, len(r.Vectors))
		for i, v := range r.Vectors {
			c.Vectors[i] = slices.Clone(v)
		}
	}
	if r.Usage != nil {
		u := *r.Usage
		c.Usage = &u
	}
	return c
}

// scenarioJSON has Scenario's fields without its methods.
type scenarioJSON Scenario

// UnmarshalJSON refuses unknown fields.
func (s *Scenario) UnmarshalJSON(data []byte) error {
	var w scenarioJSON
	if err := decodeStrict(data, &w); err != nil {
		return err
	}
	*s = Scenario(w)
	return nil
}

// MarshalJSON encodes s; it fails with ErrInProcessOnly if s holds a Go
// function.
func (s Scenario) MarshalJSON() ([]byte, error) {
	return plainjson.Marshal(scenarioJSON(s))
}
