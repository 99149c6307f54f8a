package llmtest_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/llmtestserver/llmtestserver/journal"
	"github.com/llmtestserver/llmtestserver/llmtest"
	"github.com/llmtestserver/llmtestserver/session"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// failedSession opens a session for a fake test named name that has
// failed (or not), plays the agent against it and returns the fake, whose
// cleanups the caller runs, with the journal's entries before they run.
func failedSession(t *testing.T, srv *llmtest.Server, name string, failed bool, opts ...session.Option) (*reportTB, *session.Session, []journal.Entry) {
	t.Helper()
	fake := &reportTB{name: name, failed: failed}
	sess := srv.NewSession(fake, opts...)
	scriptAgent(sess, "Take an umbrella.")
	runAgent(t, sess)
	return fake, sess, sess.Journal().Entries()
}

// timesApart checks got's times against want's (a time read back from JSON
// has no monotonic reading, so it is compared with Equal) and returns both
// without their times, for require.Equal to compare the rest.
func timesApart(t *testing.T, want, got []journal.Entry) ([]journal.Entry, []journal.Entry) {
	t.Helper()
	require.Len(t, got, len(want))
	for i := range want {
		assert.True(t, want[i].Time.Equal(got[i].Time), "entry %d: time %v, want %v", i+1, got[i].Time, want[i].Time)
		assert.Equal(t, want[i].Duration, got[i].Duration, "entry %d: duration", i+1)
		assert.Equal(t, want[i].FirstByte, got[i].FirstByte, "entry %d: first byte", i+1)
	}
	return journal.WithoutTimes(want), journal.WithoutTimes(got)
}

// A failed test's session leaves its journal in the artifacts directory,
// under the test's name made a file name: a versioned header line, then
// one line per entry that decodes back into the journal's entries.
func TestArtifactsWrittenForFailedTest(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	srv := llmtest.NewServer(t, llmtest.WithArtifactsDir(dir))
	fake, sess, entries := failedSession(t, srv, "TestAgent/plans a trip", true)
	require.Len(t, entries, 6)
	fake.runCleanups()

	path := filepath.Join(dir, "TestAgent_plans_a_trip", sess.ID()+".jsonl")
	raw, err := os.ReadFile(path)
	require.NoError(t, err, "no artifact at %s", path)
	assert.Empty(t, fake.errors, "writing the artifact failed the test again")
	assert.Contains(t, fake.logged(), "journal (6 entries) written to "+path)

	lines := strings.Split(strings.TrimSuffix(string(raw), "\n"), "\n")
	require.Len(t, lines, 1+len(entries))
	var header map[string]any
	require.NoError(t, json.Unmarshal([]byte(lines[0]), &header))
	assert.Equal(t, map[string]any{"version": 1.0, "kind": "llmtest.journal",
		"test": "TestAgent/plans a trip", "session": sess.ID(), "evicted": 0.0}, header)
	var decoded []journal.Entry
	for _, line := range lines[1:] {
		var e journal.Entry
		require.NoError(t, json.Unmarshal([]byte(line), &e))
		decoded = append(decoded, e)
	}
	want, got := timesApart(t, entries, decoded)
	require.Equal(t, want, got)

	h, read, err := llmtest.ReadJournalArtifact(bytes.NewReader(raw))
	require.NoError(t, err)
	assert.Equal(t, llmtest.JournalArtifactHeader{Version: llmtest.JournalArtifactVersion,
		Kind: llmtest.JournalArtifactKind, Test: "TestAgent/plans a trip", Session: sess.ID()}, h)
	want, got = timesApart(t, entries, read)
	require.Equal(t, want, got)
}

// The header counts the entries the journal evicted before the first one
// in the file.
func TestArtifactsCountEvictedEntries(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	srv := llmtest.NewServer(t, llmtest.WithArtifactsDir(dir))
	fake, sess, entries := failedSession(t, srv, "TestEvicted", true, session.WithJournal(4, 1<<20))
	require.Len(t, entries, 4)
	fake.runCleanups()
	f, err := os.Open(filepath.Join(dir, "TestEvicted", sess.ID()+".jsonl"))
	require.NoError(t, err)
	defer f.Close()
	h, read, err := llmtest.ReadJournalArtifact(bufio.NewReader(f))
	require.NoError(t, err)
	assert.Equal(t, uint64(2), h.Evicted)
	require.Len(t, read, 4)
	assert.Equal(t, uint64(3), read[0].Seq)
}

// A passing test writes nothing, not even its directory.
func TestArtifactsNotWrittenForPassingTest(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	srv := llmtest.NewServer(t, llmtest.WithArtifactsDir(dir))
	fake, _, _ := failedSession(t, srv, "TestPasses", false)
	fake.runCleanups()
	require.False(t, fake.Failed())
	left, err := os.ReadDir(dir)
	require.NoError(t, err)
	assert.Empty(t, left)
	assert.Empty(t, fake.logged())
}

// A strict check that fails the test at the session's cleanup has the
// session's journal written too.
func TestArtifactsWrittenWhenStrictCheckFails(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	srv := llmtest.NewServer(t, llmtest.WithArtifactsDir(dir), llmtest.WithStrict())
	fake := &reportTB{name: "TestStrict"}
	sess := srv.NewSession(fake)
	sess.Chat("unused").Responds("never asked for")
	fake.runCleanups()
	require.True(t, fake.Failed())
	_, err := os.Stat(filepath.Join(dir, "TestStrict", sess.ID()+".jsonl"))
	assert.NoError(t, err)
}

