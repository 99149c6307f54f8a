package memhttp

import (
	"sync"
	"time"
)

// deadline is a settable point in time with a channel that is closed once
// it has passed, as net.Conn deadlines are. The zero value has no deadline.
type deadline struct {
	mu      sync.Mutex
	timer   *time.Timer   // guarded by mu; fires at the deadline, if it is in the future
	expired chan struct{} // guarded by mu; closed once the deadline has passed
	onPass  func()        // called once each time the deadline passes, outside mu
}

// set moves the deadline to at; the zero time removes it. A time in the
// past expires it at once.
func (d *deadline) set(at time.Time) {
	d.mu.Lock()
	if d.timer != nil {
		d.timer.Stop()
		d.timer = nil
	}
	if d.expired == nil || isClosed(d.expired) {
		d.expired = make(chan struct{})
	}
	if at.IsZero() {
		d.mu.Unlock()
		return
	}
	wait := time.Until(at)
	if wait > 0 {
		ch := d.expired
		d.timer = time.AfterFunc(wait, func() { d.pass(ch) })
		d.mu.Unlock()
		return
	}
	ch := d.expired
	d.mu.Unlock()
	d.pass(ch)
}

// pass expires ch, if it is still the current channel.
func (d *deadline) pass(ch chan struct{}) {
	d.mu.Lock()
	if d.expired != ch || isClosed(ch) {
		d.mu.Unlock()
		return
	}
	close(ch)
	onPass := d.onPass
	d.mu.Unlock()
	if onPass != nil {
		onPass()
	}
}

// done returns a channel that is closed once the deadline has passed.
func (d *deadline) done() <-chan struct{} {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.expired == nil {
		d.expired = make(chan struct{})
	}
	return d.expired
}

// stop removes the deadline's timer, so that nothing fires after the
// request it belongs to has ended.
func (d *deadline) stop() {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.timer != nil {
		d.timer.Stop()
		d.timer = nil
	}
}

func isClosed(ch <-chan struct{}) bool {
	select {
	case <-ch:
		return true
	default:
		return false
	}
}
