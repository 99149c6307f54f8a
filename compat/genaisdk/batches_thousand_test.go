package genaisdk_test

import (
	"encoding/json"
	"net/http"
	goruntime "runtime"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"google.golang.org/genai"

	"github.com/llmtestserver/llmtestserver/internal/e2e"
	"github.com/llmtestserver/llmtestserver/llmtest"
	"github.com/llmtestserver/llmtestserver/scenario"
	"github.com/llmtestserver/llmtestserver/session"
)

// The life of a batch inside a synctest bubble with the in-memory server:
// the polls sleep a second of the bubble's clock.
func TestBatchLifecycleInASynctestBubble(t *testing.T) {
	t.Parallel()
	realStart := time.Now()
	var virtual time.Duration
	synctest.Test(t, func(t *testing.T) {
		start := time.Now()
		sess := llmtest.NewServer(t, llmtest.WithInMemory()).NewSession(t)
		scriptBatchLines(sess)
		checkBatchLifecycle(t, sess, betaClient(t, sess), func() { time.Sleep(time.Second) })
		virtual = time.Since(start)
	})
	t.Logf("virtual time %v, real time %v", virtual, time.Since(realStart))
}

// thousandBatch is 1,000 inlined requests that say the same.
func thousandBatch() *genai.BatchJobSource {
	texts := make([]string, 1000)
	for i := range texts {
		texts[i] = "Summarize the plot of a short story in one sentence."
	}
	return inlined(texts...)
}

// thousandSession is a session for batches of 1,000 that end at once.
func thousandSession(t *testing.T, n int) (*llmtest.Server, *session.Session, *genai.Client) {
	srv := llmtest.NewServer(t)
	sess := srv.NewSession(t, session.WithJournal(2, 64<<10), session.WithJobs(n+1, int64(n+1)<<20))
	sess.Chat("any").Responds("A traveller finds that the road home has moved overnight, and follows it.").Repeat()
	sess.Batches("at once").Reply(scenario.Job(scenario.JobPlan{Queued: -1, Running: -1})).Repeat()
	return srv, sess, betaClient(t, sess)
}

// chargedBytes is what the session's Gemini batches weigh.
func chargedBytes(t testing.TB, srv *llmtest.Server, sess *session.Session) int64 {
	resp, err := sess.HTTPClient().Get(srv.URL() + "/admin-api/jobs?kind=gemini_batch")
	require.NoError(t, err)
	defer resp.Body.Close()
	require.Equal(t, http.StatusOK, resp.StatusCode)
	var list struct {
		Bytes int64 `json:"bytes"`
	}
	require.NoError(t, json.NewDecoder(resp.Body).Decode(&list))
	return list.Bytes
}

// Batches of 1,000 inlined requests keep on the heap no more than they
// are charged, and read back whole through genai.
func TestBatchOfAThousandRetainsWhatItIsCharged(t *testing.T) {
	if testing.Short() {
		t.Skip("heap measurement")
	}
	const n = 3
	srv, sess, c := thousandSession(t, n+2)
	src := thousandBatch()
	first, err := c.Batches.Create(t.Context(), model, src, nil)
	require.NoError(t, err)
	got, err := c.Batches.Get(t.Context(), first.Name, nil)
	require.NoError(t, err)
	require.Len(t, got.Dest.InlinedResponses, 1000)
	assert.Equal(t, "k999", got.Dest.InlinedResponses[999].Metadata["key"])
	warm := chargedBytes(t, srv, sess)
	before := e2e.LiveHeap()
	start := time.Now()
	for range n {
		_, err := c.Batches.Create(t.Context(), model, src, nil)
		require.NoError(t, err)
	}
	elapsed := time.Since(start)
	grown := e2e.LiveHeap() - before
	goruntime.KeepAlive(sess)
	goruntime.KeepAlive(src)
	charged := chargedBytes(t, srv, sess) - warm
	t.Logf("%d batches of 1,000 requests: created in %v (%v each); heap grew %d B (%d B per batch, %d B per request), charged %d B (%d B per batch)",
		n, elapsed, elapsed/n, grown, grown/n, grown/n/1000, charged, charged/n)
	assert.LessOrEqual(t, grown, charged, "the batches keep more than they are charged")
	assert.Greater(t, grown, charged/2, "the charge is far above what the batches keep")
}
