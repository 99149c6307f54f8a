package goopenai_test

import (
	"testing"

	"github.com/llmtestserver/llmtestserver/internal/leakcheck"
)

// TestMain fails the package if any test leaves a goroutine behind, as the
// llmtest package's TestMain does for the tests that stayed there.
func TestMain(m *testing.M) {
	leakcheck.VerifyTestMain(m)
}
