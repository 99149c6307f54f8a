package anthropicsdk_test

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
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

// batchStart is the fake clock's start in the batch tests: a date at
// which the tests' model is served.
var batchStart = time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC)

// batchOf is a batch of one request per text, whose custom_ids are
// "req-0", "req-1", ... in order.
func batchOf(texts ...string) anthropic.MessageBatchNewParams {
	var p anthropic.MessageBatchNewParams
	for i, text := range texts {
		p.Requests = append(p.Requests, anthropic.MessageBatchNewParamsRequest{
			CustomID: fmt.Sprintf("req-%d", i),
			Params: anthropic.MessageBatchNewParamsRequestParams{Model: model, MaxTokens: 256,
				Messages: []anthropic.MessageParam{anthropic.NewUserMessage(anthropic.NewTextBlock(text))}},
		})
	}
	return p
}

// results reads a batch's results with the SDK's ResultsStreaming, by
// custom_id, failing t on a stream error or a custom_id seen twice.
func results(t *testing.T, client anthropic.Client, id string) map[string]anthropic.MessageBatchIndividualResponse {
	t.Helper()
	stream := client.Messages.Batches.ResultsStreaming(t.Context(), id, anthropic.MessageBatchResultsParams{})
	defer stream.Close()
	out := map[string]anthropic.MessageBatchIndividualResponse{}
	for stream.Next() {
		r := stream.Current()
		_, dup := out[r.CustomID]
		require.False(t, dup, "custom_id %s twice", r.CustomID)
		out[r.CustomID] = r
	}
	require.NoError(t, stream.Err())
	return out
}

// untilEnded polls batch id, calling wait between polls, until it has
// ended, and returns it with the statuses the polls saw.
func untilEnded(t *testing.T, client anthropic.Client, id string, wait func()) (*anthropic.MessageBatch, []anthropic.MessageBatchProcessingStatus) {
	t.Helper()
	var seen []anthropic.MessageBatchProcessingStatus
	for range 100 {
		b, err := client.Messages.Batches.Get(t.Context(), id, anthropic.MessageBatchGetParams{})
		require.NoError(t, err)
		seen = append(seen, b.ProcessingStatus)
		if b.ProcessingStatus == anthropic.MessageBatchProcessingStatusEnded {
			return b, seen
		}
		wait()
	}
	t.Fatalf("batch %s did not end", id)
	return nil, nil
}

// scriptLines scripts the answers of the lifecycle's lines: a text for
// "alpha" and "beta", an overloaded error for "boom".
func scriptLines(sess *session.Session) {
	sess.Chat("alpha").When(scenario.UserContains("alpha")).Responds("A!").Repeat()
	sess.Chat("beta").When(scenario.UserContains("beta")).Responds("B!").Repeat()
	sess.Chat("boom").When(scenario.UserContains("boom")).
		Reply(scenario.Reply{Error: &scenario.Error{Kind: scenario.ErrorOverloaded, Message: "busy now"}}).Repeat()
}

