package examples_test

import (
	"testing"

	"github.com/llmtestserver/llmtestserver/internal/leakcheck"
)

// TestMain fails the package if an example leaves a goroutine behind.
func TestMain(m *testing.M) {
	leakcheck.VerifyTestMain(m)
}
