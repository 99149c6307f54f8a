package openai_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/openai/openai-go/v3"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/llmtestserver/llmtestserver/internal/e2e"
	"github.com/llmtestserver/llmtestserver/internal/sdkwarm"
	"github.com/llmtestserver/llmtestserver/llmtest"
	"github.com/llmtestserver/llmtestserver/scenario"
)

// warmBatches makes each files and batches call the bubble tests make
// outside any bubble, for the reason sdkwarm gives: the caches of
// openai-go's encoders and decoders of those types are then built here.
func warmBatches() error {
	sess, done, err := sdkwarm.Session()
	if err != nil {
		return err
	}
	defer done()
	sess.Batches("warm").Reply(scenario.Job(scenario.JobPlan{Queued: -1, Running: -1})).Repeat()
	sess.Chat("warm chat").Responds("warm").Repeat()
	client := e2e.ClientFor(sess, "k")
	ctx := context.Background()
	f, err := client.Files.New(ctx, openai.FileNewParams{File: openai.File(strings.NewReader(chatLines("warm")), "w.jsonl", "application/jsonl"),
		Purpose: openai.FilePurposeBatch, ExpiresAfter: openai.FileNewParamsExpiresAfter{Seconds: 3600}})
	if err != nil {
		return fmt.Errorf("warm: file: %w", err)
	}
	b, err := client.Batches.New(ctx, openai.BatchNewParams{InputFileID: f.ID, Endpoint: openai.BatchNewParamsEndpointV1ChatCompletions,
		CompletionWindow: openai.BatchNewParamsCompletionWindow24h, Metadata: map[string]string{"k": "v"},
		OutputExpiresAfter: openai.BatchNewParamsOutputExpiresAfter{Seconds: 3600}})
	if err != nil {
		return fmt.Errorf("warm: batch: %w", err)
	}
	if _, err := client.Batches.Get(ctx, b.ID); err != nil {
		return fmt.Errorf("warm: batch get: %w", err)
	}
	if _, err := client.Batches.Cancel(ctx, b.ID); err == nil {
		return errors.New("warm: a completed batch was cancelled")
	}
	if b.OutputFileID == "" {
		return fmt.Errorf("warm: no output: %s", b.RawJSON())
	}
	resp, err := client.Files.Content(ctx, b.OutputFileID)
	if err != nil {
		return fmt.Errorf("warm: content: %w", err)
	}
	_, err = io.Copy(io.Discard, resp.Body)
	if err = errors.Join(err, resp.Body.Close()); err != nil {
		return fmt.Errorf("warm: content: %w", err)
	}
	batches := client.Batches.ListAutoPaging(ctx, openai.BatchListParams{Limit: openai.Int(1)})
	for batches.Next() {
	}
	files := client.Files.ListAutoPaging(ctx, openai.FileListParams{Limit: openai.Int(1), Purpose: openai.String("batch")})
	for files.Next() {
	}
	if err := errors.Join(batches.Err(), files.Err()); err != nil {
		return fmt.Errorf("warm: lists: %w", err)
	}
	if _, err := client.Files.Get(ctx, f.ID); err != nil {
		return fmt.Errorf("warm: file get: %w", err)
	}
	if _, err := client.Files.Delete(ctx, f.ID); err != nil {
		return fmt.Errorf("warm: file delete: %w", err)
	}
	return nil
}

// untilEnded polls the batch id, calling wait between polls, until it
// has ended, and returns it with the statuses the polls saw.
func untilEnded(t testing.TB, client openai.Client, id string, wait func()) (*openai.Batch, []openai.BatchStatus) {
	var seen []openai.BatchStatus
	for range 10_000 {
		b := getBatch(t, client, id)
		if len(seen) == 0 || seen[len(seen)-1] != b.Status {
			seen = append(seen, b.Status)
		}
		switch b.Status {
		case openai.BatchStatusCompleted, openai.BatchStatusFailed, openai.BatchStatusExpired, openai.BatchStatusCancelled:
			return b, seen
		}
		wait()
	}
	t.Fatalf("batch %s did not end", id)
	return nil, nil
}

// The life of a batch inside a synctest bubble with the in-memory
// server: upload, create, poll a second of the bubble's clock apart
// through every status to completed, download the output. Not parallel:
// its warm-up runs before the package's other tests use the batch types
// inside a bubble (see warmBatches).
func TestBatchLifecycleInASynctestBubble(t *testing.T) {
	require.NoError(t, warmBatches())
	realStart := time.Now()
	var virtual time.Duration
	synctest.Test(t, func(t *testing.T) {
		start := time.Now()
		sess := llmtest.NewServer(t, llmtest.WithInMemory()).NewSession(t)
		sess.Chat("any").Responds("ok").Repeat()
		client := e2e.ClientFor(sess, "k")
		created := newBatch(t, client, chatLines("a", "b", "c"), openai.BatchNewParamsEndpointV1ChatCompletions)
		b, seen := untilEnded(t, client, created.ID, func() { time.Sleep(time.Second) })
		virtual = time.Since(start)
		assert.Equal(t, []openai.BatchStatus{openai.BatchStatusValidating, openai.BatchStatusInProgress,
			openai.BatchStatusFinalizing, openai.BatchStatusCompleted}, seen)
		assert.Equal(t, 5*time.Second, virtual, "the default plan")
		out, _ := fileLines(t, client, b.OutputFileID)
		assert.Len(t, out, 3)
	})
	t.Logf("virtual time %v, real time %v", virtual, time.Since(realStart))
}

// A batch planned to validate ten minutes and run twenty hours, polled
// every minute of the bubble's clock as a client would, cancelled half
// way through its run, and read: the longest batch test, in virtual time.
func TestBatchTwentyHoursInASynctestBubble(t *testing.T) {
	require.NoError(t, warmBatches())
	realStart := time.Now()
	var virtual time.Duration
	synctest.Test(t, func(t *testing.T) {
		start := time.Now()
		sess := llmtest.NewServer(t, llmtest.WithInMemory()).NewSession(t)
		sess.Batches("long").Reply(scenario.Job(scenario.JobPlan{Queued: 10 * time.Minute, Running: 20 * time.Hour, Steps: 11}))
		sess.Chat("any").Responds("ok").Repeat()
		client := e2e.ClientFor(sess, "k")
		texts := make([]string, 20)
		for i := range texts {
			texts[i] = "line"
		}
		created := newBatch(t, client, chatLines(texts...), openai.BatchNewParamsEndpointV1ChatCompletions)
		time.Sleep(10*time.Hour + 10*time.Minute)
		_, err := client.Batches.Cancel(t.Context(), created.ID)
		require.NoError(t, err)
		b, seen := untilEnded(t, client, created.ID, func() { time.Sleep(time.Minute) })
		virtual = time.Since(start)
		assert.Equal(t, []openai.BatchStatus{openai.BatchStatusCancelling, openai.BatchStatusCancelled}, seen)
		// Eleven steps of 1 h 49 min: the first ten do the lines, two a
		// step; the cancel, in the sixth, waits for its end: 12 of 20.
		assert.Equal(t, int64(12), b.RequestCounts.Completed)
		out, _ := fileLines(t, client, b.OutputFileID)
		assert.Len(t, out, 12)
		assert.Len(t, cancelledIDs(t, client, b), 8)
	})
	real := time.Since(realStart)
	t.Logf("virtual time %v, real time %v", virtual, real)
	assert.Less(t, real, 10*time.Second)
}