// checkLifecycle runs a batch from its creation to its results with the
// SDK, wait moving the server's clock between polls: created
// in_progress with every request processing, polled in_progress, then
// ended with each request's own result, decoded by ResultsStreaming.
func checkLifecycle(t *testing.T, sess *session.Session, wait func()) {
	client := clientFor(sess, "k", 0)
	created, err := client.Messages.Batches.New(t.Context(), batchOf("alpha", "beta", "boom"))
	require.NoError(t, err)
	assert.Equal(t, anthropic.MessageBatchProcessingStatusInProgress, created.ProcessingStatus)
	assert.Equal(t, int64(3), created.RequestCounts.Processing)
	assert.Zero(t, created.RequestCounts.Succeeded+created.RequestCounts.Errored)
	assert.Equal(t, 24*time.Hour, created.ExpiresAt.Sub(created.CreatedAt))
	assert.True(t, created.EndedAt.IsZero())
	assert.False(t, created.JSON.ResultsURL.Valid(), "results_url is null until the batch ends")
	assert.Equal(t, "null", created.JSON.ResultsURL.Raw())

	ended, seen := untilEnded(t, client, created.ID, wait)
	assert.Contains(t, seen, anthropic.MessageBatchProcessingStatusInProgress, "polled while processing")
	assert.Equal(t, int64(2), ended.RequestCounts.Succeeded)
	assert.Equal(t, int64(1), ended.RequestCounts.Errored)
	assert.Zero(t, ended.RequestCounts.Processing+ended.RequestCounts.Canceled+ended.RequestCounts.Expired)
	assert.Equal(t, created.CreatedAt.Add(5*time.Second), ended.EndedAt, "the default plan: 1 s queued, 4 s running")
	assert.Equal(t, sess.AnthropicBaseURL()+"/v1/messages/batches/"+created.ID+"/results", ended.ResultsURL)

	got := results(t, client, created.ID)
	require.Len(t, got, 3)
	for id, text := range map[string]string{"req-0": "A!", "req-1": "B!"} {
		r := got[id].Result
		require.Equal(t, "succeeded", r.Type, id)
		msg := r.AsSucceeded().Message
		require.Len(t, msg.Content, 1)
		assert.Equal(t, text, msg.Content[0].Text)
		assert.Equal(t, model, msg.Model)
		assert.Equal(t, anthropic.StopReasonEndTurn, msg.StopReason)
	}
	errored := got["req-2"].Result
	require.Equal(t, "errored", errored.Type)
	e := errored.AsErrored().Error
	assert.Equal(t, "overloaded_error", e.Error.Type)
	assert.Equal(t, "busy now", e.Error.Message)
	assert.NotEmpty(t, e.RequestID)

	// The journal: each request sent alone with its custom_id, then the
	// batch's create, polls and results fetch with its state.
	var lines, polls int
	for _, entry := range sess.Journal().Entries() {
		assert.Equal(t, created.ID, entry.Job, "%s %s", entry.Method, entry.Path)
		switch entry.Path {
		case "/v1/messages":
			lines++
			assert.Regexp(t, `^req-[0-2]$`, entry.CustomID)
		case "/v1/messages/batches/" + created.ID:
			polls++
			assert.Contains(t, []string{"in_progress", "ended"}, entry.JobState)
		}
	}
	assert.Equal(t, 3, lines)
	assert.Equal(t, len(seen), polls)
}

// The whole life of a batch through the SDK over loopback, on a fake clock
// the test advances a second between polls.
func TestBatchLifecycleOnAFakeClock(t *testing.T) {
	t.Parallel()
	realStart := time.Now()
	clk := clock.NewFake(batchStart)
	sess := llmtest.NewServer(t, llmtest.WithClock(clk)).NewSession(t)
	scriptLines(sess)
	checkLifecycle(t, sess, func() { clk.Advance(time.Second) })
	t.Logf("virtual time %v, real time %v", clk.Now().Sub(batchStart), time.Since(realStart))
}

// results_url is an absolute URL to this server: fetched directly with an
// http.Client, as the API's docs tell clients to, it gives the JSONL the
// SDK's path gives, one line per request, which ResultsStreaming reads.
func TestBatchResultsURLFetchedDirectly(t *testing.T) {
	t.Parallel()
	clk := clock.NewFake(batchStart)
	sess := llmtest.NewServer(t, llmtest.WithClock(clk)).NewSession(t)
	scriptLines(sess)
	client := clientFor(sess, "k", 0)
	created, err := client.Messages.Batches.New(t.Context(), batchOf("alpha", "boom"))
	require.NoError(t, err)
	clk.Advance(time.Minute)
	b, err := client.Messages.Batches.Get(t.Context(), created.ID, anthropic.MessageBatchGetParams{})
	require.NoError(t, err)

	fetch := func(url string) []byte {
		req, err := http.NewRequestWithContext(t.Context(), http.MethodGet, url, nil)
		require.NoError(t, err)
		req.Header.Set("x-api-key", "k")
		req.Header.Set("anthropic-version", sdkVersion)
		resp, err := sess.HTTPClient().Do(req)
		require.NoError(t, err)
		defer resp.Body.Close()
		body, err := io.ReadAll(resp.Body)
		require.NoError(t, err)
		require.Equal(t, http.StatusOK, resp.StatusCode, "%s", body)
		assert.Equal(t, "application/x-jsonl", resp.Header.Get("Content-Type"))
		return body
	}
	direct := fetch(b.ResultsURL)
	sdkPath := fetch(sess.AnthropicBaseURL() + "/v1/messages/batches/" + created.ID + "/results")
	assert.Equal(t, string(sdkPath), string(direct))

	var raws []string
	for _, r := range results(t, client, created.ID) {
		raws = append(raws, r.RawJSON())
	}
	sc := bufio.NewScanner(bytes.NewReader(direct))
	var n int
	for sc.Scan() {
		n++
		assert.Contains(t, raws, sc.Text(), "the SDK decoded each line as sent")
	}
	assert.Equal(t, 2, n)
}
