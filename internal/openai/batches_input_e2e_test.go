package openai_test

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/shared"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/llmtestserver/llmtestserver/internal/e2e"
	"github.com/llmtestserver/llmtestserver/scenario"
)

// An input file the API refuses does not refuse the batch's creation: the
// batch is created validating, and fails at the end of its plan's
// validation with its errors listed, each with its code, line number and
// param (bad JSONL, a line whose url is not the batch's endpoint, a
// duplicate custom_id, a line of another model, a missing field, an empty
// file, and at the file's level an unknown file and one of another
// purpose); no line is sent, no file written, no request counted.
func TestBatchInputRefusedFailsTheBatch(t *testing.T) {
	t.Parallel()
	clk, _, sess, client := batchSession(t)
	sess.Batches("validates").Reply(scenario.Job(scenario.JobPlan{Queued: 3 * time.Second, Running: time.Hour})).Repeat()
	answerOK(sess)
	other := strings.Replace(chatLine("c", "x"), `"gpt-4.1-mini"`, `"gpt-4.1"`, 1)
	wrongURL := strings.Replace(chatLine("b", "x"), `"url":"/v1/chat/completions"`, `"url":"/v1/embeddings"`, 1)
	cases := []struct {
		name, content string
		want          []openai.BatchError
	}{
		{"bad JSONL", jsonl(chatLine("a", "x"), `{"custom_id":"b",`, `[1,2]`), []openai.BatchError{
			{Code: "invalid_json_line", Line: 2, Message: "This line is not parseable as valid JSON."},
			{Code: "invalid_json_line", Line: 3, Message: "This line is not parseable as valid JSON."}}},
		{"wrong url", jsonl(chatLine("a", "x"), wrongURL), []openai.BatchError{{Code: "url_mismatch", Line: 2, Param: "url"}}},
		{"duplicate custom_id", jsonl(chatLine("a", "x"), chatLine("b", "y"), chatLine("a", "z")),
			[]openai.BatchError{{Code: "duplicate_custom_id", Line: 3, Param: "custom_id"}}},
		{"another model", jsonl(chatLine("a", "x"), "", other), []openai.BatchError{{Code: "model_mismatch", Line: 3, Param: "body.model"}}},
		{"no method", jsonl(`{"custom_id":"a","url":"/v1/chat/completions","body":{}}`),
			[]openai.BatchError{{Code: "missing_required_parameter", Line: 1, Param: "method", Message: "Missing required parameter: 'method'."}}},
		{"empty", "\n\n", []openai.BatchError{{Code: "empty_file"}}},
	}
	for _, c := range cases {
		created := newBatch(t, client, c.content, openai.BatchNewParamsEndpointV1ChatCompletions)
		assert.Equal(t, openai.BatchStatusValidating, created.Status, c.name)
		clk.Advance(3 * time.Second)
		b := getBatch(t, client, created.ID)
		require.Equal(t, openai.BatchStatusFailed, b.Status, c.name)
		assert.Equal(t, b.CreatedAt+3, b.FailedAt, c.name)
		assert.Equal(t, "list", b.Errors.Object, c.name)
		require.Len(t, b.Errors.Data, len(c.want), c.name)
		for i, w := range c.want {
			got := b.Errors.Data[i]
			assert.Equal(t, w.Code, got.Code, c.name)
			assert.Equal(t, w.Line, got.Line, c.name)
			assert.Equal(t, w.Param, got.Param, c.name)
			if w.Message != "" {
				assert.Equal(t, w.Message, got.Message, c.name)
			}
		}
		assert.Empty(t, b.OutputFileID, c.name)
		assert.Empty(t, b.ErrorFileID, c.name)
		assert.Zero(t, b.RequestCounts.Total, c.name)
		assert.Zero(t, b.InProgressAt, c.name)
	}

	// At the file's level: none by that ID, or one for another purpose.
	tune, err := client.Files.New(t.Context(), openai.FileNewParams{
		File: openai.File(strings.NewReader(chatLines("a")), "tune.jsonl", "application/jsonl"), Purpose: openai.FilePurposeFineTune})
	require.NoError(t, err)
	for id, code := range map[string]string{"file-missing": "file_not_found", tune.ID: "invalid_file_purpose"} {
		created, err := client.Batches.New(t.Context(), openai.BatchNewParams{InputFileID: id,
			Endpoint: openai.BatchNewParamsEndpointV1ChatCompletions, CompletionWindow: openai.BatchNewParamsCompletionWindow24h})
		require.NoError(t, err)
		clk.Advance(3 * time.Second)
		b := getBatch(t, client, created.ID)
		require.Equal(t, openai.BatchStatusFailed, b.Status, id)
		require.Len(t, b.Errors.Data, 1)
		assert.Equal(t, code, b.Errors.Data[0].Code)
		assert.Equal(t, "input_file_id", b.Errors.Data[0].Param)
		assert.Contains(t, b.Errors.Data[0].RawJSON(), `"line":null`)
	}
	for _, e := range sess.Journal().Entries() {
		assert.NotEqual(t, "/v1/chat/completions", e.Path, "no line sent")
	}
}

