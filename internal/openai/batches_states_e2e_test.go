package openai_test

import (
	"net/http"
	"testing"
	"time"

	"github.com/openai/openai-go/v3"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/llmtestserver/llmtestserver/clock"
	"github.com/llmtestserver/llmtestserver/internal/e2e"
	"github.com/llmtestserver/llmtestserver/scenario"
)

// timedPlan validates 2 s, then runs 8 s in 4 steps of 2 s: three lines
// are done one a step, and the last step is finalizing.
var timedPlan = scenario.Job(scenario.JobPlan{Queued: 2 * time.Second, Running: 8 * time.Second, Steps: 4})

// cancelAt makes a batch of three lines on timedPlan, cancels it after
// after, and returns the batch the cancel answered, with the client and
// clock.
func cancelAt(t *testing.T, after time.Duration) (*openai.Batch, openai.Client, *clock.Fake) {
	clk, _, sess, client := batchSession(t)
	sess.Batches("timed").Reply(timedPlan)
	answerOK(sess)
	created := newBatch(t, client, chatLines("a", "b", "c"), openai.BatchNewParamsEndpointV1ChatCompletions)
	clk.Advance(after)
	b, err := client.Batches.Cancel(t.Context(), created.ID)
	require.NoError(t, err)
	return b, client, clk
}

// cancelledIDs are the custom_ids of the error file's batch_cancelled
// lines.
func cancelledIDs(t *testing.T, client openai.Client, b *openai.Batch) []string {
	t.Helper()
	if b.ErrorFileID == "" {
		return nil
	}
	lines, order := fileLines(t, client, b.ErrorFileID)
	var ids []string
	for _, id := range order {
		if l := lines[id]; l.Error != nil && l.Error.Code == "batch_cancelled" {
			assert.Nil(t, l.Response)
			ids = append(ids, id)
		}
	}
	return ids
}

// A batch cancelled while validating is cancelling until its run would
// have started, then cancelled with no line done: no output file, every
// line batch_cancelled in the error file, no in_progress_at. A second
// cancel answers the batch as it stands.
func TestBatchCancelledWhileValidating(t *testing.T) {
	t.Parallel()
	b, client, clk := cancelAt(t, time.Second)
	assert.Equal(t, openai.BatchStatusCancelling, b.Status)
	assert.Equal(t, batchStart.Add(time.Second).Unix(), b.CancellingAt)
	assert.Zero(t, b.InProgressAt)
	again, err := client.Batches.Cancel(t.Context(), b.ID)
	require.NoError(t, err)
	assert.Equal(t, openai.BatchStatusCancelling, again.Status)
	assert.Equal(t, b.CancellingAt, again.CancellingAt)

	clk.Advance(time.Second)
	done := getBatch(t, client, b.ID)
	assert.Equal(t, openai.BatchStatusCancelled, done.Status)
	assert.Equal(t, batchStart.Add(2*time.Second).Unix(), done.CancelledAt)
	assert.Zero(t, done.InProgressAt)
	assert.Equal(t, int64(3), done.RequestCounts.Total)
	assert.Zero(t, done.RequestCounts.Completed)
	assert.Empty(t, done.OutputFileID)
	assert.ElementsMatch(t, []string{"req-0", "req-1", "req-2"}, cancelledIDs(t, client, done))
}

// A batch cancelled while in progress is cancelling until the step under
// way ends; the lines of the steps done and of that one keep their
// answers in the output file, the others are batch_cancelled.
func TestBatchCancelledWhileInProgress(t *testing.T) {
	t.Parallel()
	b, client, clk := cancelAt(t, 4500*time.Millisecond) // in the run's second step
	assert.Equal(t, openai.BatchStatusCancelling, b.Status)
	assert.Equal(t, int64(1), b.RequestCounts.Completed, "one line done at the cancel")
	assert.Equal(t, batchStart.Add(2*time.Second).Unix(), b.InProgressAt)
	assert.Empty(t, b.OutputFileID, "nothing written while cancelling")

	clk.Advance(time.Second) // 5.5 s: the step ends at 6 s
	assert.Equal(t, openai.BatchStatusCancelling, getBatch(t, client, b.ID).Status)
	clk.Advance(500 * time.Millisecond)
	done := getBatch(t, client, b.ID)
	require.Equal(t, openai.BatchStatusCancelled, done.Status)
	assert.Equal(t, batchStart.Add(6*time.Second).Unix(), done.CancelledAt)
	assert.Equal(t, int64(2), done.RequestCounts.Completed)
	out, _ := fileLines(t, client, done.OutputFileID)
	assert.Len(t, out, 2)
	assert.Contains(t, out, "req-0")
	assert.Contains(t, out, "req-1")
	assert.Equal(t, []string{"req-2"}, cancelledIDs(t, client, done))
	f, err := client.Files.Get(t.Context(), done.OutputFileID)
	require.NoError(t, err)
	assert.Equal(t, done.CancelledAt, f.CreatedAt)
}

// A batch cancelled while finalizing has every line done: it is
// cancelled at the run's end with all its answers and no error file.
func TestBatchCancelledWhileFinalizing(t *testing.T) {
	t.Parallel()
	b, client, clk := cancelAt(t, 9*time.Second)
	assert.Equal(t, openai.BatchStatusCancelling, b.Status)
	assert.Equal(t, batchStart.Add(8*time.Second).Unix(), b.FinalizingAt)
	clk.Advance(time.Second)
	done := getBatch(t, client, b.ID)
	require.Equal(t, openai.BatchStatusCancelled, done.Status)
	assert.Equal(t, int64(3), done.RequestCounts.Completed)
	assert.Empty(t, done.ErrorFileID)
	out, _ := fileLines(t, client, done.OutputFileID)
	assert.Len(t, out, 3)
	assert.Zero(t, done.CompletedAt)
}

