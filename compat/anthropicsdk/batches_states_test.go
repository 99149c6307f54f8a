package anthropicsdk_test

import (
	"net/http"
	"testing"
	"time"

	"github.com/anthropics/anthropic-sdk-go/v2"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/llmtestserver/llmtestserver/clock"
	"github.com/llmtestserver/llmtestserver/llmtest"
	"github.com/llmtestserver/llmtestserver/scenario"
	"github.com/llmtestserver/llmtestserver/session"
)

// batchSession is a session on a fake clock whose lines all answer "ok".
func batchSession(t *testing.T, opts ...session.Option) (*session.Session, *clock.Fake, anthropic.Client) {
	t.Helper()
	clk := clock.NewFake(batchStart)
	sess := llmtest.NewServer(t, llmtest.WithClock(clk)).NewSession(t, opts...)
	sess.Chat("any").Responds("ok").Repeat()
	return sess, clk, clientFor(sess, "k", 0)
}

// resultTypes counts a batch's results by type.
func resultTypes(t *testing.T, client anthropic.Client, id string) map[string]int {
	t.Helper()
	out := map[string]int{}
	for _, r := range results(t, client, id) {
		out[r.Result.Type]++
	}
	return out
}

// A batch cancelled while queued is canceling until the time its run
// would have started, then ended with every request canceled; the cancel
// initiated time is kept; a second cancel while canceling answers the
// batch as it stands, and one after it ended is refused.
func TestBatchCancelledWhileQueued(t *testing.T) {
	t.Parallel()
	sess, clk, client := batchSession(t)
	sess.Batches("slow start").Reply(scenario.Job(scenario.JobPlan{Queued: 10 * time.Second}))
	created, err := client.Messages.Batches.New(t.Context(), batchOf("a", "b", "c"))
	require.NoError(t, err)
	clk.Advance(2 * time.Second)
	c, err := client.Messages.Batches.Cancel(t.Context(), created.ID, anthropic.MessageBatchCancelParams{})
	require.NoError(t, err)
	assert.Equal(t, anthropic.MessageBatchProcessingStatusCanceling, c.ProcessingStatus)
	assert.Equal(t, created.CreatedAt.Add(2*time.Second), c.CancelInitiatedAt)
	assert.Equal(t, int64(3), c.RequestCounts.Processing, "processing until the batch ends")
	assert.False(t, c.JSON.EndedAt.Valid())

	clk.Advance(7 * time.Second)
	again, err := client.Messages.Batches.Cancel(t.Context(), created.ID, anthropic.MessageBatchCancelParams{})
	require.NoError(t, err, "a canceling batch is answered as it stands")
	assert.Equal(t, anthropic.MessageBatchProcessingStatusCanceling, again.ProcessingStatus)
	assert.Equal(t, c.CancelInitiatedAt, again.CancelInitiatedAt)

	clk.Advance(time.Second)
	ended, err := client.Messages.Batches.Get(t.Context(), created.ID, anthropic.MessageBatchGetParams{})
	require.NoError(t, err)
	assert.Equal(t, anthropic.MessageBatchProcessingStatusEnded, ended.ProcessingStatus)
	assert.Equal(t, created.CreatedAt.Add(10*time.Second), ended.EndedAt)
	assert.Equal(t, int64(3), ended.RequestCounts.Canceled)
	assert.Zero(t, ended.RequestCounts.Processing+ended.RequestCounts.Succeeded)
	assert.Equal(t, map[string]int{"canceled": 3}, resultTypes(t, client, created.ID))

	_, err = client.Messages.Batches.Cancel(t.Context(), created.ID, anthropic.MessageBatchCancelParams{})
	apiErr := apiError(t, err)
	assert.Equal(t, http.StatusBadRequest, apiErr.StatusCode)
	assert.Contains(t, apiErr.RawJSON(), `"invalid_request_error"`)
	assert.Contains(t, apiErr.RawJSON(), "has already ended")
}

