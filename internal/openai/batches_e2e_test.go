package openai_test

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/openai/openai-go/v3"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/llmtestserver/llmtestserver/clock"
	"github.com/llmtestserver/llmtestserver/internal/e2e"
	"github.com/llmtestserver/llmtestserver/llmtest"
	"github.com/llmtestserver/llmtestserver/scenario"
	"github.com/llmtestserver/llmtestserver/session"
)

// batchStart is the fake clock's start in the batch tests.
var batchStart = time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC)

// batchModel is the model the tests' lines name.
const batchModel = openai.ChatModelGPT4_1Mini

// batchSession is a session on a server whose clock the test advances,
// and an openai-go client of it. The session answers no line until the
// test scripts it (answerOK, after its own scenarios).
func batchSession(t *testing.T, opts ...session.Option) (*clock.Fake, *llmtest.Server, *session.Session, openai.Client) {
	clk := clock.NewFake(batchStart)
	srv := llmtest.NewServer(t, llmtest.WithClock(clk))
	sess := srv.NewSession(t, opts...)
	return clk, srv, sess, e2e.ClientFor(sess, "k")
}

// answerOK answers every chat line of sess "ok", after the scenarios
// scripted before.
func answerOK(sess *session.Session) { sess.Chat("any").Responds("ok").Repeat() }

// chatLine is a JSONL line of a chat completion saying text.
func chatLine(customID, text string) string {
	return fmt.Sprintf(`{"custom_id":%q,"method":"POST","url":"/v1/chat/completions","body":{"model":%q,"messages":[{"role":"user","content":%q}]}}`,
		customID, batchModel, text)
}

// jsonl joins lines into a file's content.
func jsonl(lines ...string) string { return strings.Join(lines, "\n") + "\n" }

// chatLines is a file of one chat line per text, custom_ids "req-0",
// "req-1", ... in order.
func chatLines(texts ...string) string {
	lines := make([]string, len(texts))
	for i, text := range texts {
		lines[i] = chatLine(fmt.Sprintf("req-%d", i), text)
	}
	return jsonl(lines...)
}

// upload uploads content as a batch input file named batch.jsonl.
func upload(t testing.TB, client openai.Client, content string) *openai.FileObject {
	t.Helper()
	f, err := client.Files.New(t.Context(), openai.FileNewParams{
		File: openai.File(strings.NewReader(content), "batch.jsonl", "application/jsonl"), Purpose: openai.FilePurposeBatch})
	require.NoError(t, err)
	return f
}

// newBatch uploads content and makes a batch of it to endpoint.
func newBatch(t testing.TB, client openai.Client, content string, endpoint openai.BatchNewParamsEndpoint) *openai.Batch {
	t.Helper()
	f := upload(t, client, content)
	b, err := client.Batches.New(t.Context(), openai.BatchNewParams{InputFileID: f.ID, Endpoint: endpoint,
		CompletionWindow: openai.BatchNewParamsCompletionWindow24h})
	require.NoError(t, err)
	return b
}

func getBatch(t testing.TB, client openai.Client, id string) *openai.Batch {
	t.Helper()
	b, err := client.Batches.Get(t.Context(), id)
	require.NoError(t, err)
	return b
}

