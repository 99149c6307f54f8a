package openai_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"testing"

	"github.com/openai/openai-go/v3"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/llmtestserver/llmtestserver/scenario"
)

// atOnce is a batch plan that ends as soon as it is made.
var atOnce = scenario.Job(scenario.JobPlan{Queued: -1, Running: -1})

// A line the scenarios answer with an error, one whose body the endpoint
// refuses, one that asks for a stream, one whose answer a fault drops
// and one that hangs each land in the error file: an answer as it came
// (status code and the error envelope in response.body, error null), a
// refused stream as a 400 that was never sent, a dropped answer as a
// server_error and a hang as request_timeout with no response; the
// others are in the output file; request_counts and usage count them.
func TestBatchLineErrorsLandInTheErrorFile(t *testing.T) {
	t.Parallel()
	_, _, sess, client := batchSession(t)
	sess.Batches("now").Reply(atOnce)
	sess.Chat("limited").When(scenario.UserContains("limited")).Fails(http.StatusTooManyRequests, "rate_limit_exceeded", "Slow down.")
	sess.Chat("dropped").When(scenario.UserContains("dropped")).Drops()
	sess.Chat("hangs").When(scenario.UserContains("hangs")).Hangs()
	answerOK(sess)
	bad := `{"custom_id":"no-messages","method":"POST","url":"/v1/chat/completions","body":{"model":"gpt-4.1-mini"}}`
	streamed := `{"custom_id":"streamed","method":"POST","url":"/v1/chat/completions","body":{"model":"gpt-4.1-mini","stream":true,"messages":[{"role":"user","content":"hi"}]}}`
	b := newBatch(t, client, jsonl(chatLine("fine", "hello"), chatLine("limited", "limited"), bad, streamed,
		chatLine("dropped", "dropped"), chatLine("hangs", "hangs")), openai.BatchNewParamsEndpointV1ChatCompletions)
	require.Equal(t, openai.BatchStatusCompleted, b.Status)
	assert.Equal(t, int64(6), b.RequestCounts.Total)
	assert.Equal(t, int64(1), b.RequestCounts.Completed)
	assert.Equal(t, int64(5), b.RequestCounts.Failed)

	out, _ := fileLines(t, client, b.OutputFileID)
	assert.Len(t, out, 1)
	assert.Contains(t, out, "fine")
	errs, _ := fileLines(t, client, b.ErrorFileID)
	require.Len(t, errs, 5)
	limited := errs["limited"]
	require.NotNil(t, limited.Response)
	assert.Nil(t, limited.Error)
	assert.Equal(t, http.StatusTooManyRequests, limited.Response.StatusCode)
	var env struct {
		Error struct{ Message, Type, Code string } `json:"error"`
	}
	require.NoError(t, json.Unmarshal(limited.Response.Body, &env))
	assert.Equal(t, "rate_limit_exceeded", env.Error.Code)
	assert.Equal(t, "Slow down.", env.Error.Message)
	require.NotNil(t, errs["no-messages"].Response)
	assert.Equal(t, http.StatusBadRequest, errs["no-messages"].Response.StatusCode)
	assert.Contains(t, string(errs["no-messages"].Response.Body), "messages")
	require.NotNil(t, errs["streamed"].Response)
	assert.Equal(t, http.StatusBadRequest, errs["streamed"].Response.StatusCode)
	assert.Contains(t, string(errs["streamed"].Response.Body), `"param":"stream"`)
	assert.Nil(t, errs["dropped"].Response)
	assert.Equal(t, "server_error", errs["dropped"].Error.Code)
	assert.Nil(t, errs["hangs"].Response)
	assert.Equal(t, "request_timeout", errs["hangs"].Error.Code)

	sent := map[string]int{}
	for _, e := range sess.Journal().Entries() {
		if e.Path == "/v1/chat/completions" {
			assert.Equal(t, b.ID, e.Job)
			sent[e.CustomID] = e.Status
		}
	}
	assert.Equal(t, map[string]int{"fine": 200, "limited": 429, "no-messages": 400, "dropped": 0, "hangs": 504}, onlyKnown(sent),
		"each line sent but the stream, journaled with its custom_id")
	assert.NotContains(t, sent, "streamed")
}

// onlyKnown drops the status of a dropped answer, which the journal may
// record as it likes, keeping its presence.
func onlyKnown(m map[string]int) map[string]int {
	if _, ok := m["dropped"]; ok {
		m["dropped"] = 0
	}
	return m
}

// The lines of a /v1/responses batch and of a /v1/embeddings batch are
// answered by those endpoints: the bodies decode as the SDK's Response
// and CreateEmbeddingResponse, and the batch's usage sums theirs.
func TestBatchOfResponsesAndOfEmbeddings(t *testing.T) {
	t.Parallel()
	_, _, sess, client := batchSession(t)
	sess.Batches("now").Reply(atOnce).Repeat()
	answerOK(sess)
	line := func(id, url, body string) string {
		return fmt.Sprintf(`{"custom_id":%q,"method":"POST","url":%q,"body":%s}`, id, url, body)
	}
	rb := newBatch(t, client, jsonl(line("r-0", "/v1/responses", `{"model":"gpt-4.1-mini","input":"hi"}`),
		line("r-1", "/v1/responses", `{"model":"gpt-4.1-mini","input":"there"}`)), openai.BatchNewParamsEndpointV1Responses)
	require.Equal(t, openai.BatchStatusCompleted, rb.Status)
	assert.Equal(t, int64(2), rb.RequestCounts.Completed)
	out, _ := fileLines(t, client, rb.OutputFileID)
	var inputTokens int64
	for _, id := range []string{"r-0", "r-1"} {
		var r struct {
			Object string `json:"object"`
			Status string `json:"status"`
			Usage  struct {
				InputTokens int64 `json:"input_tokens"`
			} `json:"usage"`
		}
		require.NoError(t, json.Unmarshal(out[id].Response.Body, &r))
		assert.Equal(t, "response", r.Object)
		assert.Equal(t, "completed", r.Status)
		inputTokens += r.Usage.InputTokens
	}
	assert.Equal(t, inputTokens, rb.Usage.InputTokens)

	eb := newBatch(t, client, jsonl(line("e-0", "/v1/embeddings", `{"model":"text-embedding-3-small","input":"hello"}`)),
		openai.BatchNewParamsEndpointV1Embeddings)
	require.Equal(t, openai.BatchStatusCompleted, eb.Status)
	out, _ = fileLines(t, client, eb.OutputFileID)
	var emb openai.CreateEmbeddingResponse
	require.NoError(t, json.Unmarshal(out["e-0"].Response.Body, &emb))
	require.Len(t, emb.Data, 1)
	assert.NotEmpty(t, emb.Data[0].Embedding)
	assert.Equal(t, emb.Usage.PromptTokens, eb.Usage.InputTokens)
	assert.Equal(t, "text-embedding-3-small", eb.Model)
}
