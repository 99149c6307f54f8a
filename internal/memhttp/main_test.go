package memhttp_test

import (
	"testing"

	"github.com/llmtestserver/llmtestserver/internal/leakcheck"
)

// TestMain fails the package if a test leaves a handler or a timer's
// goroutine behind.
func TestMain(m *testing.M) {
	leakcheck.VerifyTestMain(m)
}
