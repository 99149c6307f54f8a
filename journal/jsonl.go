package journal

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/llmtestserver/llmtestserver/internal/plainjson"
)

// ArtifactVersion is the version of the journal artifact format, the
// header's "version". A file of this version is JSON Lines: a header
// (ArtifactHeader), then one line per entry, oldest first, each in
// Entry's JSON (the form GET /admin-api/journal serves). Fields may be
// added to either kind of line within a version; a change that renames,
// removes or redefines one gets a new version.
//
// The format lives here, beside Entry, so that the failed tests of
// llmtest and the sessions the standalone server evicts write the same
// files, and one reader reads both.
const ArtifactVersion = 1

// ArtifactKind is the header's "kind", which tells a journal artifact
// apart from other JSON Lines files a CI job keeps.
const ArtifactKind = "llmtest.journal"

// ArtifactHeader is the first line of a journal artifact.
type ArtifactHeader struct {
	// Version is ArtifactVersion.
	Version int `json:"version"`
	// Kind is ArtifactKind.
	Kind string `json:"kind"`
	// Test is the name of the test that failed, as t.Name() gives it;
	// empty in the file of a session the standalone server evicted.
	Test string `json:"test"`
	// Session is the session's ID.
	Session string `json:"session"`
	// Evicted counts the entries the journal had dropped to respect its
	// bounds before the first one written: the file starts with request
	// Evicted+1.
	Evicted uint64 `json:"evicted"`
}

// NewArtifactHeader returns the header of the current version and kind for
// the journal of session, whose journal dropped evicted entries.
func NewArtifactHeader(session string, evicted uint64) ArtifactHeader {
	return ArtifactHeader{Version: ArtifactVersion, Kind: ArtifactKind, Session: session, Evicted: evicted}
}

// WriteArtifact writes header and entries to w as JSON Lines.
func WriteArtifact(w io.Writer, header ArtifactHeader, entries []Entry) error {
	bw := bufio.NewWriter(w)
	enc := plainjson.NewEncoder(bw) // one line per value
	err := enc.Encode(header)
	for i := 0; err == nil && i < len(entries); i++ {
		err = enc.Encode(entries[i])
	}
	if err != nil {
		return err
	}
	return bw.Flush()
}

// WriteArtifactFile writes header and entries to the file path, creating
// its directories and replacing a file already there. The file appears
// whole, readable by all (0644), or not at all.
func WriteArtifactFile(path string, header ArtifactHeader, entries []Entry) error {
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	// Written beside and renamed, so that the file appears whole: a reader
	// watching the directory (a CI step, a test waiting for an evicted
	// session's journal) never reads half of it.
	f, err := os.CreateTemp(dir, "."+filepath.Base(path)+".*")
	if err != nil {
		return err
	}
	err = errors.Join(WriteArtifact(f, header, entries), f.Chmod(0o644), f.Close())
	if err == nil {
		err = os.Rename(f.Name(), path)
	}
	if err != nil {
		os.Remove(f.Name())
	}
	return err
}

// ReadArtifact decodes a journal artifact: its header and its entries,
// oldest first. It refuses a file of another kind or of a version it does
// not know.
func ReadArtifact(r io.Reader) (ArtifactHeader, []Entry, error) {
	var header ArtifactHeader
	// A decoder, not a line scanner: it reads an entry of any size, where a
	// scanner's buffer bounds a line.
	dec := json.NewDecoder(r)
	if err := dec.Decode(&header); err != nil {
		if errors.Is(err, io.EOF) {
			return header, nil, errors.New("journal artifact: no header")
		}
		return header, nil, fmt.Errorf("journal artifact header: %w", err)
	}
	if header.Kind != ArtifactKind || header.Version != ArtifactVersion {
		return header, nil, fmt.Errorf("journal artifact: kind %q version %d, want kind %q version %d",
			header.Kind, header.Version, ArtifactKind, ArtifactVersion)
	}
	var entries []Entry
	for {
		var e Entry
		err := dec.Decode(&e)
		if errors.Is(err, io.EOF) {
			return header, entries, nil
		}
		if err != nil {
			return header, entries, fmt.Errorf("journal artifact entry %d: %w", len(entries)+1, err)
		}
		entries = append(entries, e)
	}
}
