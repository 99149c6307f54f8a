package clock

import (
	"context"
	"slices"
	"sync"
	"time"
)

// Fake is a clock that moves only when told to: Advance and Set move it
// forward and fire the timers that fall due, in order. Its zero value is
// not usable; make one with NewFake.
type Fake struct {
	mu     sync.Mutex
	now    time.Time    // guarded by mu
	timers []*fakeTimer // guarded by mu; pending, in no order
	// added is closed and replaced whenever a timer is made, so that
	// WaitForTimers can wait without polling; guarded by mu.
	added chan struct{}
}

// NewFake returns a fake clock that reads start until it is moved.
func NewFake(start time.Time) *Fake {
	return &Fake{now: start, added: make(chan struct{})}
}

// Now returns the fake's current time.
func (f *Fake) Now() time.Time {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.now
}

// NewTimer returns a timer that fires when the fake reaches Now() + d.
func (f *Fake) NewTimer(d time.Duration) Timer {
	t := &fakeTimer{f: f, c: make(chan time.Time, 1)}
	f.mu.Lock()
	defer f.mu.Unlock()
	t.at = f.now.Add(d)
	if d <= 0 {
		t.c <- f.now
		return t
	}
	f.timers = append(f.timers, t)
	close(f.added)
	f.added = make(chan struct{})
	return t
}

// Advance moves the fake forward by d and fires every timer due by then.
// A negative d is ignored: the fake never goes back.
func (f *Fake) Advance(d time.Duration) {
	if d > 0 {
		f.Set(f.Now().Add(d))
	}
}

// Set moves the fake forward to t and fires every timer due by then. A t
// before the fake's time is ignored.
func (f *Fake) Set(t time.Time) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if t.Before(f.now) {
		return
	}
	f.now = t
	due := slices.DeleteFunc(slices.Clone(f.timers), func(x *fakeTimer) bool { return x.at.After(t) })
	f.timers = slices.DeleteFunc(f.timers, func(x *fakeTimer) bool { return !x.at.After(t) })
	slices.SortStableFunc(due, func(a, b *fakeTimer) int { return a.at.Compare(b.at) })
	for _, x := range due {
		x.c <- x.at
	}
}

// Timers returns the number of timers waiting to fire: how many waits of
// the server (a delayed reply, a paced stream) are under way.
func (f *Fake) Timers() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.timers)
}

// WaitForTimers waits until at least n timers are waiting to fire, or ctx
// ends. A test calls it before Advance, so that the wait it means to cut
// short has begun: a request sent from another goroutine reaches its
// delay in its own time.
func (f *Fake) WaitForTimers(ctx context.Context, n int) error {
	for {
		f.mu.Lock()
		pending, added := len(f.timers), f.added
		f.mu.Unlock()
		if pending >= n {
			return nil
		}
		select {
		case <-added:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

// fakeTimer is a timer of a Fake.
type fakeTimer struct {
	f  *Fake
	at time.Time
	c  chan time.Time
}

func (t *fakeTimer) C() <-chan time.Time { return t.c }

func (t *fakeTimer) Stop() bool {
	t.f.mu.Lock()
	defer t.f.mu.Unlock()
	i := slices.Index(t.f.timers, t)
	if i < 0 {
		return false
	}
	t.f.timers = slices.Delete(t.f.timers, i, i+1)
	return true
}
