package leakcheck

import (
	"fmt"
	"os"
	"os/exec"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// leakEnv makes the test binary leak a goroutine before VerifyTestMain
// checks, for TestVerifyTestMainFailsOnALeak.
const leakEnv = "LEAKCHECK_LEAK_IN_MAIN"

var block = make(chan struct{})

func TestMain(m *testing.M) {
	if os.Getenv(leakEnv) != "" {
		wait = 50 * time.Millisecond
		go func() { <-block }()
	}
	VerifyTestMain(m)
}

// recorder is a TB that keeps what Check reports.
type recorder struct{ errors []string }

func (r *recorder) Helper() {}

func (r *recorder) Errorf(format string, args ...any) {
	r.errors = append(r.errors, fmt.Sprintf(format, args...))
}

// shortWait makes a check give up quickly for the duration of t.
func shortWait(t *testing.T, d time.Duration) {
	old := wait
	wait = d
	t.Cleanup(func() { wait = old })
}

func leakUntil(stop chan struct{}) {
	<-stop
}

func TestCheckFailsOnALeakedGoroutine(t *testing.T) {
	shortWait(t, 50*time.Millisecond)
	stop := make(chan struct{})
	go leakUntil(stop)

	var r recorder
	Check(&r)
	require.Len(t, r.errors, 1)
	assert.Contains(t, r.errors[0], "1 goroutine(s) still running")
	assert.Contains(t, r.errors[0], "leakcheck.leakUntil")
	assert.Contains(t, r.errors[0], "created by github.com/llmtestserver/llmtestserver/internal/leakcheck.TestCheckFailsOnALeakedGoroutine")

	close(stop)
	var after recorder
	Check(&after)
	assert.Empty(t, after.errors, "the goroutine ended")
}

func TestCheckIgnoresASnapshot(t *testing.T) {
	shortWait(t, 50*time.Millisecond)
	stop := make(chan struct{})
	defer close(stop)
	go leakUntil(stop)
	before := Current()

	var r recorder
	Check(&r, before)
	assert.Empty(t, r.errors, "the goroutine ran before the snapshot")

	go leakUntil(stop)
	Check(&r, before)
	require.Len(t, r.errors, 1, "a goroutine started after the snapshot")
	assert.Contains(t, r.errors[0], "1 goroutine(s)")
}

func TestCheckWaitsForGoroutinesOnTheirWayOut(t *testing.T) {
	shortWait(t, 5*time.Second)
	go time.Sleep(100 * time.Millisecond)
	start := time.Now()
	var r recorder
	Check(&r)
	assert.Empty(t, r.errors)
	assert.Less(t, time.Since(start), 4*time.Second, "Check returns once the goroutine is gone")
}

func TestVerifyTestMainFailsOnALeak(t *testing.T) {
	if os.Getenv(leakEnv) != "" {
		t.Skip("the child run")
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestParse$")
	cmd.Env = append(os.Environ(), leakEnv+"=1")
	out, err := cmd.CombinedOutput()
	var exit *exec.ExitError
	require.ErrorAs(t, err, &exit, "output:\n%s", out)
	assert.Equal(t, 1, exit.ExitCode())
	assert.Contains(t, string(out), "leakcheck: 1 goroutine(s) still running")
	assert.Contains(t, string(out), "leakcheck.TestMain")
}

func TestParse(t *testing.T) {
	dump := `goroutine 7 [running]:
example.com/p.work(0xc000010000, 0x2)
	/src/p/p.go:10 +0x25
created by example.com/p.Start in goroutine 1
	/src/p/p.go:4 +0x3c

goroutine 1 [chan receive]:
testing.(*T).Run(0xc0000a4000, {0x5e2c1a, 0x4}, 0x5f1d30)
	/go/src/testing/testing.go:1751 +0x3ab
main.main()
	_testmain.go:45 +0x9b

goroutine 9 [select]:
example.com/p.(*Server).loop(...)
	/src/p/p.go:20
created by testing.tRunner in goroutine 7
	/go/src/testing/testing.go:1792 +0x2d`
	gs := parse(dump)
	require.Len(t, gs, 3)
	assert.Equal(t, goroutine{id: 7, top: "example.com/p.work", creator: "example.com/p.Start", stack: gs[0].stack}, gs[0])
	assert.Equal(t, uint64(1), gs[1].id)
	assert.Empty(t, gs[1].creator)
	assert.Equal(t, "example.com/p.(*Server).loop", gs[2].top)
	assert.Equal(t, "testing.tRunner", gs[2].creator)

	assert.False(t, background(gs[0]), "started by code under test")
	assert.True(t, background(gs[1]), "the main goroutine")
	assert.True(t, background(gs[2]), "started by testing")
}
