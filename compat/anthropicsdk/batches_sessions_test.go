package anthropicsdk_test

import (
	"net/http"
	"strings"
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

// The list pages the session's batches newest first as the SDK reads the
// page: ListAutoPaging walks them all through after_id, and a page asked
// with before_id gives the newer ones next to the cursor, with has_more,
// first_id and last_id.
func TestBatchListPages(t *testing.T) {
	t.Parallel()
	_, clk, client := batchSession(t)
	var ids []string
	for range 5 {
		b, err := client.Messages.Batches.New(t.Context(), batchOf("a"))
		require.NoError(t, err)
		ids = append(ids, b.ID)
		clk.Advance(time.Second)
	}
	newest := []string{ids[4], ids[3], ids[2], ids[1], ids[0]}

	var walked []string
	pages := client.Messages.Batches.ListAutoPaging(t.Context(), anthropic.MessageBatchListParams{Limit: anthropic.Int(2)})
	for pages.Next() {
		walked = append(walked, pages.Current().ID)
	}
	require.NoError(t, pages.Err())
	assert.Equal(t, newest, walked)

	first, err := client.Messages.Batches.List(t.Context(), anthropic.MessageBatchListParams{Limit: anthropic.Int(2)})
	require.NoError(t, err)
	assert.True(t, first.HasMore)
	assert.Equal(t, ids[4], first.FirstID)
	assert.Equal(t, ids[3], first.LastID)
	assert.Equal(t, anthropic.MessageBatchProcessingStatusInProgress, first.Data[0].ProcessingStatus, "each listed as it stands")
	oldest := walked[len(walked)-1]
	for pages := client.Messages.Batches.ListAutoPaging(t.Context(), anthropic.MessageBatchListParams{}); pages.Next(); {
		if b := pages.Current(); b.ID == oldest {
			assert.Equal(t, anthropic.MessageBatchProcessingStatusEnded, b.ProcessingStatus, "made 5 s ago")
		}
	}

	before, err := client.Messages.Batches.List(t.Context(), anthropic.MessageBatchListParams{BeforeID: anthropic.String(ids[1]), Limit: anthropic.Int(2)})
	require.NoError(t, err)
	require.Len(t, before.Data, 2)
	assert.Equal(t, []string{ids[3], ids[2]}, []string{before.Data[0].ID, before.Data[1].ID})
	assert.True(t, before.HasMore, "ids[4] is newer still")
	next, err := before.GetNextPage()
	require.NoError(t, err)
	require.NotNil(t, next)
	require.Len(t, next.Data, 1)
	assert.Equal(t, ids[4], next.Data[0].ID)
	assert.False(t, next.HasMore)

	_, err = client.Messages.Batches.List(t.Context(), anthropic.MessageBatchListParams{Limit: anthropic.Int(1001)})
	apiErr := apiError(t, err)
	assert.Equal(t, http.StatusBadRequest, apiErr.StatusCode)
	assert.Contains(t, apiErr.RawJSON(), "limit: Input should be less than or equal to 1000")
}

// Another session sees none of a session's batches: its IDs are 404 on
// every route, its list is empty; the API's other jobs and its messages
// are not batches either.
func TestBatchSessionsIsolated(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t, llmtest.WithClock(clock.NewFake(batchStart)))
	sess, other := srv.NewSession(t), srv.NewSession(t)
	sess.Chat("any").Responds("ok").Repeat()
	client, otherClient := clientFor(sess, "k", 0), clientFor(other, "k", 0)
	b, err := client.Messages.Batches.New(t.Context(), batchOf("a"))
	require.NoError(t, err)
	ctx := t.Context()
	for name, call := range map[string]func() error{
		"get": func() error {
			_, err := otherClient.Messages.Batches.Get(ctx, b.ID, anthropic.MessageBatchGetParams{})
			return err
		},
		"cancel": func() error {
			_, err := otherClient.Messages.Batches.Cancel(ctx, b.ID, anthropic.MessageBatchCancelParams{})
			return err
		},
		"delete": func() error {
			_, err := otherClient.Messages.Batches.Delete(ctx, b.ID, anthropic.MessageBatchDeleteParams{})
			return err
		},
		"results": func() error {
			s := otherClient.Messages.Batches.ResultsStreaming(ctx, b.ID, anthropic.MessageBatchResultsParams{})
			defer s.Close()
			s.Next()
			return s.Err()
		},
	} {
		apiErr := apiError(t, call())
		assert.Equal(t, http.StatusNotFound, apiErr.StatusCode, name)
		assert.Contains(t, apiErr.RawJSON(), `"not_found_error"`, name)
	}
	page, err := otherClient.Messages.Batches.List(ctx, anthropic.MessageBatchListParams{})
	require.NoError(t, err)
	assert.Empty(t, page.Data)
	assert.False(t, page.HasMore)
	assert.Equal(t, "null", page.JSON.FirstID.Raw())
	_, err = client.Messages.Batches.Get(ctx, b.ID, anthropic.MessageBatchGetParams{})
	require.NoError(t, err, "the owner still has it")
}

