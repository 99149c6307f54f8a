package main

import (
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/llmtestserver/llmtestserver/journal"
)

// waitForFile returns once path exists, failing the test if it does not
// within 30s (a generous bound: the point is that it comes at all).
func waitForFile(t *testing.T, path string) {
	t.Helper()
	for deadline := time.Now().Add(30 * time.Second); ; {
		if _, err := os.Stat(path); err == nil {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s was not written within 30s", path)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func listedIDs(t *testing.T, url, key string) []string {
	t.Helper()
	r := do(t, http.MethodGet, url+"/admin-api/sessions", bearer(key), "")
	require.Equal(t, http.StatusOK, r.status, string(r.body))
	var list struct{ Data []struct{ ID string } }
	require.NoError(t, json.Unmarshal(r.body, &list))
	var ids []string
	for _, s := range list.Data {
		ids = append(ids, s.ID)
	}
	return ids
}

// With -evict-idle and -artifacts-dir, an idle session is deleted after
// its journal is written as a journal artifact, while a session with a
// delayed reply in flight since before the idle one was created stays:
// every check that found the idle one idle found the busy one older, and
// skipped it. The busy request ends when the server shuts down. (The
// session package's tests drive eviction with a fake clock: a recent use
// keeps a session, and a busy one's reply completes.)
func TestRunEvictsIdleSessions(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	in := start(t, []string{"-evict-idle", "2s", "-artifacts-dir", dir, "-log", "json"}, nil, true)
	busy := createSession(t, in.url, in.key,
		`{"scenarios":[{"name":"slow","replies":[{"text":"too late","delay_ms":3600000}]}]}`)
	results := sendInFlight(t, in.url+"/v1/chat/completions", busy.header(), chatBody)
	idle := createSession(t, in.url, in.key, greetingConfig)
	r := do(t, http.MethodPost, in.url+"/v1/chat/completions", idle.header(), chatBody)
	require.Equal(t, http.StatusOK, r.status, string(r.body))

	path := filepath.Join(dir, idle.ID+".jsonl")
	waitForFile(t, path)
	f, err := os.Open(path)
	require.NoError(t, err)
	defer f.Close()
	header, entries, err := journal.ReadArtifact(f)
	require.NoError(t, err)
	assert.Equal(t, journal.NewArtifactHeader(idle.ID, 0), header)
	require.Len(t, entries, 1)
	assert.Equal(t, "Hello", entries[0].ReplyText)

	// The file is written before the session leaves the working set.
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		ids := listedIDs(t, in.url, in.key)
		if !assert.Contains(t, ids, busy.ID, "the busy session is never evicted") || !contains(ids, idle.ID) {
			break
		}
		require.False(t, time.Now().After(deadline), "the idle session is still listed after 30s")
	}
	r = do(t, http.MethodPost, in.url+"/v1/chat/completions", idle.header(), chatBody)
	assert.Equal(t, http.StatusNotFound, r.status)
	assert.Equal(t, "session_not_found", r.errorCode())
	select {
	case res := <-results:
		t.Fatalf("the busy request ended before shutdown: %+v", res)
	default:
	}

	in.stop(t)
	res := <-results
	require.NoError(t, res.err)
	assert.Equal(t, "llm_test_server_request_superseded", res.r.errorCode())
	assert.NoFileExists(t, filepath.Join(dir, busy.ID+".jsonl"), "shutdown deletes sessions, it does not evict them")

	var evicted []string
	for _, line := range strings.Split(strings.TrimSpace(in.logs.String()), "\n") {
		var rec struct{ Msg, Session, Journal string }
		require.NoError(t, json.Unmarshal([]byte(line), &rec), line)
		if rec.Msg == "idle session evicted" {
			evicted = append(evicted, rec.Session)
			assert.Equal(t, path, rec.Journal)
		}
	}
	assert.Equal(t, []string{idle.ID}, evicted)
}

func contains(ids []string, id string) bool {
	for _, x := range ids {
		if x == id {
			return true
		}
	}
	return false
}

// A journal that cannot be written is logged as a warning even without
// -log; the session is evicted all the same.
func TestRunEvictionReportsUnwritableJournals(t *testing.T) {
	t.Parallel()
	file := filepath.Join(t.TempDir(), "not-a-directory")
	require.NoError(t, os.WriteFile(file, nil, 0o600))
	in := start(t, []string{"-evict-idle", "100ms", "-artifacts-dir", file}, nil, true)
	sess := createSession(t, in.url, in.key, "{}")
	for deadline := time.Now().Add(30 * time.Second); contains(listedIDs(t, in.url, in.key), sess.ID); time.Sleep(20 * time.Millisecond) {
		require.False(t, time.Now().After(deadline), "the idle session is still listed after 30s")
	}
	in.stop(t)
	logs := in.logs.String()
	assert.Contains(t, logs, "level=WARN")
	assert.Contains(t, logs, "its journal was not written")
	assert.Contains(t, logs, "session="+sess.ID)
}

func TestEvictionInterval(t *testing.T) {
	t.Parallel()
	assert.Equal(t, 10*time.Millisecond, evictionInterval(time.Millisecond))
	assert.Equal(t, 15*time.Second, evictionInterval(time.Minute))
	assert.Equal(t, time.Minute, evictionInterval(time.Hour))
}

func TestArtifactPathStaysInItsDirectory(t *testing.T) {
	t.Parallel()
	assert.Equal(t, filepath.Join("dir", "sess_1-2.jsonl"), artifactPath("dir", "sess_1-2"))
	assert.Equal(t, filepath.Join("dir", "______etc_passwd.jsonl"), artifactPath("dir", "../../etc/passwd"))
}
