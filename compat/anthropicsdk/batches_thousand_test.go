package anthropicsdk_test

import (
	"encoding/json"
	"net/http"
	goruntime "runtime"
	"testing"
	"time"

	"github.com/anthropics/anthropic-sdk-go/v2"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/llmtestserver/llmtestserver/internal/e2e"
	"github.com/llmtestserver/llmtestserver/llmtest"
	"github.com/llmtestserver/llmtestserver/scenario"
	"github.com/llmtestserver/llmtestserver/session"
)

// thousand is a batch of 1,000 requests. They all say the same, so that
// they are one conversation of the session: what a batch keeps is then
// measured apart from the session's per-conversation state.
func thousand() anthropic.MessageBatchNewParams {
	texts := make([]string, 1000)
	for i := range texts {
		texts[i] = "Summarize the plot of a short story in one sentence."
	}
	return batchOf(texts...)
}

// thousandSession is a session for batches of 1,000: a journal of two
// entries (the lines' entries would otherwise be what the heap keeps),
// room for n such batches, and batches that end as soon as they are made.
func thousandSession(t testing.TB, n int) (*llmtest.Server, *session.Session, anthropic.Client) {
	srv := llmtest.NewServer(t)
	sess := srv.NewSession(t, session.WithJournal(2, 64<<10), session.WithJobs(n+1, int64(n+1)<<20))
	sess.Chat("any").Responds("A traveller finds that the road home has moved overnight, and follows it.").Repeat()
	sess.Batches("at once").Reply(scenario.Job(scenario.JobPlan{Queued: -1, Running: -1})).Repeat()
	return srv, sess, clientFor(sess, "k", 0)
}

// chargedBytes is what the session's batches weigh against its jobs'
// bound, as the admin API lists them.
func chargedBytes(t testing.TB, srv *llmtest.Server, sess *session.Session) int64 {
	resp, err := sess.HTTPClient().Get(srv.URL() + "/admin-api/jobs?kind=anthropic_batch")
	require.NoError(t, err)
	defer resp.Body.Close()
	require.Equal(t, http.StatusOK, resp.StatusCode)
	var list struct {
		Bytes int64 `json:"bytes"`
	}
	require.NoError(t, json.NewDecoder(resp.Body).Decode(&list))
	return list.Bytes
}

// A batch of 1,000 requests is created, ended and read back whole
// through the SDK; its time and allocations (client and server alike,
// in one process) per batch:
//
//	go test ./anthropicsdk -run '^$' -bench BatchOfAThousand -benchmem
func BenchmarkBatchOfAThousand(b *testing.B) {
	_, sess, client := thousandSession(b, 2)
	params := thousand()
	b.ReportAllocs()
	for b.Loop() {
		created, err := client.Messages.Batches.New(b.Context(), params)
		if err != nil {
			b.Fatal(err)
		}
		stream := client.Messages.Batches.ResultsStreaming(b.Context(), created.ID, anthropic.MessageBatchResultsParams{})
		n := 0
		for stream.Next() {
			n++
		}
		if err := stream.Err(); err != nil || n != 1000 {
			b.Fatalf("%d results: %v", n, err)
		}
		stream.Close()
		if _, err := client.Messages.Batches.Delete(b.Context(), created.ID, anthropic.MessageBatchDeleteParams{}); err != nil {
			b.Fatal(err)
		}
	}
	goruntime.KeepAlive(sess)
}

// What batches of 1,000 requests keep on the heap, against what the jobs'
// bound charges them: the charge must bound the heap, so that
// jobs.max_bytes bounds what a session's batches take.
func TestBatchOfAThousandRetainsWhatItIsCharged(t *testing.T) {
	if testing.Short() {
		t.Skip("heap measurement")
	}
	const n = 3
	srv, sess, client := thousandSession(t, n+2)
	params := thousand()
	// Warm up: the first batch's growth includes the server's and the
	// SDK's first buffers.
	_, err := client.Messages.Batches.New(t.Context(), params)
	require.NoError(t, err)
	warm := chargedBytes(t, srv, sess)
	before := e2e.LiveHeap()
	start := time.Now()
	for range n {
		_, err := client.Messages.Batches.New(t.Context(), params)
		require.NoError(t, err)
	}
	elapsed := time.Since(start)
	grown := e2e.LiveHeap() - before
	goruntime.KeepAlive(sess)
	goruntime.KeepAlive(params) // the requests the test sent, live before as after
	charged := chargedBytes(t, srv, sess) - warm
	t.Logf("%d batches of 1,000 requests: created in %v (%v each); heap grew %d B (%d B per batch, %d B per request), charged %d B (%d B per batch)",
		n, elapsed, elapsed/n, grown, grown/n, grown/n/1000, charged, charged/n)
	assert.LessOrEqual(t, grown, charged, "the batches keep more than they are charged")
	assert.Greater(t, grown, charged/2, "the charge is far above what the batches keep")
}
