package main

import (
	"context"
	"log/slog"
	"path/filepath"
	"strings"
	"time"

	"github.com/llmtestserver/llmtestserver/journal"
	"github.com/llmtestserver/llmtestserver/session"
)

// evictionInterval returns how often sessions are checked for idleness
// with -evict-idle idle: a quarter of it, so that a session goes at most a
// quarter late, between 10ms and a minute.
func evictionInterval(idle time.Duration) time.Duration {
	return min(max(idle/4, 10*time.Millisecond), time.Minute)
}

// startEviction evicts the sessions of m idle longer than s.evictIdle, on
// a ticker, until ctx ends; the returned channel is closed once the loop
// has returned. With s.artifactsDir set, each session's journal is written
// there first (see exportJournal). Evictions are logged to log at info
// level, journals that could not be written at warning level. Nothing
// runs when eviction is off.
func startEviction(ctx context.Context, m *session.Manager, s settings, log *slog.Logger) <-chan struct{} {
	done := make(chan struct{})
	if s.evictIdle <= 0 {
		close(done)
		return done
	}
	var export func(session.Evicted) error
	if s.artifactsDir != "" {
		export = func(e session.Evicted) error { return exportJournal(s.artifactsDir, e) }
	}
	go func() {
		defer close(done)
		ticker := time.NewTicker(evictionInterval(s.evictIdle))
		defer ticker.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-ticker.C:
			}
			for _, e := range m.EvictIdle(s.evictIdle, export) {
				attrs := []any{"session", e.ID, "idle_since", e.IdleSince.UTC(), "requests", e.Journal.Len()}
				switch {
				case e.ExportErr != nil:
					log.Warn("idle session evicted; its journal was not written", append(attrs, "error", e.ExportErr)...)
				case export != nil:
					log.Info("idle session evicted", append(attrs, "journal", artifactPath(s.artifactsDir, e.ID))...)
				default:
					log.Info("idle session evicted", attrs...)
				}
			}
		}
	}()
	return done
}

// exportJournal writes the journal of the evicted session e to dir, in the
// journal artifact format llmtest writes for LLMTEST_ARTIFACTS_DIR (see
// journal.ArtifactVersion), with no test name.
func exportJournal(dir string, e session.Evicted) error {
	return journal.WriteArtifactFile(artifactPath(dir, e.ID),
		journal.NewArtifactHeader(e.ID, e.Journal.Evicted()), e.Journal.Entries())
}

// artifactPath is where the journal of session id goes in dir:
// <dir>/<id>.jsonl. An ID is "sess_" and a UUID; anything else than
// letters, digits, '-' and '_' would become '_', so that the file stays in
// dir whatever the ID.
func artifactPath(dir, id string) string {
	safe := strings.Map(func(r rune) rune {
		switch {
		case 'a' <= r && r <= 'z', 'A' <= r && r <= 'Z', '0' <= r && r <= '9', r == '-', r == '_':
			return r
		}
		return '_'
	}, id)
	return filepath.Join(dir, safe+".jsonl")
}
