package openai_test

import (
	"fmt"
	"os"
	"testing"

	"github.com/llmtestserver/llmtestserver/internal/leakcheck"
	"github.com/llmtestserver/llmtestserver/internal/sdkwarm"
)

// TestMain fails the package if a test leaves a goroutine behind: servers,
// sessions and streams must all be gone once closed. It is the one TestMain
// of this test binary, for the codec's internal tests (package openai) and
// for its fidelity tests through openai-go (package openai_test) alike.
//
// The job tests run openai-go inside testing/synctest bubbles as well as
// outside, so it first makes openai-go's first requests outside any
// bubble (see internal/sdkwarm).
func TestMain(m *testing.M) {
	if err := sdkwarm.OpenAIGo(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	leakcheck.VerifyTestMain(m)
}
