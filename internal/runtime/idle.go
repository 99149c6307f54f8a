package runtime

import "time"

// RetireIfIdle retires the runtime, as Retire does, if no request is in
// flight and the last one ended before cutoff (on the runtime's clock), and
// reports whether it did, and when the last request ended (zero if none
// ever did). The check and the retirement are one critical
// section with Begin, so no request can start in between: a request that
// comes later is refused as after a deletion.
func (rt *Runtime) RetireIfIdle(cutoff time.Time) (lastEnd time.Time, retired bool) {
	rt.mu.Lock()
	defer rt.mu.Unlock()
	if rt.retired || len(rt.inflight) > 0 || !rt.lastEnd.Before(cutoff) {
		return rt.lastEnd, false
	}
	rt.retireLocked()
	return rt.lastEnd, true
}
