package memhttp

import "log"

// SetErrorLog makes t log its handlers' panics to l instead of the log
// package's standard logger, for this package's external tests. Call it
// before t serves a request.
func SetErrorLog(t *Transport, l *log.Logger) { t.errorLog = l }