// A session whose jobs are at their bound refuses a new batch with a 429
// in Anthropic's envelope, before it sends any request or takes the
// batch's reply; everything else goes on: the kept batches are read and
// their results served, messages are answered, and a batch fits again
// once one is deleted. A batch whose answers pass the bytes left is
// refused too, giving its reply back.
func TestBatchBoundsRefuseWithA429(t *testing.T) {
	t.Parallel()
	sess, clk, client := batchSession(t, session.WithJobs(2, 1<<20))
	sess.Batches("timed").Reply(scenario.Job(scenario.JobPlan{Queued: -1, Running: time.Second})).Repeat()
	var ids []string
	for range 2 {
		b, err := client.Messages.Batches.New(t.Context(), batchOf("a"))
		require.NoError(t, err)
		ids = append(ids, b.ID)
	}
	before := len(sess.Journal().Entries())
	_, err := client.Messages.Batches.New(t.Context(), batchOf("a", "b"))
	apiErr := apiError(t, err)
	assert.Equal(t, http.StatusTooManyRequests, apiErr.StatusCode)
	assert.Contains(t, apiErr.RawJSON(), `"type":"error","error":{"type":"rate_limit_error"`)
	assert.Contains(t, apiErr.RawJSON(), "jobs.capacity")
	entries := sess.Journal().Entries()
	require.Len(t, entries, before+1, "no line sent")
	assert.Equal(t, http.StatusTooManyRequests, entries[before].Status)

	clk.Advance(time.Second)
	for _, id := range ids {
		b, err := client.Messages.Batches.Get(t.Context(), id, anthropic.MessageBatchGetParams{})
		require.NoError(t, err)
		assert.Equal(t, anthropic.MessageBatchProcessingStatusEnded, b.ProcessingStatus)
		assert.Equal(t, map[string]int{"succeeded": 1}, resultTypes(t, client, id))
	}
	msg, err := client.Messages.New(t.Context(), userTurn("still answered"))
	require.NoError(t, err)
	assert.Equal(t, "ok", msg.Content[0].Text)
	_, err = client.Messages.Batches.Delete(t.Context(), ids[0], anthropic.MessageBatchDeleteParams{})
	require.NoError(t, err)
	_, err = client.Messages.Batches.New(t.Context(), batchOf("a"))
	require.NoError(t, err, "room again")

	// The bytes: a bound of 4 KiB holds the base of a batch, not the
	// answers of twenty requests.
	smallSrv := llmtest.NewServer(t)
	small := smallSrv.NewSession(t, session.WithJobs(8, 4<<10))
	small.Chat("long").When(scenario.UserContains("long")).Responds(strings.Repeat("long answer ", 500))
	small.Chat("any").Responds("ok").Repeat()
	smallClient := clientFor(small, "k", 0)
	small.Batches("once").Reply(scenario.Job(scenario.JobPlan{}))
	twenty := make([]string, 20)
	for i := range twenty {
		twenty[i] = strings.Repeat("words ", 20)
	}
	pending := small.Pending()
	_, err = smallClient.Messages.Batches.New(t.Context(), batchOf(twenty...))
	apiErr = apiError(t, err)
	assert.Equal(t, http.StatusTooManyRequests, apiErr.StatusCode)
	assert.Equal(t, pending, small.Pending(), "the batch's reply was given back")
	page, err := smallClient.Messages.Batches.List(t.Context(), anthropic.MessageBatchListParams{})
	require.NoError(t, err)
	assert.Empty(t, page.Data, "nothing kept")

	// One answer larger than the whole bound is refused as soon as it
	// comes, without sending the requests after it.
	before = len(small.Journal().Entries())
	long := batchOf("long", "a", "b")
	long.Requests[0].Params.MaxTokens = 4096
	_, err = smallClient.Messages.Batches.New(t.Context(), long)
	assert.Equal(t, http.StatusTooManyRequests, apiError(t, err).StatusCode)
	assert.Len(t, small.Journal().Entries(), before+2, "the long request, then the refused batch")
}

