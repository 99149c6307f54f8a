package llmtest

import (
	"errors"

	"github.com/llmtestserver/llmtestserver/clock"
)

// WithClock runs the server on c: reply delays, stream pacing, rate-limit
// windows, prompt-cache lifetimes, created timestamps and journal times all
// read it. Give it a clock.Fake to move time by hand. The default is the
// real clock, which inside a testing/synctest bubble is the bubble's.
func WithClock(c clock.Clock) Option {
	return optionFunc(func(s *settings) error {
		if c == nil {
			return errors.New("llmtest: WithClock: the clock must not be nil")
		}
		s.clock = c
		return nil
	})
}