// A batch cancelled while in progress is canceling until the step under
// way ends: the requests of the steps done and of that one keep their
// answers ("the system may complete any in-progress, non-interruptible
// requests"), the others are canceled. The journal records each cancel
// with the state it left the batch in.
func TestBatchCancelledWhileInProgress(t *testing.T) {
	t.Parallel()
	sess, clk, client := batchSession(t)
	sess.Batches("steps").Reply(scenario.Job(scenario.JobPlan{Queued: -1, Running: 8 * time.Second, Steps: 4}))
	created, err := client.Messages.Batches.New(t.Context(), batchOf("a", "b", "c", "d", "e", "f", "g", "h"))
	require.NoError(t, err)
	clk.Advance(3 * time.Second) // in the second step, which ends at 4 s
	c, err := client.Messages.Batches.Cancel(t.Context(), created.ID, anthropic.MessageBatchCancelParams{})
	require.NoError(t, err)
	assert.Equal(t, anthropic.MessageBatchProcessingStatusCanceling, c.ProcessingStatus)
	clk.Advance(999 * time.Millisecond)
	b, err := client.Messages.Batches.Get(t.Context(), created.ID, anthropic.MessageBatchGetParams{})
	require.NoError(t, err)
	assert.Equal(t, anthropic.MessageBatchProcessingStatusCanceling, b.ProcessingStatus)
	clk.Advance(time.Millisecond)
	b, err = client.Messages.Batches.Get(t.Context(), created.ID, anthropic.MessageBatchGetParams{})
	require.NoError(t, err)
	assert.Equal(t, anthropic.MessageBatchProcessingStatusEnded, b.ProcessingStatus)
	assert.Equal(t, created.CreatedAt.Add(4*time.Second), b.EndedAt)
	assert.Equal(t, int64(4), b.RequestCounts.Succeeded, "two steps of four: half the requests")
	assert.Equal(t, int64(4), b.RequestCounts.Canceled)
	got := results(t, client, created.ID)
	for i, id := range []string{"req-0", "req-1", "req-2", "req-3", "req-4", "req-5", "req-6", "req-7"} {
		want := "succeeded"
		if i >= 4 {
			want = "canceled"
		}
		assert.Equal(t, want, got[id].Result.Type, id)
	}
	var states []string
	for _, e := range sess.Journal().Entries() {
		if e.Path == "/v1/messages/batches/"+created.ID+"/cancel" {
			states = append(states, e.JobState)
		}
	}
	assert.Equal(t, []string{"canceling"}, states)
}

// A plan that expires ends the batch with every request expired; one
// that fails (scenario.FailJob) ends it with every request errored with
// the plan's error, a Message Batch having no failed state of its own.
func TestBatchPlansThatExpireOrFail(t *testing.T) {
	t.Parallel()
	sess, clk, client := batchSession(t)
	sess.Batches("late").When(scenario.UserContains("late-")).Reply(scenario.Job(scenario.JobPlan{Ends: scenario.JobExpired}))
	sess.Batches("broken").When(scenario.UserContains("broken-")).
		Reply(scenario.FailJob(scenario.Error{Kind: scenario.ErrorServer, Message: "the batch broke"}))
	late := batchOf("a", "b")
	late.Requests[0].CustomID, late.Requests[1].CustomID = "late-0", "late-1"
	broken := batchOf("a", "b")
	broken.Requests[0].CustomID, broken.Requests[1].CustomID = "broken-0", "broken-1"
	l, err := client.Messages.Batches.New(t.Context(), late)
	require.NoError(t, err)
	f, err := client.Messages.Batches.New(t.Context(), broken)
	require.NoError(t, err, "a failed plan fails the batch later, not its creation")
	assert.Equal(t, anthropic.MessageBatchProcessingStatusInProgress, f.ProcessingStatus)
	clk.Advance(5 * time.Second)

	lb, err := client.Messages.Batches.Get(t.Context(), l.ID, anthropic.MessageBatchGetParams{})
	require.NoError(t, err)
	assert.Equal(t, anthropic.MessageBatchProcessingStatusEnded, lb.ProcessingStatus)
	assert.Equal(t, int64(2), lb.RequestCounts.Expired)
	assert.Equal(t, map[string]int{"expired": 2}, resultTypes(t, client, l.ID))

	fb, err := client.Messages.Batches.Get(t.Context(), f.ID, anthropic.MessageBatchGetParams{})
	require.NoError(t, err)
	assert.Equal(t, int64(2), fb.RequestCounts.Errored)
	for id, r := range results(t, client, f.ID) {
		require.Equal(t, "errored", r.Result.Type, id)
		e := r.Result.AsErrored().Error
		assert.Equal(t, "api_error", e.Error.Type)
		assert.Equal(t, "the batch broke", e.Error.Message)
	}
}

// A batch scenario's error without a failed plan refuses the creation
// itself, in Anthropic's envelope, and sends no request.
func TestBatchScriptedErrorRefusesTheCreation(t *testing.T) {
	t.Parallel()
	sess, _, client := batchSession(t)
	sess.Batches("down").Reply(scenario.Reply{Error: &scenario.Error{Kind: scenario.ErrorOverloaded, Message: "no batches now"}})
	_, err := client.Messages.Batches.New(t.Context(), batchOf("a"))
	apiErr := apiError(t, err)
	assert.Equal(t, 529, apiErr.StatusCode)
	assert.Contains(t, apiErr.RawJSON(), `"overloaded_error"`)
	entries := sess.Journal().Entries()
	require.Len(t, entries, 1, "no line sent")
	assert.Equal(t, "down", entries[0].Scenario)
}