// A fork copies the session's batches as they stand: it reads them, and
// what it does to them (a cancel, a delete) leaves the parent's alone.
func TestBatchForkCopiesBatches(t *testing.T) {
	t.Parallel()
	clk := clock.NewFake(batchStart)
	srv := llmtest.NewServer(t, llmtest.WithClock(clk))
	sess := srv.NewSession(t)
	sess.Chat("any").Responds("ok").Repeat()
	client := clientFor(sess, "k", 0)
	b, err := client.Messages.Batches.New(t.Context(), batchOf("a", "b"))
	require.NoError(t, err)

	fork := srv.Fork(t, sess)
	forkClient := clientFor(fork, "k", 0)
	fb, err := forkClient.Messages.Batches.Get(t.Context(), b.ID, anthropic.MessageBatchGetParams{})
	require.NoError(t, err)
	assert.Equal(t, b.CreatedAt, fb.CreatedAt)
	_, err = forkClient.Messages.Batches.Cancel(t.Context(), b.ID, anthropic.MessageBatchCancelParams{})
	require.NoError(t, err)
	clk.Advance(5 * time.Second)

	assert.Equal(t, map[string]int{"canceled": 2}, resultTypes(t, forkClient, b.ID))
	assert.Equal(t, map[string]int{"succeeded": 2}, resultTypes(t, client, b.ID), "the parent's ran on")
	_, err = forkClient.Messages.Batches.Delete(t.Context(), b.ID, anthropic.MessageBatchDeleteParams{})
	require.NoError(t, err)
	_, err = client.Messages.Batches.Get(t.Context(), b.ID, anthropic.MessageBatchGetParams{})
	require.NoError(t, err, "deleted in the fork only")
}

// A deleted session's batches are gone with it (its requests are
// refused as a session that does not exist), and nothing of them moves
// on in a fork made before.
func TestBatchSessionDeleted(t *testing.T) {
	t.Parallel()
	clk := clock.NewFake(batchStart)
	srv := llmtest.NewServer(t, llmtest.WithClock(clk))
	sess := srv.NewSession(t)
	sess.Chat("any").Responds("ok").Repeat()
	client := clientFor(sess, "k", 0)
	b, err := client.Messages.Batches.New(t.Context(), batchOf("a"))
	require.NoError(t, err)
	fork := srv.Fork(t, sess)
	sess.Close()
	clk.Advance(5 * time.Second)
	_, err = client.Messages.Batches.Get(t.Context(), b.ID, anthropic.MessageBatchGetParams{})
	apiErr := apiError(t, err)
	assert.Equal(t, http.StatusNotFound, apiErr.StatusCode)
	assert.Contains(t, apiErr.RawJSON(), "session")
	forkClient := clientFor(fork, "k", 0)
	fb, err := forkClient.Messages.Batches.Get(t.Context(), b.ID, anthropic.MessageBatchGetParams{})
	require.NoError(t, err)
	assert.Equal(t, anthropic.MessageBatchProcessingStatusEnded, fb.ProcessingStatus)
	assert.Equal(t, int64(1), fb.RequestCounts.Succeeded)
}

// The beta service calls the same routes with ?beta=true: its lines are
// answered by the beta Messages API (with the batch's anthropic-beta
// header), and its results decode as BetaMessages.
func TestBatchBetaService(t *testing.T) {
	t.Parallel()
	_, clk, client := batchSession(t)
	params := anthropic.BetaMessageBatchNewParams{Betas: []anthropic.AnthropicBeta{anthropic.AnthropicBetaContext1m2025_08_07},
		Requests: []anthropic.BetaMessageBatchNewParamsRequest{{CustomID: "beta-0",
			Params: anthropic.BetaMessageBatchNewParamsRequestParams{Model: model, MaxTokens: 64,
				Messages: []anthropic.BetaMessageParam{anthropic.NewBetaUserMessage(anthropic.NewBetaTextBlock("hi"))}}}}}
	created, err := client.Beta.Messages.Batches.New(t.Context(), params)
	require.NoError(t, err)
	assert.Equal(t, anthropic.BetaMessageBatchProcessingStatusInProgress, created.ProcessingStatus)
	clk.Advance(5 * time.Second)
	stream := client.Beta.Messages.Batches.ResultsStreaming(t.Context(), created.ID, anthropic.BetaMessageBatchResultsParams{})
	defer stream.Close()
	require.True(t, stream.Next(), "%v", stream.Err())
	r := stream.Current()
	assert.Equal(t, "beta-0", r.CustomID)
	msg := r.Result.AsSucceeded().Message
	require.Len(t, msg.Content, 1)
	assert.Equal(t, "ok", msg.Content[0].Text)
	assert.Contains(t, msg.RawJSON(), `"context_management"`, "the beta Message's shape")
	assert.False(t, stream.Next())
	require.NoError(t, stream.Err())
}
