// Package leakcheck fails tests that leave goroutines behind.
//
// It reads every goroutine's stack with runtime.Stack and reports those
// that are neither the runtime's nor the testing package's, retrying for a
// few seconds first so that goroutines which are already on their way out
// (a handler returning after its connection closed) are not reported. It
// replaces go.uber.org/goleak, so that the module needs no dependency for
// its own tests.
package leakcheck
