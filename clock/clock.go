package clock

import (
	"context"
	"time"
)

// Clock tells the time and makes timers. Its methods are safe for
// concurrent use.
type Clock interface {
	// Now returns the current time.
	Now() time.Time
	// NewTimer returns a timer that fires once d has passed on this
	// clock; d <= 0 fires at once.
	NewTimer(d time.Duration) Timer
}

// Timer is a one-shot timer of a Clock.
type Timer interface {
	// C delivers the time once the timer fires.
	C() <-chan time.Time
	// Stop prevents the timer from firing, and reports whether it did
	// (false when it had fired or been stopped already).
	Stop() bool
}

// Real returns the standard library's clock. Inside a testing/synctest
// bubble it is the bubble's virtual clock.
func Real() Clock { return realClock{} }

type realClock struct{}

func (realClock) Now() time.Time { return time.Now() }

func (realClock) NewTimer(d time.Duration) Timer { return realTimer{time.NewTimer(d)} }

type realTimer struct{ t *time.Timer }

func (t realTimer) C() <-chan time.Time { return t.t.C }
func (t realTimer) Stop() bool          { return t.t.Stop() }

// Wait holds the caller for d on c, or until ctx ends, whichever comes
// first, and returns ctx's error in the second case. d <= 0 returns at
// once.
func Wait(ctx context.Context, c Clock, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	t := c.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C():
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
