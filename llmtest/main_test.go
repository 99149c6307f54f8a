package llmtest_test

import (
	"testing"

	"github.com/llmtestserver/llmtestserver/internal/leakcheck"
)

// TestMain fails the package if any test leaves a goroutine behind: servers,
// sessions and streams must all be gone once closed.
func TestMain(m *testing.M) {
	leakcheck.VerifyTestMain(m)
}
