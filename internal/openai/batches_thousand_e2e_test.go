package openai_test

import (
	"encoding/json"
	"net/http"
	goruntime "runtime"
	"strings"
	"testing"
	"time"

	"github.com/openai/openai-go/v3"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/llmtestserver/llmtestserver/internal/e2e"
	"github.com/llmtestserver/llmtestserver/llmtest"
	"github.com/llmtestserver/llmtestserver/scenario"
	"github.com/llmtestserver/llmtestserver/session"
)

// thousandLines is an input file of 1,000 chat lines. They all say the
// same, so that they are one conversation of the session: what a batch
// keeps is then measured apart from the session's per-conversation
// state.
func thousandLines() string {
	texts := make([]string, 1000)
	for i := range texts {
		texts[i] = "Summarize the plot of a short story in one sentence."
	}
	return chatLines(texts...)
}

// thousandSession is a session for batches of 1,000 lines: a journal of
// two entries (the lines' entries would otherwise be what the heap
// keeps), room for n such batches with their input and output files, and
// batches that end as soon as they are made.
func thousandSession(t testing.TB, n int) (*llmtest.Server, *session.Session, openai.Client) {
	srv := llmtest.NewServer(t)
	sess := srv.NewSession(t, session.WithJournal(2, 64<<10), session.WithJobs(3*n+3, int64(n+1)<<21))
	sess.Chat("any").Responds("A traveller finds that the road home has moved overnight, and follows it.").Repeat()
	sess.Batches("at once").Reply(atOnce).Repeat()
	return srv, sess, e2e.ClientFor(sess, "k")
}

// chargedBytes is what the session's jobs of kind weigh against its
// bound, as the admin API lists them.
func chargedBytes(t testing.TB, srv *llmtest.Server, sess *session.Session, kind string) int64 {
	resp, err := sess.HTTPClient().Get(srv.URL() + "/admin-api/jobs?kind=" + kind)
	require.NoError(t, err)
	defer resp.Body.Close()
	require.Equal(t, http.StatusOK, resp.StatusCode)
	var list struct {
		Bytes int64 `json:"bytes"`
	}
	require.NoError(t, json.NewDecoder(resp.Body).Decode(&list))
	return list.Bytes
}

// thousandBatch uploads content and makes a batch of it, completed.
func thousandBatch(t testing.TB, client openai.Client, content string) *openai.Batch {
	b := newBatch(t, client, content, openai.BatchNewParamsEndpointV1ChatCompletions)
	if b.Status != openai.BatchStatusCompleted || b.RequestCounts.Completed != 1000 {
		t.Fatalf("batch %s: %s, %d completed", b.ID, b.Status, b.RequestCounts.Completed)
	}
	return b
}

// A batch of 1,000 lines is uploaded, created, ended and its output read
// back whole through the SDK; its time and allocations (client and
// server alike, in one process) per batch:
//
//	go test ./internal/openai -run '^$' -bench BatchOfAThousand -benchmem
func BenchmarkBatchOfAThousand(b *testing.B) {
	_, sess, client := thousandSession(b, 2)
	// The API deletes no batch: each is kept a millisecond once ended, so
	// that the loop's batches do not fill the session.
	sess.Batches("at once").Clear()
	sess.Batches("gone").Reply(scenario.Job(scenario.JobPlan{Queued: -1, Running: -1, Keep: time.Millisecond})).Repeat()
	content := thousandLines()
	b.ReportAllocs()
	for b.Loop() {
		created := thousandBatch(b, client, content)
		out, _ := fileLines(b, client, created.OutputFileID)
		if len(out) != 1000 {
			b.Fatalf("%d lines", len(out))
		}
		for _, id := range []string{created.InputFileID, created.OutputFileID} {
			if _, err := client.Files.Delete(b.Context(), id); err != nil {
				b.Fatal(err)
			}
		}
	}
	goruntime.KeepAlive(sess)
}

// What batches of 1,000 lines keep on the heap (the batch, its input
// file, its output file), against what the jobs' bound charges them: the
// charge must bound the heap, so that jobs.max_bytes bounds what a
// session's batches take.
func TestBatchOfAThousandRetainsWhatItIsCharged(t *testing.T) {
	if testing.Short() {
		t.Skip("heap measurement")
	}
	const n = 3
	srv, sess, client := thousandSession(t, n+2)
	content := thousandLines()
	// Warm up: the first batch's growth includes the server's and the
	// SDK's first buffers.
	thousandBatch(t, client, content)
	charged := func() int64 {
		return chargedBytes(t, srv, sess, "batch") + chargedBytes(t, srv, sess, "file")
	}
	warm := charged()
	before := e2e.LiveHeap()
	start := time.Now()
	var last *openai.Batch
	for range n {
		last = thousandBatch(t, client, content)
	}
	elapsed := time.Since(start)
	grown := e2e.LiveHeap() - before
	goruntime.KeepAlive(sess)
	goruntime.KeepAlive(content) // the file the test sent, live before as after
	got := charged() - warm
	out, err := client.Files.Get(t.Context(), last.OutputFileID)
	require.NoError(t, err)
	t.Logf("%d batches of 1,000 lines (input %d B, output %d B each): created in %v (%v each); heap grew %d B (%d B per batch, %d B per line), charged %d B (%d B per batch)",
		n, len(content), out.Bytes, elapsed, elapsed/n, grown, grown/n, grown/n/1000, got, got/n)
	assert.LessOrEqual(t, grown, got, "the batches keep more than they are charged")
	assert.Greater(t, grown, got/2, "the charge is far above what the batches keep")
	assert.True(t, strings.HasPrefix(last.ID, "batch_"))
}
