package memhttp

import "log"

// What this package's external tests need of a Transport, and nothing
// else does.

// SetErrorLog makes t log its handlers' panics to l instead of the log
// package's standard logger. Call it before t serves a request.
func SetErrorLog(t *Transport, l *log.Logger) { t.errorLog = l }

// InFlight returns the number of handlers running.
func (t *Transport) InFlight() int {
	t.mu.Lock()
	defer t.mu.Unlock()
	return len(t.active)
}
