package openai_test

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/openai/openai-go/v3"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/llmtestserver/llmtestserver/internal/e2e"
	"github.com/llmtestserver/llmtestserver/llmtest"
	"github.com/llmtestserver/llmtestserver/session"
)

// The list pages the session's batches newest first as the SDK's
// auto-pager reads it, through after.
func TestBatchListPages(t *testing.T) {
	t.Parallel()
	_, _, sess, client := batchSession(t)
	sess.Batches("now").Reply(atOnce).Repeat()
	answerOK(sess)
	var made []string
	for range 3 {
		made = append(made, newBatch(t, client, chatLines("a"), openai.BatchNewParamsEndpointV1ChatCompletions).ID)
	}
	var ids []string
	pages := client.Batches.ListAutoPaging(t.Context(), openai.BatchListParams{Limit: openai.Int(2)})
	for pages.Next() {
		assert.Equal(t, openai.BatchStatusCompleted, pages.Current().Status)
		ids = append(ids, pages.Current().ID)
	}
	require.NoError(t, pages.Err())
	assert.Equal(t, []string{made[2], made[1], made[0]}, ids)
}

// Another session sees none of a session's batches and files: their IDs
// are 404 on every route, its lists are empty; the session's own output
// files are files, and its batches are none of the other APIs' jobs.
func TestBatchSessionsIsolated(t *testing.T) {
	t.Parallel()
	clk, srv, sess, client := batchSession(t)
	sess.Batches("now").Reply(atOnce)
	answerOK(sess)
	b := newBatch(t, client, chatLines("a"), openai.BatchNewParamsEndpointV1ChatCompletions)
	other := srv.NewSession(t)
	oc := e2e.ClientFor(other, "k")
	_, err := oc.Batches.Get(t.Context(), b.ID)
	assert.Equal(t, http.StatusNotFound, e2e.OpenAIError(t, err).StatusCode)
	_, err = oc.Batches.Cancel(t.Context(), b.ID)
	assert.Equal(t, http.StatusNotFound, e2e.OpenAIError(t, err).StatusCode)
	for _, id := range []string{b.InputFileID, b.OutputFileID} {
		_, err = oc.Files.Get(t.Context(), id)
		assert.Equal(t, http.StatusNotFound, e2e.OpenAIError(t, err).StatusCode)
		_, err = oc.Files.Content(t.Context(), id)
		assert.Equal(t, http.StatusNotFound, e2e.OpenAIError(t, err).StatusCode)
		_, err = oc.Files.Delete(t.Context(), id)
		assert.Equal(t, http.StatusNotFound, e2e.OpenAIError(t, err).StatusCode)
	}
	bl, err := oc.Batches.List(t.Context(), openai.BatchListParams{})
	require.NoError(t, err)
	assert.Empty(t, bl.Data)
	fl, err := oc.Files.List(t.Context(), openai.FileListParams{})
	require.NoError(t, err)
	assert.Empty(t, fl.Data)
	// Another session's file is no input for this one's batch.
	ob, err := oc.Batches.New(t.Context(), openai.BatchNewParams{InputFileID: b.InputFileID,
		Endpoint: openai.BatchNewParamsEndpointV1ChatCompletions, CompletionWindow: openai.BatchNewParamsCompletionWindow24h})
	require.NoError(t, err)
	clk.Advance(time.Second)
	ob = getBatch(t, oc, ob.ID)
	require.Equal(t, openai.BatchStatusFailed, ob.Status)
	assert.Equal(t, "file_not_found", ob.Errors.Data[0].Code)
	// The session's own: its files list has both.
	own, err := client.Files.List(t.Context(), openai.FileListParams{})
	require.NoError(t, err)
	assert.Len(t, own.Data, 2)
}

