package leakcheck

import (
	"fmt"
	"os"
	"strings"
	"testing"
	"time"
)

// TB is the part of testing.TB that Check reports through.
type TB interface {
	Helper()
	Errorf(format string, args ...any)
}

// Snapshot is a set of goroutines that a check ignores, taken with Current.
type Snapshot struct {
	ids map[uint64]bool
}

// Current returns the goroutines running now, so that a test which starts
// while other goroutines are still running checks only its own.
func Current() Snapshot {
	s := Snapshot{ids: map[uint64]bool{}}
	for _, g := range parse(dump(true)) {
		s.ids[g.id] = true
	}
	return s
}

// wait bounds how long a check waits for goroutines to end; a variable so
// that the package's own tests need not wait as long.
var wait = 5 * time.Second

// Check fails t if goroutines other than the runtime's, the testing
// package's, the caller's and those in ignore are still running once wait
// has passed; it returns as soon as none are. Call it deferred, at the end
// of a test.
func Check(t TB, ignore ...Snapshot) {
	t.Helper()
	if leaked := settle(ignore); len(leaked) > 0 {
		t.Errorf("%s", report(leaked))
	}
}

// VerifyTestMain runs m's tests and exits with their status; when they
// pass but leave goroutines behind, it prints those and exits with 1.
func VerifyTestMain(m *testing.M) {
	code := m.Run()
	if code == 0 {
		if leaked := settle(nil); len(leaked) > 0 {
			fmt.Fprintln(os.Stderr, report(leaked))
			code = 1
		}
	}
	os.Exit(code)
}

// settle polls until no goroutine has leaked or wait has passed, and
// returns the leaked ones of the last poll.
func settle(ignore []Snapshot) []goroutine {
	deadline := time.Now().Add(wait)
	pause := time.Millisecond
	for {
		leaked := leaks(ignore)
		if len(leaked) == 0 || time.Now().After(deadline) {
			return leaked
		}
		time.Sleep(pause)
		pause = min(2*pause, 100*time.Millisecond)
	}
}

// leaks returns the goroutines running now that count as leaked.
func leaks(ignore []Snapshot) []goroutine {
	self := currentID()
	var leaked []goroutine
next:
	for _, g := range parse(dump(true)) {
		if g.id == self || background(g) {
			continue
		}
		for _, s := range ignore {
			if s.ids[g.id] {
				continue next
			}
		}
		leaked = append(leaked, g)
	}
	return leaked
}

// background reports whether g belongs to the runtime, the standard
// library's own background work or the testing package, rather than to
// the code under test: the main goroutine, goroutines that run tests, and
// those started by the runtime, os/signal and unique.
func background(g goroutine) bool {
	if g.creator == "" {
		return true
	}
	for _, prefix := range []string{"testing.", "runtime.", "unique.", "os/signal.", "internal/"} {
		if strings.HasPrefix(g.creator, prefix) {
			return true
		}
	}
	return g.top == "os/signal.signal_recv" || g.top == "os/signal.loop"
}

// report names the leaked goroutines with their stacks.
func report(leaked []goroutine) string {
	var b strings.Builder
	fmt.Fprintf(&b, "leakcheck: %d goroutine(s) still running after %v:", len(leaked), wait)
	for _, g := range leaked {
		b.WriteString("\n\n")
		b.WriteString(g.stack)
	}
	return b.String()
}