// A batch that has ended is not cancelled: a 409, the batch unchanged.
func TestBatchCancelAfterTheEndIsRefused(t *testing.T) {
	t.Parallel()
	clk, _, sess, client := batchSession(t)
	sess.Batches("timed").Reply(timedPlan)
	answerOK(sess)
	b := newBatch(t, client, chatLines("a"), openai.BatchNewParamsEndpointV1ChatCompletions)
	clk.Advance(10 * time.Second)
	_, err := client.Batches.Cancel(t.Context(), b.ID)
	apiErr := e2e.OpenAIError(t, err)
	assert.Equal(t, http.StatusConflict, apiErr.StatusCode)
	assert.Contains(t, apiErr.Message, "completed")
	assert.Equal(t, openai.BatchStatusCompleted, getBatch(t, client, b.ID).Status)
	_, err = client.Batches.Cancel(t.Context(), "batch_unknown")
	assert.Equal(t, http.StatusNotFound, e2e.OpenAIError(t, err).StatusCode)
}

// A plan that expires runs in progress, then expires: no line was sent,
// each is batch_expired in the error file, expired_at is the plan's end.
// A plan past the completion window expires when the window ends.
func TestBatchPlansThatExpire(t *testing.T) {
	t.Parallel()
	clk, _, sess, client := batchSession(t)
	sess.Batches("expires").When(scenario.UserContains("exp-")).
		Reply(scenario.Job(scenario.JobPlan{Queued: -1, Running: time.Minute, Ends: scenario.JobExpired}))
	sess.Batches("long").Reply(scenario.Job(scenario.JobPlan{Queued: time.Hour, Running: 30 * time.Hour}))
	answerOK(sess)
	b := newBatch(t, client, jsonl(chatLine("exp-0", "a"), chatLine("exp-1", "b")), openai.BatchNewParamsEndpointV1ChatCompletions)
	assert.Equal(t, openai.BatchStatusInProgress, b.Status)
	long := newBatch(t, client, chatLines("a"), openai.BatchNewParamsEndpointV1ChatCompletions)
	clk.Advance(time.Minute)
	b = getBatch(t, client, b.ID)
	require.Equal(t, openai.BatchStatusExpired, b.Status)
	assert.Equal(t, batchStart.Add(time.Minute).Unix(), b.ExpiredAt)
	assert.Empty(t, b.OutputFileID)
	lines, _ := fileLines(t, client, b.ErrorFileID)
	require.Len(t, lines, 2)
	for _, l := range lines {
		assert.Equal(t, "batch_expired", l.Error.Code)
	}
	assert.Zero(t, b.RequestCounts.Completed+b.RequestCounts.Failed, "no line ran")

	clk.Advance(24*time.Hour - time.Minute)
	long = getBatch(t, client, long.ID)
	assert.Equal(t, openai.BatchStatusExpired, long.Status)
	assert.Equal(t, long.ExpiresAt, long.ExpiredAt, "at the end of its completion window")
	for _, e := range sess.Journal().Entries() {
		assert.NotEqual(t, "/v1/chat/completions", e.Path, "no line sent")
	}
}

// A plan of scenario.FailJob validates for the plan's time, then fails
// with the reply's error in errors; a batch scenario's error without a
// failed plan refuses the creation itself, in OpenAI's envelope, and
// sends no line.
func TestBatchPlansThatFail(t *testing.T) {
	t.Parallel()
	clk, _, sess, client := batchSession(t)
	sess.Batches("fails").Reply(scenario.FailJob(scenario.Error{Status: 400, Code: "token_limit_exceeded",
		Message: "Enqueued token limit reached for gpt-4.1-mini."}))
	sess.Batches("refused").Fails(http.StatusTooManyRequests, "rate_limit_exceeded", "Too many batches.")
	answerOK(sess)
	b := newBatch(t, client, chatLines("a"), openai.BatchNewParamsEndpointV1ChatCompletions)
	assert.Equal(t, openai.BatchStatusValidating, b.Status)
	clk.Advance(5 * time.Second) // the default plan's 1 s queued and 4 s running
	b = getBatch(t, client, b.ID)
	require.Equal(t, openai.BatchStatusFailed, b.Status)
	require.Len(t, b.Errors.Data, 1)
	assert.Equal(t, "token_limit_exceeded", b.Errors.Data[0].Code)
	assert.Equal(t, "Enqueued token limit reached for gpt-4.1-mini.", b.Errors.Data[0].Message)
	assert.Equal(t, b.CreatedAt+5, b.FailedAt)

	f := upload(t, client, chatLines("a"))
	_, err := client.Batches.New(t.Context(), openai.BatchNewParams{InputFileID: f.ID,
		Endpoint: openai.BatchNewParamsEndpointV1ChatCompletions, CompletionWindow: openai.BatchNewParamsCompletionWindow24h})
	apiErr := e2e.OpenAIError(t, err)
	assert.Equal(t, http.StatusTooManyRequests, apiErr.StatusCode)
	assert.Equal(t, "Too many batches.", apiErr.Message)
	for _, e := range sess.Journal().Entries() {
		assert.NotEqual(t, "/v1/chat/completions", e.Path, "no line sent")
	}
}