// A session whose jobs are at their bound refuses a new batch (or file)
// with a 429 in OpenAI's envelope, before it sends any line or takes the
// batch's reply; everything else goes on: the kept batch is read, its
// output downloaded, chat answered, and a batch fits again once a file
// is deleted. A batch whose answers pass the bytes left is refused too,
// giving its reply back and keeping nothing.
func TestBatchBoundsRefuseWithA429(t *testing.T) {
	t.Parallel()
	_, _, sess, client := batchSession(t, session.WithJobs(4, 1<<20))
	sess.Batches("now").Reply(atOnce).Repeat()
	answerOK(sess)
	b := newBatch(t, client, chatLines("a"), openai.BatchNewParamsEndpointV1ChatCompletions) // a file, a batch, its output
	f := upload(t, client, chatLines("b"))                                                   // the fourth job
	before := len(sess.Journal().Entries())
	_, err := client.Batches.New(t.Context(), openai.BatchNewParams{InputFileID: f.ID,
		Endpoint: openai.BatchNewParamsEndpointV1ChatCompletions, CompletionWindow: openai.BatchNewParamsCompletionWindow24h})
	apiErr := e2e.OpenAIError(t, err)
	assert.Equal(t, http.StatusTooManyRequests, apiErr.StatusCode)
	assert.Equal(t, "session_jobs_full", apiErr.Code)
	assert.Contains(t, apiErr.Message, "jobs.capacity")
	_, err = client.Files.New(t.Context(), openai.FileNewParams{
		File: openai.File(strings.NewReader("x"), "x.jsonl", "application/jsonl"), Purpose: openai.FilePurposeBatch})
	assert.Equal(t, http.StatusTooManyRequests, e2e.OpenAIError(t, err).StatusCode)
	assert.Len(t, sess.Journal().Entries(), before+2, "no line sent")

	assert.Equal(t, openai.BatchStatusCompleted, getBatch(t, client, b.ID).Status)
	out, _ := fileLines(t, client, b.OutputFileID)
	assert.Len(t, out, 1)
	cc, err := client.Chat.Completions.New(t.Context(), e2e.UserTurn(batchModel, "still answered"))
	require.NoError(t, err)
	assert.Equal(t, "ok", cc.Choices[0].Message.Content)
	for _, id := range []string{b.InputFileID, b.OutputFileID} {
		_, err = client.Files.Delete(t.Context(), id)
		require.NoError(t, err)
	}
	_, err = client.Batches.New(t.Context(), openai.BatchNewParams{InputFileID: f.ID,
		Endpoint: openai.BatchNewParamsEndpointV1ChatCompletions, CompletionWindow: openai.BatchNewParamsCompletionWindow24h})
	require.NoError(t, err, "room again for a batch and its output")

	// The bytes: a bound of 16 KiB holds the input, not the answers of
	// forty lines.
	small := llmtest.NewServer(t).NewSession(t, session.WithJobs(8, 16<<10))
	small.Batches("once").Reply(atOnce)
	small.Chat("long").Responds(strings.Repeat("long answer ", 60)).Repeat()
	sc := e2e.ClientFor(small, "k")
	texts := make([]string, 40)
	for i := range texts {
		texts[i] = "tell me"
	}
	in := upload(t, sc, chatLines(texts...))
	pending := small.Pending()
	_, err = sc.Batches.New(t.Context(), openai.BatchNewParams{InputFileID: in.ID,
		Endpoint: openai.BatchNewParamsEndpointV1ChatCompletions, CompletionWindow: openai.BatchNewParamsCompletionWindow24h})
	assert.Equal(t, http.StatusTooManyRequests, e2e.OpenAIError(t, err).StatusCode)
	assert.Equal(t, pending, small.Pending(), "the batch's reply was given back")
	list, err := sc.Batches.List(t.Context(), openai.BatchListParams{})
	require.NoError(t, err)
	assert.Empty(t, list.Data, "nothing kept")
	files, err := sc.Files.List(t.Context(), openai.FileListParams{})
	require.NoError(t, err)
	assert.Len(t, files.Data, 1, "the input alone")
}

// A fork copies the session's batches and files as they stand: it reads
// them, and what it does to them (a cancel, a delete) leaves the
// parent's alone.
func TestBatchForkCopiesBatches(t *testing.T) {
	t.Parallel()
	clk, srv, sess, client := batchSession(t)
	answerOK(sess)
	b := newBatch(t, client, chatLines("a", "b"), openai.BatchNewParamsEndpointV1ChatCompletions)
	fork := srv.Fork(t, sess)
	fc := e2e.ClientFor(fork, "k")
	fb, err := fc.Batches.Get(t.Context(), b.ID)
	require.NoError(t, err)
	assert.Equal(t, b.CreatedAt, fb.CreatedAt)
	_, err = fc.Batches.Cancel(t.Context(), b.ID)
	require.NoError(t, err)
	_, err = fc.Files.Delete(t.Context(), b.InputFileID)
	require.NoError(t, err)
	clk.Advance(5 * time.Second)

	fb = getBatch(t, fc, b.ID)
	assert.Equal(t, openai.BatchStatusCancelled, fb.Status)
	assert.Len(t, cancelledIDs(t, fc, fb), 2)
	pb := getBatch(t, client, b.ID)
	assert.Equal(t, openai.BatchStatusCompleted, pb.Status, "the parent's ran on")
	out, _ := fileLines(t, client, pb.OutputFileID)
	assert.Len(t, out, 2)
	_, err = client.Files.Get(t.Context(), b.InputFileID)
	require.NoError(t, err, "deleted in the fork only")
}

// A deleted session's batches and files are gone with it (its requests
// are refused as a session that does not exist), and nothing of them
// changes in a fork made before.
func TestBatchSessionDeleted(t *testing.T) {
	t.Parallel()
	clk, srv, sess, client := batchSession(t)
	answerOK(sess)
	b := newBatch(t, client, chatLines("a"), openai.BatchNewParamsEndpointV1ChatCompletions)
	fork := srv.Fork(t, sess)
	sess.Close()
	clk.Advance(5 * time.Second)
	_, err := client.Batches.Get(t.Context(), b.ID)
	apiErr := e2e.OpenAIError(t, err)
	assert.Equal(t, http.StatusNotFound, apiErr.StatusCode)
	assert.Contains(t, apiErr.Message, "session")
	fb := getBatch(t, e2e.ClientFor(fork, "k"), b.ID)
	assert.Equal(t, openai.BatchStatusCompleted, fb.Status)
	assert.Equal(t, int64(1), fb.RequestCounts.Completed)
}
