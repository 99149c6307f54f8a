package anthropicsdk_test

import (
	"testing"

	"github.com/llmtestserver/llmtestserver/internal/leakcheck"
)

// TestMain fails the package if any test leaves a goroutine behind, as the
// other packages of the compat module do.
func TestMain(m *testing.M) {
	leakcheck.VerifyTestMain(m)
}