// LLMTEST_ARTIFACTS_DIR names the directory when no option does; the
// option wins over it, and an empty one turns artifacts off.
func TestArtifactsDirFromEnvironment(t *testing.T) {
	envDir, optDir := t.TempDir(), t.TempDir()
	t.Setenv(llmtest.EnvArtifactsDir, envDir)

	fromEnv := llmtest.NewServer(t)
	fake, sess, _ := failedSession(t, fromEnv, "TestFromEnv", true)
	fake.runCleanups()
	_, err := os.Stat(filepath.Join(envDir, "TestFromEnv", sess.ID()+".jsonl"))
	assert.NoError(t, err)

	fromOption := llmtest.NewServer(t, llmtest.WithArtifactsDir(optDir))
	fake, sess, _ = failedSession(t, fromOption, "TestFromOption", true)
	fake.runCleanups()
	_, err = os.Stat(filepath.Join(optDir, "TestFromOption", sess.ID()+".jsonl"))
	assert.NoError(t, err)
	_, err = os.Stat(filepath.Join(envDir, "TestFromOption"))
	assert.ErrorIs(t, err, os.ErrNotExist, "the variable won over the option")

	off := llmtest.NewServer(t, llmtest.WithArtifactsDir(""))
	fake, _, _ = failedSession(t, off, "TestOff", true)
	fake.runCleanups()
	_, err = os.Stat(filepath.Join(envDir, "TestOff"))
	assert.ErrorIs(t, err, os.ErrNotExist, "WithArtifactsDir(\"\") wrote artifacts")

	// A relative directory is the test binary's working directory's at the
	// server's start, whatever the test does with it later.
	t.Chdir(t.TempDir())
	wd, err := os.Getwd()
	require.NoError(t, err)
	relative := llmtest.NewServer(t, llmtest.WithArtifactsDir("artifacts"))
	t.Chdir(t.TempDir())
	fake, sess, _ = failedSession(t, relative, "TestRelative", true)
	fake.runCleanups()
	_, err = os.Stat(filepath.Join(wd, "artifacts", "TestRelative", sess.ID()+".jsonl"))
	assert.NoError(t, err)
}

// A journal that cannot be written is logged; the test, failed already,
// is not failed again.
func TestArtifactsWriteErrorIsOnlyLogged(t *testing.T) {
	t.Parallel()
	notADir := filepath.Join(t.TempDir(), "file")
	require.NoError(t, os.WriteFile(notADir, nil, 0o644))
	srv := llmtest.NewServer(t, llmtest.WithArtifactsDir(notADir))
	fake, sess, _ := failedSession(t, srv, "TestUnwritable", true)
	fake.runCleanups()
	assert.Empty(t, fake.errors)
	assert.Contains(t, fake.logged(), "llmtest: session "+sess.ID()+": journal artifact not written:")
}

func TestWithArtifactsDirGivenTwice(t *testing.T) {
	t.Parallel()
	_, err := llmtest.New(llmtest.WithArtifactsDir("a"), llmtest.WithArtifactsDir("b"))
	require.ErrorContains(t, err, "WithArtifactsDir given twice")
}

// A test name becomes one path element that every file system takes.
func TestArtifactsDirectoryNames(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	srv := llmtest.NewServer(t, llmtest.WithArtifactsDir(dir))
	long := "TestLong/" + strings.Repeat("x", 300)
	for name, want := range map[string]string{
		"TestA/b:c*d?":                "TestA_b_c_d_",
		"../escape":                   "_.._escape",
		"TestÜnicode/ 1":              "Test__nicode__1",
		long:                          "TestLong_" + strings.Repeat("x", 128-17-len("TestLong_")),
		long[:len(long)-1] + "y":      "TestLong_" + strings.Repeat("x", 128-17-len("TestLong_")),
		"TestDotted.Name-1_ok/sub.2-": "TestDotted.Name-1_ok_sub.2-",
	} {
		fake, sess, _ := failedSession(t, srv, name, true)
		fake.runCleanups()
		matches, err := filepath.Glob(filepath.Join(dir, want+"*", sess.ID()+".jsonl"))
		require.NoError(t, err)
		require.Len(t, matches, 1, "%q: no artifact under %q", name, want)
		elem := filepath.Base(filepath.Dir(matches[0]))
		assert.LessOrEqual(t, len(elem), 128)
		f, err := os.Open(matches[0])
		require.NoError(t, err)
		h, _, err := llmtest.ReadJournalArtifact(f)
		f.Close()
		require.NoError(t, err)
		assert.Equal(t, name, h.Test)
	}
	// The two long names differ only past the cut: their hashes keep them
	// apart.
	dirs, err := filepath.Glob(filepath.Join(dir, "TestLong_*"))
	require.NoError(t, err)
	assert.Len(t, dirs, 2)
}

// ReadJournalArtifact refuses what is not a journal artifact of this
// version (journal.ReadArtifact's test has every case).
func TestReadJournalArtifactRefusesOtherFiles(t *testing.T) {
	t.Parallel()
	_, _, err := llmtest.ReadJournalArtifact(strings.NewReader(`{"version":2,"kind":"llmtest.journal"}` + "\n"))
	assert.Error(t, err)
}
