package admin_test

import (
	"testing"

	"github.com/llmtestserver/llmtestserver/internal/leakcheck"
)

// TestMain fails the package if a test leaves a goroutine behind.
func TestMain(m *testing.M) { leakcheck.VerifyTestMain(m) }
