package genaisdk_test

import (
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"google.golang.org/genai"

	"github.com/llmtestserver/llmtestserver/clock"
	"github.com/llmtestserver/llmtestserver/llmtest"
	"github.com/llmtestserver/llmtestserver/scenario"
	"github.com/llmtestserver/llmtestserver/session"
)

// batchStart is the fake clock's start in the batch tests.
var batchStart = time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC)

// inlined is a batch source of one request per text, keyed "k0", "k1", ...
func inlined(texts ...string) *genai.BatchJobSource {
	src := &genai.BatchJobSource{}
	for i, text := range texts {
		src.InlinedRequests = append(src.InlinedRequests, &genai.InlinedRequest{
			Contents: genai.Text(text), Metadata: map[string]string{"key": fmt.Sprintf("k%d", i)}})
	}
	return src
}

// batchSession is a session on a fake clock with its v1beta client.
func batchSession(t *testing.T, opts ...session.Option) (*session.Session, *clock.Fake, *genai.Client) {
	t.Helper()
	clk := clock.NewFake(batchStart)
	sess := llmtest.NewServer(t, llmtest.WithClock(clk)).NewSession(t, opts...)
	return sess, clk, betaClient(t, sess)
}

// scriptBatchLines scripts the lines' answers: texts for alpha and beta,
// an overloaded error for boom.
func scriptBatchLines(sess *session.Session) {
	sess.Chat("alpha").When(scenario.UserContains("alpha")).Responds("A!").Repeat()
	sess.Chat("beta").When(scenario.UserContains("beta")).Responds("B!").Repeat()
	sess.Chat("boom").When(scenario.UserContains("boom")).
		Reply(scenario.Reply{Error: &scenario.Error{Kind: scenario.ErrorOverloaded, Message: "busy now"}}).Repeat()
}

// untilDone polls the batch until it is done, wait between polls, and
// returns it with the states seen.
func untilDone(t *testing.T, c *genai.Client, name string, wait func()) (*genai.BatchJob, []genai.JobState) {
	t.Helper()
	var seen []genai.JobState
	for range 100 {
		b, err := c.Batches.Get(t.Context(), name, nil)
		require.NoError(t, err)
		seen = append(seen, b.State)
		switch b.State {
		case genai.JobStateSucceeded, genai.JobStateFailed, genai.JobStateCancelled, genai.JobStateExpired:
			return b, seen
		}
		wait()
	}
	t.Fatalf("batch %s never done", name)
	return nil, nil
}

// checkBatchLifecycle creates a batch of three inlined requests, polls it
// to JOB_STATE_SUCCEEDED and reads each inlined response with genai's
// types: texts for two, the scripted error for the third.
func checkBatchLifecycle(t *testing.T, sess *session.Session, c *genai.Client, wait func()) {
	created, err := c.Batches.Create(t.Context(), model, inlined("alpha", "beta", "boom"), &genai.CreateBatchJobConfig{DisplayName: "nightly"})
	require.NoError(t, err)
	assert.Equal(t, genai.JobStatePending, created.State)
	assert.Equal(t, "nightly", created.DisplayName)
	assert.Equal(t, "models/"+model, created.Model)
	assert.Regexp(t, `^batches/[a-z0-9]+$`, created.Name)
	assert.Nil(t, created.Dest)

	done, seen := untilDone(t, c, created.Name, wait)
	assert.Contains(t, seen, genai.JobStateRunning)
	require.Equal(t, genai.JobStateSucceeded, done.State)
	assert.Equal(t, created.CreateTime.Add(5*time.Second), done.EndTime, "the default plan: 1 s pending, 4 s running")
	require.NotNil(t, done.Dest)
	got := done.Dest.InlinedResponses
	require.Len(t, got, 3)
	assert.Equal(t, "A!", got[0].Response.Text())
	assert.Equal(t, map[string]string{"key": "k0"}, got[0].Metadata)
	assert.Equal(t, "B!", got[1].Response.Text())
	assert.Nil(t, got[2].Response)
	require.NotNil(t, got[2].Error)
	assert.Equal(t, int32(503), *got[2].Error.Code)
	assert.Equal(t, "busy now", got[2].Error.Message)

	id := created.Name[len("batches/"):]
	var lines int
	for _, e := range sess.Journal().Entries() {
		assert.Equal(t, id, e.Job, "%s %s", e.Method, e.Path)
		if e.Path == "/v1beta/models/"+model+":generateContent" {
			lines++
			assert.Regexp(t, `^k[0-2]$`, e.CustomID)
		}
	}
	assert.Equal(t, 3, lines)
}