// outputLine is a line of a batch's output or error file, as the tests
// read it.
type outputLine struct {
	ID       string `json:"id"`
	CustomID string `json:"custom_id"`
	Response *struct {
		StatusCode int             `json:"status_code"`
		RequestID  string          `json:"request_id"`
		Body       json.RawMessage `json:"body"`
	} `json:"response"`
	Error *struct {
		Code    string `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
}

// fileLines downloads the file id through the SDK and decodes it line by
// line, by custom_id, failing t on a custom_id seen twice.
func fileLines(t testing.TB, client openai.Client, id string) (map[string]outputLine, []string) {
	t.Helper()
	resp, err := client.Files.Content(t.Context(), id)
	require.NoError(t, err)
	defer resp.Body.Close()
	out := map[string]outputLine{}
	var order []string
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var l outputLine
		require.NoError(t, json.Unmarshal(sc.Bytes(), &l), "%s", sc.Bytes())
		_, dup := out[l.CustomID]
		require.False(t, dup, "custom_id %s twice", l.CustomID)
		out[l.CustomID] = l
		order = append(order, l.CustomID)
	}
	require.NoError(t, sc.Err())
	return out, order
}

// fileBytes downloads the file id whole.
func fileBytes(t testing.TB, client openai.Client, id string) []byte {
	t.Helper()
	resp, err := client.Files.Content(t.Context(), id)
	require.NoError(t, err)
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	return b
}

// A batch validates while its plan queues, runs in progress with its
// request counts and usage growing step by step, finalizes in its plan's
// last step and completes at its end, each transition's time on the
// session's clock; its output file is a file of purpose batch_output,
// visible once the batch completed, whose lines the SDK downloads and
// whose bodies decode as ChatCompletions, last line first; each line was
// journaled as a chat completion of its own with the batch's ID and its
// custom_id, and each poll with the batch's status.
func TestBatchStateMachine(t *testing.T) {
	t.Parallel()
	clk, _, sess, client := batchSession(t)
	sess.Chat("two").When(scenario.UserContains("second")).Responds("second answer").Repeat()
	answerOK(sess)
	sess.Batches("timed").Reply(scenario.Job(scenario.JobPlan{Queued: 2 * time.Second, Running: 8 * time.Second, Steps: 4}))

	created := newBatch(t, client, chatLines("first", "second", "third"), openai.BatchNewParamsEndpointV1ChatCompletions)
	assert.Regexp(t, `^batch_[0-9a-f]{32}$`, created.ID)
	assert.Equal(t, openai.BatchStatusValidating, created.Status)
	assert.Equal(t, "/v1/chat/completions", created.Endpoint)
	assert.Equal(t, "24h", created.CompletionWindow)
	assert.Equal(t, batchModel, created.Model)
	assert.Equal(t, batchStart.Unix(), created.CreatedAt)
	assert.Equal(t, batchStart.Add(24*time.Hour).Unix(), created.ExpiresAt)
	assert.Equal(t, openai.BatchRequestCounts{}.Total, created.RequestCounts.Total)
	assert.Empty(t, created.OutputFileID)
	assert.Contains(t, created.RawJSON(), `"in_progress_at":null`)

	type seen struct {
		status            openai.BatchStatus
		completed, failed int64
	}
	poll := func() seen {
		b := getBatch(t, client, created.ID)
		return seen{b.Status, b.RequestCounts.Completed, b.RequestCounts.Failed}
	}
	var got []seen
	for range 6 {
		clk.Advance(2 * time.Second)
		got = append(got, poll())
	}
	assert.Equal(t, []seen{
		{openai.BatchStatusInProgress, 0, 0},
		{openai.BatchStatusInProgress, 1, 0},
		{openai.BatchStatusInProgress, 2, 0},
		{openai.BatchStatusFinalizing, 3, 0},
		{openai.BatchStatusCompleted, 3, 0},
		{openai.BatchStatusCompleted, 3, 0},
	}, got)

	b := getBatch(t, client, created.ID)
	assert.Equal(t, batchStart.Add(2*time.Second).Unix(), b.InProgressAt)
	assert.Equal(t, batchStart.Add(8*time.Second).Unix(), b.FinalizingAt)
	assert.Equal(t, batchStart.Add(10*time.Second).Unix(), b.CompletedAt)
	assert.Equal(t, int64(3), b.RequestCounts.Total)
	assert.Empty(t, b.ErrorFileID, "no line erred")
	assert.Positive(t, b.Usage.InputTokens)
	assert.Positive(t, b.Usage.OutputTokens)
	assert.Equal(t, b.Usage.InputTokens+b.Usage.OutputTokens, b.Usage.TotalTokens)
	require.NotEmpty(t, b.OutputFileID)

	f, err := client.Files.Get(t.Context(), b.OutputFileID)
	require.NoError(t, err)
	assert.Equal(t, openai.FileObjectPurposeBatchOutput, f.Purpose)
	assert.Equal(t, created.ID+"_output.jsonl", f.Filename)
	assert.Equal(t, b.CompletedAt, f.CreatedAt, "written when the batch completed")
	lines, order := fileLines(t, client, b.OutputFileID)
	assert.Equal(t, []string{"req-2", "req-1", "req-0"}, order, "last line first")
	for id, want := range map[string]string{"req-0": "ok", "req-1": "second answer", "req-2": "ok"} {
		l := lines[id]
		assert.Regexp(t, `^batch_req_[A-Za-z0-9]{24}$`, l.ID)
		require.NotNil(t, l.Response, id)
		assert.Nil(t, l.Error)
		assert.Equal(t, 200, l.Response.StatusCode)
		assert.Regexp(t, `^req_[0-9a-f]{32}$`, l.Response.RequestID)
		var cc openai.ChatCompletion
		require.NoError(t, json.Unmarshal(l.Response.Body, &cc))
		assert.Equal(t, "chat.completion", string(cc.Object))
		require.Len(t, cc.Choices, 1)
		assert.Equal(t, want, cc.Choices[0].Message.Content, id)
	}

	var lineEntries, polls int
	for _, e := range sess.Journal().Entries() {
		switch {
		case e.Path == "/v1/chat/completions":
			lineEntries++
			assert.Equal(t, created.ID, e.Job)
			assert.Regexp(t, `^req-[0-2]$`, e.CustomID)
		case strings.HasPrefix(e.Path, "/v1/batches/"):
			polls++
			assert.Equal(t, created.ID, e.Job)
			assert.NotEmpty(t, e.JobState)
			assert.Equal(t, batchModel, e.Model)
		}
	}
	assert.Equal(t, 3, lineEntries, "each line journaled once, at the creation")
	assert.Equal(t, 7, polls)
}
