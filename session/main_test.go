package session_test

import (
	"testing"

	"github.com/llmtestserver/llmtestserver/internal/leakcheck"
)

// TestMain fails the package if a test leaves a goroutine behind: the
// examples start servers and sessions, which must all be gone once closed.
func TestMain(m *testing.M) { leakcheck.VerifyTestMain(m) }
