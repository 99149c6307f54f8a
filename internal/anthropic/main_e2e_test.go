package anthropic_test

import (
	"testing"

	"github.com/llmtestserver/llmtestserver/internal/leakcheck"
)

// TestMain fails the package if a test leaves a goroutine behind: servers,
// sessions and streams must all be gone once closed. It is the one TestMain
// of this test binary, for the codec's internal tests (package anthropic)
// and for its raw-HTTP tests through llmtest (package anthropic_test) alike.
func TestMain(m *testing.M) { leakcheck.VerifyTestMain(m) }
