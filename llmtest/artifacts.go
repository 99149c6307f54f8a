package llmtest

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/llmtestserver/llmtestserver/journal"
	"github.com/llmtestserver/llmtestserver/session"
)

// EnvArtifactsDir is the environment variable that names the directory
// where the journals of a failed test's sessions are written, for a CI job
// to keep as artifacts (see WithArtifactsDir, which wins over it):
//
//	LLMTEST_ARTIFACTS_DIR=$PWD/llmtest-artifacts go test ./...
//
// A relative directory is taken from the working directory of the test
// binary, which go test sets to each package's own directory: give an
// absolute one to collect every package's artifacts in one place.
const EnvArtifactsDir = "LLMTEST_ARTIFACTS_DIR"

// JournalArtifactVersion is the version of the journal artifact format,
// the header's "version". A file of this version is JSON Lines: a header
// (JournalArtifactHeader), then one line per journal entry, oldest first,
// each in journal.Entry's JSON (the form GET /admin-api/journal serves).
// Fields may be added to either kind of line within a version; a change
// that renames, removes or redefines one gets a new version. The format is
// the journal package's (journal.ArtifactVersion), which the standalone
// server also writes for the sessions it evicts.
const JournalArtifactVersion = journal.ArtifactVersion

// JournalArtifactKind is the header's "kind", which tells a journal
// artifact apart from other JSON Lines files a CI job keeps.
const JournalArtifactKind = journal.ArtifactKind

// JournalArtifactHeader is the first line of a journal artifact.
type JournalArtifactHeader = journal.ArtifactHeader

// writeArtifacts writes the journal of sess to the server's artifacts
// directory when t has failed, as <dir>/<test name>/<session ID>.jsonl,
// with the test name and the ID made safe as file names. Nothing is
// written for a passing test or without a directory. A write that fails
// is logged: the test has failed already, and failing it again for its
// artifacts would hide why it did.
func (s *Server) writeArtifacts(t TB, sess *session.Session) {
	t.Helper()
	if s.artifactsDir == "" || !t.Failed() {
		return
	}
	entries := sess.Journal().Entries()
	header := journal.NewArtifactHeader(sess.ID(), sess.Journal().Evicted())
	header.Test = t.Name()
	path := filepath.Join(s.artifactsDir, safeFileName(t.Name()), safeFileName(sess.ID())+".jsonl")
	if err := journal.WriteArtifactFile(path, header, entries); err != nil {
		t.Logf("llmtest: session %s: journal artifact not written: %v", sess.ID(), err)
		return
	}
	t.Logf("llmtest: session %s: journal (%d entries) written to %s", sess.ID(), len(entries), path)
}

// ReadJournalArtifact decodes a journal artifact, such as a CI job kept
// from a failed test: its header and its entries, oldest first. It refuses
// a file of another kind or of a version it does not know.
func ReadJournalArtifact(r io.Reader) (JournalArtifactHeader, []journal.Entry, error) {
	h, entries, err := journal.ReadArtifact(r)
	if err != nil {
		err = fmt.Errorf("llmtest: %w", err)
	}
	return h, entries, err
}

// maxFileNameBytes bounds the names safeFileName makes, well under the
// 255 bytes file systems allow.
const maxFileNameBytes = 128

// safeFileName turns name, a test name or a session ID, into one path
// element that every file system takes: letters, digits, '-', '_' and '.'
// are kept and every other byte, the '/' of a subtest included, becomes
// '_'; a name starting with '.' gets a '_' in front, so that none is "." or
// ".." or hidden. A longer name keeps its start and ends with a hash of the
// whole, so that two long names stay apart.
func safeFileName(name string) string {
	var b strings.Builder
	if name == "" || name[0] == '.' {
		b.WriteByte('_')
	}
	for i := 0; i < len(name); i++ {
		c := name[i]
		switch {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9', c == '-', c == '_', c == '.':
			b.WriteByte(c)
		default:
			b.WriteByte('_')
		}
	}
	out := b.String()
	if len(out) > maxFileNameBytes {
		sum := sha256.Sum256([]byte(name))
		out = out[:maxFileNameBytes-17] + "-" + hex.EncodeToString(sum[:8])
	}
	return out
}
