package llmtest_test

import (
	"fmt"
	"runtime"
	"strings"
	"testing"

	"github.com/llmtestserver/llmtestserver/llmtest"
)

// helperTB is a TB that records which functions marked themselves as
// helpers and what was reported, and runs its cleanups on demand.
type helperTB struct {
	helpers  []string // functions that called Helper, innermost caller
	errors   []string
	cleanups []func()
}

func (r *helperTB) Helper() {
	pc, _, _, _ := runtime.Caller(1)
	r.helpers = append(r.helpers, runtime.FuncForPC(pc).Name())
}
func (r *helperTB) Cleanup(f func()) { r.cleanups = append(r.cleanups, f) }
func (r *helperTB) Errorf(format string, a ...any) {
	r.errors = append(r.errors, fmt.Sprintf(format, a...))
}
func (r *helperTB) Fatalf(format string, a ...any) { panic(fmt.Sprintf(format, a...)) }
func (r *helperTB) FailNow()                       { panic("FailNow") }
func (r *helperTB) Name() string                   { return "TestHelperTB" }
func (r *helperTB) Logf(string, ...any)            {}
func (r *helperTB) Failed() bool                   { return len(r.errors) > 0 }
func (r *helperTB) runCleanups() {
	for i := len(r.cleanups) - 1; i >= 0; i-- {
		r.cleanups[i]()
	}
}

// The cleanup NewSession registers marks itself as a helper, so that a
// strict-mode failure points at the user's test instead of llmtest's code.
func TestNewSessionCleanupIsHelper(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t, llmtest.WithStrict())
	fake := &helperTB{}
	sess := srv.NewSession(fake)
	sess.Chat("unused").Responds("never asked for")
	fake.runCleanups()
	if len(fake.errors) == 0 {
		t.Fatal("strict cleanup reported nothing for an unused reply")
	}
	for _, h := range fake.helpers {
		if strings.Contains(h, "(*Server).closeAtCleanup.func") {
			return
		}
	}
	t.Errorf("helpers marked: %q; want the cleanup registered by NewSession among them", fake.helpers)
}
