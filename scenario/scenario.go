package scenario

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
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
	return json.Marshal(scenarioJSON(s))
}
