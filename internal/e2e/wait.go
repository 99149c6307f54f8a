package e2e

import (
	"testing"
	"time"
)

// Eventually polls cond until it holds, failing the test after 10 seconds.
// It observes server state that has no event to wait on, such as a reply
// being taken by a request that is still in flight.
func Eventually(t testing.TB, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting until %s", what)
		}
		time.Sleep(time.Millisecond)
	}
}
