package openai_test

import (
	"testing"

	"github.com/llmtestserver/llmtestserver/internal/leakcheck"
)

// TestMain fails the package if a test leaves a goroutine behind: servers,
// sessions and streams must all be gone once closed. It is the one TestMain
// of this test binary, for the codec's internal tests (package openai) and
// for its fidelity tests through openai-go (package openai_test) alike.
//
// None of these tests runs openai-go inside a testing/synctest bubble, so
// unlike llmtest's TestMain it needs no internal/sdkwarm.OpenAIGo first.
func TestMain(m *testing.M) { leakcheck.VerifyTestMain(m) }
