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