// A batch is deleted only once it ended: before, the delete is refused and
// the batch is still there; a cancel, then its end, let it go, answered
// with the DeletedMessageBatch, and it is 404 from then on.
func TestBatchDeletedOnlyOnceEnded(t *testing.T) {
	t.Parallel()
	sess, clk, client := batchSession(t)
	created, err := client.Messages.Batches.New(t.Context(), batchOf("a"))
	require.NoError(t, err)
	clk.Advance(2 * time.Second)
	_, err = client.Messages.Batches.Delete(t.Context(), created.ID, anthropic.MessageBatchDeleteParams{})
	apiErr := apiError(t, err)
	assert.Equal(t, http.StatusBadRequest, apiErr.StatusCode)
	assert.Contains(t, apiErr.RawJSON(), "in_progress")
	_, err = client.Messages.Batches.Get(t.Context(), created.ID, anthropic.MessageBatchGetParams{})
	require.NoError(t, err, "still there")

	_, err = client.Messages.Batches.Cancel(t.Context(), created.ID, anthropic.MessageBatchCancelParams{})
	require.NoError(t, err)
	_, err = client.Messages.Batches.Delete(t.Context(), created.ID, anthropic.MessageBatchDeleteParams{})
	assert.Contains(t, apiError(t, err).RawJSON(), "canceling", "canceling is not ended")
	clk.Advance(time.Second)
	_, err = client.Messages.Batches.Get(t.Context(), created.ID, anthropic.MessageBatchGetParams{})
	require.NoError(t, err)
	deleted, err := client.Messages.Batches.Delete(t.Context(), created.ID, anthropic.MessageBatchDeleteParams{})
	require.NoError(t, err)
	assert.Equal(t, created.ID, deleted.ID)
	assert.Equal(t, "message_batch_deleted", string(deleted.Type))
	_, err = client.Messages.Batches.Get(t.Context(), created.ID, anthropic.MessageBatchGetParams{})
	assert.Equal(t, http.StatusNotFound, apiError(t, err).StatusCode)
	_, err = client.Messages.Batches.Delete(t.Context(), created.ID, anthropic.MessageBatchDeleteParams{})
	assert.Equal(t, http.StatusNotFound, apiError(t, err).StatusCode)
	last := sess.Journal().Entries()
	assert.Equal(t, "deleted", last[len(last)-3].JobState)
}

// The results of a batch still processing are refused, in Anthropic's
// envelope, by the SDK's ResultsStreaming.
func TestBatchResultsRefusedBeforeTheEnd(t *testing.T) {
	t.Parallel()
	_, _, client := batchSession(t)
	created, err := client.Messages.Batches.New(t.Context(), batchOf("a"))
	require.NoError(t, err)
	stream := client.Messages.Batches.ResultsStreaming(t.Context(), created.ID, anthropic.MessageBatchResultsParams{})
	defer stream.Close()
	assert.False(t, stream.Next())
	apiErr := apiError(t, stream.Err())
	assert.Equal(t, http.StatusBadRequest, apiErr.StatusCode)
	assert.Contains(t, apiErr.RawJSON(), "in_progress")
}

// A request whose answer a scripted fault breaks off (a drop) is an
// errored result with an api_error, one that hangs a timeout_error (the
// server does not wait for a batch's request), and a plan that fails
// without an error of its own errors every request with an api_error.
func TestBatchLineFaultsAreErroredResults(t *testing.T) {
	t.Parallel()
	clk := clock.NewFake(batchStart)
	sess := llmtest.NewServer(t, llmtest.WithClock(clk)).NewSession(t)
	sess.Chat("drop").When(scenario.UserContains("drop")).Drops()
	sess.Chat("hang").When(scenario.UserContains("hang")).Hangs()
	sess.Chat("fine").Responds("ok").Repeat()
	client := clientFor(sess, "k", 0)
	created, err := client.Messages.Batches.New(t.Context(), batchOf("drop", "hang", "fine"))
	require.NoError(t, err)
	clk.Advance(5 * time.Second)
	got := results(t, client, created.ID)
	require.Equal(t, "errored", got["req-0"].Result.Type)
	assert.Equal(t, "api_error", got["req-0"].Result.AsErrored().Error.Error.Type)
	require.Equal(t, "errored", got["req-1"].Result.Type)
	assert.Equal(t, "timeout_error", got["req-1"].Result.AsErrored().Error.Error.Type)
	assert.Equal(t, "succeeded", got["req-2"].Result.Type)

	sess.Batches("fails").Reply(scenario.Job(scenario.JobPlan{Ends: scenario.JobFailed}))
	failed, err := client.Messages.Batches.New(t.Context(), batchOf("fine"))
	require.NoError(t, err)
	clk.Advance(5 * time.Second)
	r := results(t, client, failed.ID)["req-0"].Result
	require.Equal(t, "errored", r.Type)
	assert.Equal(t, "api_error", r.AsErrored().Error.Error.Type)
}
