package scenario_test

import (
	"path/filepath"
	"runtime"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/llmtestserver/llmtestserver/scenario"
)

// lineAbove returns "file:line" of the line above its caller's, as the
// builder records call sites.
func lineAbove() string {
	_, file, line, _ := runtime.Caller(1)
	return filepath.Base(file) + ":" + strconv.Itoa(line-1)
}

// scriptThrough is a test helper between the test and the builder: the
// call site is still the helper's line, the first outside the module's
// non-test code (a test file's helper is the user's code).
func scriptThrough(b *scenario.Builder) string {
	b.Responds("via helper")
	return lineAbove()
}

// Every builder method that queues replies records the test's line, not
// the builder's, however many builder methods it goes through.
func TestBuilderRecordsTheTestLine(t *testing.T) {
	var rec recorder
	b := newBuilder(&rec, "s", scenario.Match{})
	var want []string
	b.Responds("a")
	want = append(want, lineAbove())
	b.Then("b")
	want = append(want, lineAbove())
	b.RespondsAfter(0, "c")
	want = append(want, lineAbove())
	b.RespondsJSON(map[string]int{"n": 1})
	want = append(want, lineAbove())
	b.CallsTool("f", `{}`)
	want = append(want, lineAbove())
	b.ThinksThenResponds("hm", "d")
	want = append(want, lineAbove())
	b.Refuses("no")
	want = append(want, lineAbove())
	b.Fails(500, "boom", "it broke")
	want = append(want, lineAbove())
	b.Drops()
	want = append(want, lineAbove())
	b.Hangs()
	want = append(want, lineAbove())
	b.Reply(scenario.Text("e"), scenario.Text("f"))
	at := lineAbove()
	want = append(want, at, at)
	b.Times(2) // copies keep the site of the reply they copy
	want = append(want, at)
	want = append(want, scriptThrough(b))
	require.Len(t, rec.replies, len(want))
	for i, w := range want {
		assert.Equal(t, w, rec.replies[i].ScriptedAt, "reply %d (%+v)", i, rec.replies[i])
	}
}
