package llmtest

import (
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/llmtestserver/llmtestserver/session"
)

// EnvUpdate is the environment variable that, set to 1, makes CheckGolden
// rewrite its golden files, as the -llmtest.update flag does. Unlike the
// flag it reaches every package of a run, including those whose test
// binaries do not import llmtest and would reject the flag:
//
//	LLMTEST_UPDATE=1 go test ./...
const EnvUpdate = "LLMTEST_UPDATE"

// UpdateFlag is the name of the test flag that makes CheckGolden rewrite
// its golden files:
//
//	go test ./agent -run TestPlan -llmtest.update
//
// Its prefix keeps it apart from a package's own -update flag.
const UpdateFlag = "llmtest.update"

// update is the -llmtest.update flag. It is registered on the command
// line's flag set when the package loads, so that go test parses it with
// its own flags; it is only read, never set, by this package.
var update = flag.Bool(UpdateFlag, false, "rewrite the golden transcripts that llmtest.CheckGolden compares with")

// Updating reports whether golden files are to be rewritten rather than
// compared: the test binary runs with -llmtest.update, or the environment
// sets LLMTEST_UPDATE to a true value (1, t, true). A test that keeps golden
// files of its own can follow the same switch. An LLMTEST_UPDATE that is no
// boolean is an error, so that a misspelt value does not silently compare.
func Updating() (bool, error) {
	if *update {
		return true, nil
	}
	v := os.Getenv(EnvUpdate)
	if v == "" {
		return false, nil
	}
	on, err := strconv.ParseBool(v)
	if err != nil {
		return false, fmt.Errorf("llmtest: %s=%q: want 1 or 0", EnvUpdate, v)
	}
	return on, nil
}

// CheckGolden compares the session's transcript (Transcript) with the
// golden file at path, conventionally under the package's testdata
// directory, and fails t with the first line that differs, in both
// versions, followed by both transcripts whole. When the test runs with
// -llmtest.update or LLMTEST_UPDATE=1 it writes the transcript to path
// instead, creating its directories, and logs that it did. It reports
// whether the file holds the transcript.
//
// A transcript holds no timings, but the IDs the server generates differ
// between runs unless the session is created with session.WithIDSeed;
// golden sessions should be.
func CheckGolden(t TB, sess *session.Session, path string) bool {
	t.Helper()
	return checkGolden(t, "session "+sess.ID(), Transcript(sess), path)
}

// checkGolden compares got, the transcript of what, with the golden file
// at path, or rewrites it.
func checkGolden(t TB, what, got, path string) bool {
	t.Helper()
	updating, err := Updating()
	if err != nil {
		t.Errorf("%v", err)
		return false
	}
	if updating {
		if err := writeGolden(path, got); err != nil {
			t.Errorf("llmtest: %s: golden file not updated: %v", what, err)
			return false
		}
		t.Logf("llmtest: %s: wrote golden file %s (%d lines)", what, path, strings.Count(got, "\n"))
		return true
	}
	raw, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		t.Errorf("llmtest: %s: golden file %s does not exist; run the test with -%s or %s=1 to create it\ngot:\n%s",
			what, path, UpdateFlag, EnvUpdate, indent(got))
		return false
	}
	if err != nil {
		t.Errorf("llmtest: %s: %v", what, err)
		return false
	}
	// A checkout that turned line endings into CRLF, or an editor that
	// dropped the last newline, changes nothing that matters.
	want := strings.ReplaceAll(string(raw), "\r\n", "\n")
	if strings.TrimSuffix(want, "\n") == strings.TrimSuffix(got, "\n") {
		return true
	}
	t.Errorf("llmtest: %s: transcript differs from golden file %s\n%s"+
		"run the test with -%s or %s=1 to accept the new transcript\nwant (%s):\n%sgot:\n%s",
		what, path, firstDifference(want, got), UpdateFlag, EnvUpdate, path, indent(want), indent(got))
	return false
}

// writeGolden writes text to path, creating its directories.
func writeGolden(path, text string) error {
	if dir := filepath.Dir(path); dir != "." {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return err
		}
	}
	return os.WriteFile(path, []byte(text), 0o644)
}

// firstDifference describes the first line where want and got differ, in
// both versions, numbered from 1. The caller knows they differ.
func firstDifference(want, got string) string {
	w := strings.Split(strings.TrimSuffix(want, "\n"), "\n")
	g := strings.Split(strings.TrimSuffix(got, "\n"), "\n")
	i := 0
	for i < len(w) && i < len(g) && w[i] == g[i] {
		i++
	}
	line := func(lines []string, end string) string {
		if i < len(lines) {
			return lines[i]
		}
		return end
	}
	return fmt.Sprintf("first difference at line %d:\n\twant: %s\n\tgot:  %s\n",
		i+1, line(w, "(end of file)"), line(g, "(end of transcript)"))
}

// indent prefixes every line of text with a tab, so that a transcript
// stands apart from the message around it, and ends it with a newline.
func indent(text string) string {
	text = strings.TrimSuffix(text, "\n")
	if text == "" {
		return "\t(empty)\n"
	}
	return "\t" + strings.ReplaceAll(text, "\n", "\n\t") + "\n"
}