// The whole life of a batch through genai over loopback on a fake clock.
func TestBatchLifecycleOnAFakeClock(t *testing.T) {
	t.Parallel()
	realStart := time.Now()
	sess, clk, c := batchSession(t)
	scriptBatchLines(sess)
	checkBatchLifecycle(t, sess, c, func() { clk.Advance(time.Second) })
	t.Logf("virtual time %v, real time %v", clk.Now().Sub(batchStart), time.Since(realStart))
}

// Cancel while pending and while running ends the batch cancelled with no
// output; a cancel of an ended batch is FAILED_PRECONDITION.
func TestBatchCancel(t *testing.T) {
	t.Parallel()
	sess, clk, c := batchSession(t)
	scriptBatchLines(sess)
	pending, err := c.Batches.Create(t.Context(), model, inlined("alpha"), nil)
	require.NoError(t, err)
	require.NoError(t, c.Batches.Cancel(t.Context(), pending.Name, nil))
	b, err := c.Batches.Get(t.Context(), pending.Name, nil)
	require.NoError(t, err)
	assert.Equal(t, genai.JobStateCancelled, b.State)
	assert.Nil(t, b.Dest)

	running, err := c.Batches.Create(t.Context(), model, inlined("alpha"), nil)
	require.NoError(t, err)
	clk.Advance(2 * time.Second)
	b, err = c.Batches.Get(t.Context(), running.Name, nil)
	require.NoError(t, err)
	require.Equal(t, genai.JobStateRunning, b.State)
	require.NoError(t, c.Batches.Cancel(t.Context(), running.Name, nil))
	b, err = c.Batches.Get(t.Context(), running.Name, nil)
	require.NoError(t, err)
	assert.Equal(t, genai.JobStateCancelled, b.State)

	err = c.Batches.Cancel(t.Context(), running.Name, nil)
	e := apiError(t, err)
	assert.Equal(t, http.StatusBadRequest, e.Code)
	assert.Equal(t, "FAILED_PRECONDITION", e.Status)
}

// List pages newest first; delete (even while running) removes a batch;
// another session's batches are NOT_FOUND.
func TestBatchListDeleteIsolation(t *testing.T) {
	t.Parallel()
	sess, clk, c := batchSession(t)
	scriptBatchLines(sess)
	var names []string
	for range 3 {
		b, err := c.Batches.Create(t.Context(), model, inlined("alpha"), nil)
		require.NoError(t, err)
		names = append(names, b.Name)
	}
	page, err := c.Batches.List(t.Context(), &genai.ListBatchJobsConfig{PageSize: 2})
	require.NoError(t, err)
	require.Len(t, page.Items, 2)
	assert.Equal(t, names[2], page.Items[0].Name)
	require.NotEmpty(t, page.NextPageToken)
	next, err := page.Next(t.Context())
	require.NoError(t, err)
	require.Len(t, next.Items, 1)
	assert.Equal(t, names[0], next.Items[0].Name)

	other := betaClient(t, newSession(t))
	_, err = other.Batches.Get(t.Context(), names[0], nil)
	assert.Equal(t, "NOT_FOUND", apiError(t, err).Status)
	_, err = other.Batches.Delete(t.Context(), names[0], nil)
	assert.Equal(t, "NOT_FOUND", apiError(t, err).Status)

	clk.Advance(2 * time.Second)
	running, err := c.Batches.Get(t.Context(), names[1], nil)
	require.NoError(t, err)
	require.Equal(t, genai.JobStateRunning, running.State, "deleted while running")
	_, err = c.Batches.Delete(t.Context(), names[1], nil)
	require.NoError(t, err)
	_, err = c.Batches.Get(t.Context(), names[1], nil)
	e := apiError(t, err)
	assert.Equal(t, http.StatusNotFound, e.Code)
	assert.Equal(t, "NOT_FOUND", e.Status)
	_, err = c.Batches.Get(t.Context(), names[0], nil)
	require.NoError(t, err, "the others are untouched")
}

// A session at its jobs bound refuses a batch with 429 RESOURCE_EXHAUSTED,
// and its batches go on.
func TestBatchBounds(t *testing.T) {
	t.Parallel()
	sess, clk, c := batchSession(t, session.WithJobs(1, 1<<20))
	scriptBatchLines(sess)
	first, err := c.Batches.Create(t.Context(), model, inlined("alpha"), nil)
	require.NoError(t, err)
	_, err = c.Batches.Create(t.Context(), model, inlined("beta"), nil)
	e := apiError(t, err)
	assert.Equal(t, http.StatusTooManyRequests, e.Code)
	assert.Equal(t, "RESOURCE_EXHAUSTED", e.Status)
	clk.Advance(time.Minute)
	b, err := c.Batches.Get(t.Context(), first.Name, nil)
	require.NoError(t, err)
	assert.Equal(t, genai.JobStateSucceeded, b.State)
}

