package llmtest_test

import (
	"fmt"
	"strings"
	"sync"
)

// reportTB is an llmtest.TB that records what is reported and logged
// instead of failing, runs its cleanups when the test says, and fails when
// told to (failed) or once something is reported.
type reportTB struct {
	name   string
	failed bool

	mu       sync.Mutex
	errors   []string
	logs     []string
	cleanups []func()
}

func (r *reportTB) Helper()      {}
func (r *reportTB) Name() string { return r.name }
func (r *reportTB) FailNow()     { r.Errorf("FailNow") }

func (r *reportTB) Cleanup(f func()) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.cleanups = append(r.cleanups, f)
}

func (r *reportTB) Errorf(format string, args ...any) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.errors = append(r.errors, fmt.Sprintf(format, args...))
}

func (r *reportTB) Fatalf(format string, args ...any) { r.Errorf(format, args...) }

func (r *reportTB) Logf(format string, args ...any) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.logs = append(r.logs, fmt.Sprintf(format, args...))
}

func (r *reportTB) Failed() bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.failed || len(r.errors) > 0
}

// runCleanups runs the registered cleanups, last first, as testing does.
func (r *reportTB) runCleanups() {
	r.mu.Lock()
	fs := r.cleanups
	r.cleanups = nil
	r.mu.Unlock()
	for i := len(fs) - 1; i >= 0; i-- {
		fs[i]()
	}
}

// reported returns the errors reported, joined by newlines.
func (r *reportTB) reported() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return strings.Join(r.errors, "\n")
}

// logged returns the lines logged, joined by newlines.
func (r *reportTB) logged() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return strings.Join(r.logs, "\n")
}
