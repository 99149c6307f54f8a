package anthropicsdk_test

import (
	"testing"
	"testing/synctest"
	"time"

	"github.com/anthropics/anthropic-sdk-go/v2"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/llmtestserver/llmtestserver/llmtest"
	"github.com/llmtestserver/llmtestserver/scenario"
)

// The life of a batch inside a synctest bubble with the in-memory server:
// the polls sleep a second of the bubble's clock each, so the batch's
// seconds take no real time.
func TestBatchLifecycleInASynctestBubble(t *testing.T) {
	t.Parallel()
	realStart := time.Now()
	var virtual time.Duration
	synctest.Test(t, func(t *testing.T) {
		start := time.Now()
		sess := llmtest.NewServer(t, llmtest.WithInMemory()).NewSession(t)
		scriptLines(sess)
		checkLifecycle(t, sess, func() { time.Sleep(time.Second) })
		virtual = time.Since(start)
	})
	t.Logf("virtual time %v, real time %v", virtual, time.Since(realStart))
}

// A batch planned to run an hour, polled every minute of the bubble's
// clock as a client would (the docs poll every 60 s), cancelled half way
// through its run: the longest batch test, in virtual time.
func TestBatchHourLongPollAndCancelInABubble(t *testing.T) {
	t.Parallel()
	realStart := time.Now()
	var virtual time.Duration
	synctest.Test(t, func(t *testing.T) {
		start := time.Now()
		sess := llmtest.NewServer(t, llmtest.WithInMemory()).NewSession(t)
		sess.Chat("any").Responds("ok").Repeat()
		sess.Batches("hour").Reply(scenario.Job(scenario.JobPlan{Queued: time.Minute, Running: time.Hour, Steps: 2}))
		client := clientFor(sess, "k", 0)
		created, err := client.Messages.Batches.New(t.Context(), batchOf("a", "b", "c", "d"))
		require.NoError(t, err)
		time.Sleep(16 * time.Minute) // 15 minutes into the first half of the run
		cancelled, err := client.Messages.Batches.Cancel(t.Context(), created.ID, anthropic.MessageBatchCancelParams{})
		require.NoError(t, err)
		assert.Equal(t, anthropic.MessageBatchProcessingStatusCanceling, cancelled.ProcessingStatus)
		ended, seen := untilEnded(t, client, created.ID, func() { time.Sleep(time.Minute) })
		assert.Equal(t, anthropic.MessageBatchProcessingStatusCanceling, seen[0])
		assert.Equal(t, created.CreatedAt.Add(31*time.Minute), ended.EndedAt, "canceling until the first half ends")
		assert.Equal(t, int64(2), ended.RequestCounts.Succeeded, "the half under way completed")
		assert.Equal(t, int64(2), ended.RequestCounts.Canceled)
		virtual = time.Since(start)
	})
	real := time.Since(realStart)
	t.Logf("virtual time %v, real time %v", virtual, real)
	assert.Less(t, real, 10*time.Second)
}