// Bad input: no requests and file input are 400 INVALID_ARGUMENT; a line
// with bad content and a line for an unknown model are errors of their
// own lines, as the API validates each request when it runs.
func TestBatchBadInput(t *testing.T) {
	t.Parallel()
	sess, clk, c := batchSession(t)
	scriptBatchLines(sess)
	// genai refuses an empty source itself: the raw request shows the
	// server's answer.
	resp, err := sess.HTTPClient().Post(sess.GeminiBaseURL()+"/v1beta/models/"+model+":batchGenerateContent", "application/json",
		strings.NewReader(`{"batch":{"inputConfig":{"requests":{"requests":[]}}}}`))
	require.NoError(t, err)
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	assert.Equal(t, http.StatusBadRequest, resp.StatusCode)
	assert.Contains(t, string(body), `"status":"INVALID_ARGUMENT"`)
	_, err = c.Batches.Create(t.Context(), model, &genai.BatchJobSource{FileName: "files/abc"}, nil)
	e := apiError(t, err)
	assert.Equal(t, "INVALID_ARGUMENT", e.Status)
	assert.Contains(t, e.Message, "Files")

	src := inlined("alpha", "")
	src.InlinedRequests[1].Contents = []*genai.Content{{Role: "wizard", Parts: []*genai.Part{{Text: "x"}}}}
	b, err := c.Batches.Create(t.Context(), model, src, nil)
	require.NoError(t, err)
	clk.Advance(time.Minute)
	b, err = c.Batches.Get(t.Context(), b.Name, nil)
	require.NoError(t, err)
	require.Equal(t, genai.JobStateSucceeded, b.State)
	got := b.Dest.InlinedResponses
	require.Len(t, got, 2)
	assert.Equal(t, "A!", got[0].Response.Text())
	require.NotNil(t, got[1].Error)
	assert.Equal(t, int32(400), *got[1].Error.Code)

	u, err := c.Batches.Create(t.Context(), "no-such-model", inlined("alpha"), nil)
	require.NoError(t, err)
	clk.Advance(time.Minute)
	u, err = c.Batches.Get(t.Context(), u.Name, nil)
	require.NoError(t, err)
	require.NotNil(t, u.Dest.InlinedResponses[0].Error)
	assert.Equal(t, int32(404), *u.Dest.InlinedResponses[0].Error.Code)
}

// A batch scripted with scenario.FailJob ends JOB_STATE_FAILED with no
// output.
func TestBatchScriptedFailure(t *testing.T) {
	t.Parallel()
	sess, clk, c := batchSession(t)
	scriptBatchLines(sess)
	sess.Batches("fail").Reply(scenario.FailJob(scenario.Error{Kind: scenario.ErrorServer, Message: "batch broke"}))
	b, err := c.Batches.Create(t.Context(), model, inlined("alpha"), nil)
	require.NoError(t, err)
	done, _ := untilDone(t, c, b.Name, func() { clk.Advance(time.Second) })
	assert.Equal(t, genai.JobStateFailed, done.State)
	assert.Nil(t, done.Dest)
}

// A fork copies the batches; a deleted session's batches change nothing.
func TestBatchForkAndSessionDeleted(t *testing.T) {
	t.Parallel()
	clk := clock.NewFake(batchStart)
	srv := llmtest.NewServer(t, llmtest.WithClock(clk))
	sess := srv.NewSession(t)
	scriptBatchLines(sess)
	c := betaClient(t, sess)
	b, err := c.Batches.Create(t.Context(), model, inlined("alpha"), nil)
	require.NoError(t, err)
	fork := srv.Fork(t, sess)
	fc := betaClient(t, fork)
	_, err = fc.Batches.Delete(t.Context(), b.Name, nil)
	require.NoError(t, err)
	clk.Advance(time.Minute)
	got, err := c.Batches.Get(t.Context(), b.Name, nil)
	require.NoError(t, err, "the fork's delete leaves the parent's")
	assert.Equal(t, "A!", got.Dest.InlinedResponses[0].Response.Text())

	sess.Close()
	_, err = c.Batches.Get(t.Context(), b.Name, nil)
	require.Error(t, err)
}
