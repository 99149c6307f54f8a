package llmtest_test

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/llmtestserver/llmtestserver/llmtest"
)

// envInnerStrict makes TestStrictFailurePointsAtTheTestLine run the test
// that fails, in the child process it starts.
const envInnerStrict = "LLMTEST_INNER_STRICT_TEST"

// here is the file:line of its caller.
func here() string {
	_, file, line, _ := runtime.Caller(1)
	return fmt.Sprintf("%s:%d", filepath.Base(file), line)
}

// The go tool, not a fake TB, decides which line a failure is reported at:
// this test runs a strict session with an unused reply in a child test
// process, and reads that the failure names the line that called
// NewSession (and Fork), not llmtest's own code.
func TestStrictFailurePointsAtTheTestLine(t *testing.T) {
	if os.Getenv(envInnerStrict) != "" {
		srv := llmtest.NewServer(t, llmtest.WithStrict())
		sess, at := srv.NewSession(t), here()
		sess.Chat("unused").Responds("never asked for")
		fork, forkAt := srv.Fork(t, sess), here()
		fork.Chat("spare").Responds("never either")
		fmt.Fprintf(os.Stderr, "lines: %s %s\n", at, forkAt)
		return
	}
	t.Parallel()
	cmd := exec.Command(os.Args[0], "-test.run=^TestStrictFailurePointsAtTheTestLine$", "-test.count=1")
	cmd.Env = append(os.Environ(), envInnerStrict+"=1")
	out, err := cmd.CombinedOutput()
	require.Error(t, err, "the child test must fail: %s", out)
	var at, forkAt string
	for line := range strings.Lines(string(out)) {
		if n, _ := fmt.Sscanf(line, "lines: %s %s", &at, &forkAt); n == 2 {
			break
		}
	}
	require.NotEmpty(t, forkAt, "the child printed no lines: %s", out)
	assert.Contains(t, string(out), at+": llmtest: session ", "the session's failure is reported at NewSession's line")
	assert.Contains(t, string(out), forkAt+": llmtest: session ", "the fork's failure is reported at Fork's line")
	assert.NotContains(t, string(out), "server.go:")
}
