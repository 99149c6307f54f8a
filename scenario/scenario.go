package scenario

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"
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
}

// Validate reports what makes s unusable, naming the offending field.
func (s *Scenario) Validate() error {
	if strings.TrimSpace(s.Name) == "" {
		return errors.New("name: must not be empty")
	}
	if len(s.Replies) == 0 {
		return errors.New("replies: must hold at least one reply")
	}
	for i, r := range s.Replies {
		if r.Delay < 0 {
			return fmt.Errorf("replies[%d].delay_ms: must not be negative", i)
		}
	}
	return nil
}

// Match selects requests. Every field that is set must hold; the zero Match
// matches every request.
type Match struct {
	// Endpoint, when set, is the only endpoint that matches.
	Endpoint Endpoint `json:"endpoint,omitempty"`
	// Model, when set, is the only model that matches.
	Model string `json:"model,omitempty"`
	// UserContains, when set, must occur in the last user message.
	UserContains string `json:"user_contains,omitempty"`
}

// Matches reports whether r satisfies every condition of m. It does not
// allocate.
func (m *Match) Matches(r *Request) bool {
	if m.Endpoint != "" && m.Endpoint != r.Endpoint {
		return false
	}
	if m.Model != "" && m.Model != r.Model {
		return false
	}
	if m.UserContains != "" && !strings.Contains(r.LastUserText(), m.UserContains) {
		return false
	}
	return true
}

// Reply is one scripted answer of the model.
type Reply struct {
	// Text is the assistant message.
	Text string
	// Delay holds the answer back for this long, measured on the server's
	// clock, before any byte of the response is written.
	Delay time.Duration
}

// replyJSON is the wire form of Reply: durations travel as milliseconds.
type replyJSON struct {
	Text    string `json:"text"`
	DelayMS int64  `json:"delay_ms,omitempty"`
}

// MarshalJSON encodes the delay as delay_ms.
func (r Reply) MarshalJSON() ([]byte, error) {
	return json.Marshal(replyJSON{Text: r.Text, DelayMS: r.Delay.Milliseconds()})
}

// UnmarshalJSON decodes delay_ms into Delay and refuses unknown fields, so a
// misspelt field is an error rather than a silently ignored setting.
func (r *Reply) UnmarshalJSON(data []byte) error {
	var w replyJSON
	if err := decodeStrict(data, &w); err != nil {
		return err
	}
	*r = Reply{Text: w.Text, Delay: time.Duration(w.DelayMS) * time.Millisecond}
	return nil
}