// A create the API refuses as a whole is a 400 in its envelope with its
// param: an endpoint this server's batches do not serve (in the API's
// words of an enum, listing those it serves), a completion window but
// 24h, a missing field, an unknown one, metadata past its bounds; no
// batch is kept and no reply taken.
func TestBatchCreateRefusals(t *testing.T) {
	t.Parallel()
	_, _, sess, client := batchSession(t)
	sess.Batches("never").Reply(atOnce)
	f := upload(t, client, chatLines("a"))
	params := func(edit func(*openai.BatchNewParams)) openai.BatchNewParams {
		p := openai.BatchNewParams{InputFileID: f.ID, Endpoint: openai.BatchNewParamsEndpointV1ChatCompletions,
			CompletionWindow: openai.BatchNewParamsCompletionWindow24h}
		edit(&p)
		return p
	}
	many := shared.Metadata{}
	for i := range 17 {
		many[strings.Repeat("k", i+1)] = "v"
	}
	cases := []struct {
		name        string
		params      openai.BatchNewParams
		code, param string
		message     string
	}{
		{"moderations", params(func(p *openai.BatchNewParams) { p.Endpoint = openai.BatchNewParamsEndpointV1Moderations }),
			"invalid_value", "endpoint", "Invalid value: '/v1/moderations'. Supported values are: '/v1/responses', '/v1/chat/completions', and '/v1/embeddings'."},
		{"no endpoint", params(func(p *openai.BatchNewParams) { p.Endpoint = "" }), "missing_required_parameter", "endpoint", ""},
		{"window", params(func(p *openai.BatchNewParams) { p.CompletionWindow = "1h" }), "invalid_value", "completion_window", ""},
		{"metadata", params(func(p *openai.BatchNewParams) { p.Metadata = many }), "object_above_max_properties", "metadata", ""},
		{"expiry", params(func(p *openai.BatchNewParams) {
			p.OutputExpiresAfter = openai.BatchNewParamsOutputExpiresAfter{Seconds: 10}
		}), "integer_below_min_value", "output_expires_after.seconds", ""},
	}
	for _, c := range cases {
		_, err := client.Batches.New(t.Context(), c.params)
		apiErr := e2e.OpenAIError(t, err)
		assert.Equal(t, http.StatusBadRequest, apiErr.StatusCode, c.name)
		assert.Equal(t, c.code, apiErr.Code, c.name)
		assert.Equal(t, c.param, apiErr.Param, c.name)
		if c.message != "" {
			assert.Equal(t, c.message, apiErr.Message, c.name)
		}
	}
	r := e2e.Call(t, sess.HTTPClient(), "POST", sess.BaseURL()+"/batches",
		`{"input_file_id":"`+f.ID+`","endpoint":"/v1/chat/completions","completion_window":"24h","priority":"high"}`, e2e.Bearer("k")...)
	r.WantError(t, http.StatusBadRequest, "unknown_parameter")
	r = e2e.Call(t, sess.HTTPClient(), "POST", sess.BaseURL()+"/batches", `{"endpoint":`, e2e.Bearer("k")...)
	assert.Equal(t, http.StatusBadRequest, r.Status)
	list, err := client.Batches.List(t.Context(), openai.BatchListParams{})
	require.NoError(t, err)
	assert.Empty(t, list.Data)
	assert.Equal(t, 1, sess.Pending(), "the batch's reply was not taken")
}
