package llmtest_test

import (
	"testing"

	"go.uber.org/goleak"
)

// TestMain fails the package if any test leaves a goroutine behind: servers,
// sessions and streams must all be gone once closed.
func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m)
}
