package journal_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/llmtestserver/llmtestserver/journal"
)

// An artifact written by WriteArtifactFile reads back as the same header
// and entries, the header first and one line per entry.
func TestArtifactRoundTrip(t *testing.T) {
	t.Parallel()
	j := journal.New(2, 1<<20)
	for _, text := range []string{"a", "b", "c"} {
		j.Record(journal.Entry{Method: "POST", Path: "/v1/chat/completions", UserText: text, Status: 200})
	}
	header := journal.NewArtifactHeader("sess_1", j.Evicted())
	path := filepath.Join(t.TempDir(), "nested", "sess_1.jsonl")
	require.NoError(t, journal.WriteArtifactFile(path, header, j.Entries()))

	raw, err := os.ReadFile(path)
	require.NoError(t, err)
	lines := strings.Split(strings.TrimSuffix(string(raw), "\n"), "\n")
	require.Len(t, lines, 3)
	assert.JSONEq(t, `{"version":1,"kind":"llmtest.journal","test":"","session":"sess_1","evicted":1}`, lines[0])

	h, entries, err := journal.ReadArtifact(bytes.NewReader(raw))
	require.NoError(t, err)
	assert.Equal(t, header, h)
	require.Len(t, entries, 2)
	assert.Equal(t, "b", entries[0].UserText)
	assert.Equal(t, uint64(3), entries[1].Seq)
}

// WriteArtifactFile replaces a file already there in one step, readable by
// all, and leaves nothing else in the directory: the file is written
// beside and renamed, so that a reader never sees half of it.
func TestArtifactFileAppearsWhole(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	path := filepath.Join(dir, "sess_1.jsonl")
	require.NoError(t, os.WriteFile(path, []byte("an older file\n"), 0o600))
	header := journal.NewArtifactHeader("sess_1", 0)
	require.NoError(t, journal.WriteArtifactFile(path, header, []journal.Entry{{Method: "POST", Status: 200}}))

	names, err := os.ReadDir(dir)
	require.NoError(t, err)
	require.Len(t, names, 1, "no file is left beside it")
	assert.Equal(t, "sess_1.jsonl", names[0].Name())
	info, err := os.Stat(path)
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o644), info.Mode().Perm())
	f, err := os.Open(path)
	require.NoError(t, err)
	defer f.Close()
	h, entries, err := journal.ReadArtifact(f)
	require.NoError(t, err)
	assert.Equal(t, header, h)
	assert.Len(t, entries, 1)

	// A directory in the way: the error, and no file left behind.
	blocked := filepath.Join(dir, "blocked.jsonl")
	require.NoError(t, os.Mkdir(blocked, 0o755))
	require.Error(t, journal.WriteArtifactFile(blocked, header, nil))
	names, err = os.ReadDir(dir)
	require.NoError(t, err)
	assert.Len(t, names, 2, "only the artifact and the directory")
}

// ReadArtifact refuses what is not a journal artifact of this version.
func TestReadArtifactRefusesOtherFiles(t *testing.T) {
	t.Parallel()
	for name, text := range map[string]string{
		"empty":         "",
		"other kind":    `{"version":1,"kind":"something.else"}` + "\n",
		"newer version": `{"version":2,"kind":"llmtest.journal"}` + "\n",
		"not JSON":      "#1 POST /v1/chat/completions\n",
		"bad entry":     `{"version":1,"kind":"llmtest.journal"}` + "\n{\n",
	} {
		_, _, err := journal.ReadArtifact(strings.NewReader(text))
		assert.Error(t, err, name)
	}
}

// An artifact writes <, > and & as they are, as every JSON the server
// writes, so that an export of a journal measures what the journal kept.
func TestArtifactLeavesHTMLCharactersAlone(t *testing.T) {
	var b bytes.Buffer
	require.NoError(t, journal.WriteArtifact(&b, journal.NewArtifactHeader("s", 0), []journal.Entry{{UserText: "<b>hi</b> & more"}}))
	assert.Contains(t, b.String(), "<b>hi</b> & more")
	assert.NotContains(t, b.String(), `\u003c`)
}
