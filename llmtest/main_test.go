package llmtest_test

import (
	"fmt"
	"os"
	"testing"

	"github.com/llmtestserver/llmtestserver/internal/leakcheck"
	"github.com/llmtestserver/llmtestserver/internal/sdkwarm"
)

// TestMain fails the package if any test leaves a goroutine behind: servers,
// sessions and streams must all be gone once closed.
//
// First it makes openai-go's first requests outside any synctest bubble, so
// that a bubble test and a test outside never build one of the SDK's cached
// JSON encoders together (see internal/sdkwarm).
func TestMain(m *testing.M) {
	if err := sdkwarm.OpenAIGo(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	leakcheck.VerifyTestMain(m)
}
