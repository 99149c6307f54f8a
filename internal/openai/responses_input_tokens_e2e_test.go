package openai_test

import (
	"errors"
	"net/http"
	"testing"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/responses"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/llmtestserver/llmtestserver/internal/e2e"
	"github.com/llmtestserver/llmtestserver/llmtest"
	"github.com/llmtestserver/llmtestserver/session"
)

// POST /v1/responses/input_tokens counts what POST /v1/responses reports as
// its input tokens for the same body (instructions and tools included),
// takes no reply, and is journaled.
func TestResponsesInputTokensCountsAsTheUsage(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t)
	sess := srv.NewSession(t)
	sess.Chat("once").Responds("The only reply.") // not Repeat: a count must not take it
	client := e2e.ClientFor(sess, "k")
	ctx := t.Context()

	count, err := client.Responses.InputTokens.Count(ctx, responses.InputTokenCountParams{
		Model: openai.String(e2e.ResponsesModel), Input: e2e.CountInputText("What is the weather in Paris?"),
		Instructions: openai.String("Answer in one sentence."), Tools: e2e.WeatherTools(),
	})
	require.NoError(t, err)
	assert.Equal(t, "response.input_tokens", string(count.Object))

	r, err := client.Responses.New(ctx, responses.ResponseNewParams{Model: e2e.ResponsesModel,
		Input: e2e.InputText("What is the weather in Paris?"), Instructions: openai.String("Answer in one sentence."),
		Tools: e2e.WeatherTools()})
	require.NoError(t, err, "the reply is still there for the response")
	assert.Equal(t, "The only reply.", r.OutputText())
	assert.Equal(t, r.Usage.InputTokens, count.InputTokens)
	assert.Greater(t, count.InputTokens, int64(0))

	entries := e2e.JournalOf(t, sess, 2)
	assert.Equal(t, "/v1/responses/input_tokens", entries[0].Path)
	assert.Equal(t, http.StatusOK, entries[0].Status)
	assert.Equal(t, e2e.ResponsesModel, entries[0].Model)
	assert.Equal(t, "What is the weather in Paris?", entries[0].UserText)
	assert.Empty(t, entries[0].Scenario, "a count takes no reply")
}

// previous_response_id resolves the stored chain: the count is the input
// tokens of the response that continues it.
func TestResponsesInputTokensFollowsTheChain(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t)
	sess := srv.NewSession(t)
	sess.Chat("any").Responds("Paris is sunny today, with a light breeze from the west.").Repeat()
	client := e2e.ClientFor(sess, "k")
	ctx := t.Context()

	r1 := e2e.Respond(t, client, responses.ResponseNewParams{Model: e2e.ResponsesModel, Input: e2e.InputText("Weather in Paris?"),
		Instructions: openai.String("Be brief.")}, false)
	count, err := client.Responses.InputTokens.Count(ctx, responses.InputTokenCountParams{
		Model: openai.String(e2e.ResponsesModel), Input: e2e.CountInputText("And tomorrow?"),
		Instructions: openai.String("Be brief."), PreviousResponseID: openai.String(r1.ID),
	})
	require.NoError(t, err)
	r2 := e2e.Respond(t, client, responses.ResponseNewParams{Model: e2e.ResponsesModel, Input: e2e.InputText("And tomorrow?"),
		Instructions: openai.String("Be brief."), PreviousResponseID: openai.String(r1.ID)}, false)
	assert.Equal(t, r2.Usage.InputTokens, count.InputTokens)
	alone, err := client.Responses.InputTokens.Count(ctx, responses.InputTokenCountParams{
		Model: openai.String(e2e.ResponsesModel), Input: e2e.CountInputText("And tomorrow?"), Instructions: openai.String("Be brief."),
	})
	require.NoError(t, err)
	assert.Greater(t, count.InputTokens, alone.InputTokens, "the chain's turns count")
}

// The count refuses what POST /v1/responses refuses, with the same error.
func TestResponsesInputTokensErrorsAsTheResponsesAPI(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t)
	sess := srv.NewSession(t)
	client := e2e.ClientFor(sess, "k")
	ctx := t.Context()
	cases := []struct {
		name  string
		count responses.InputTokenCountParams
		resp  responses.ResponseNewParams
	}{
		{"unknown model",
			responses.InputTokenCountParams{Model: openai.String("gpt-nonexistent"), Input: e2e.CountInputText("Hi")},
			responses.ResponseNewParams{Model: "gpt-nonexistent", Input: e2e.InputText("Hi")}},
		{"unknown previous_response_id",
			responses.InputTokenCountParams{Model: openai.String(e2e.ResponsesModel), Input: e2e.CountInputText("Hi"),
				PreviousResponseID: openai.String("resp_unknown")},
			responses.ResponseNewParams{Model: e2e.ResponsesModel, Input: e2e.InputText("Hi"), PreviousResponseID: openai.String("resp_unknown")}},
		{"embedding model",
			responses.InputTokenCountParams{Model: openai.String("text-embedding-3-small"), Input: e2e.CountInputText("Hi")},
			responses.ResponseNewParams{Model: "text-embedding-3-small", Input: e2e.InputText("Hi")}},
		{"tool output answering no call",
			responses.InputTokenCountParams{Model: openai.String(e2e.ResponsesModel), Input: responses.InputTokenCountParamsInputUnion{
				OfResponseInputItemArray: []responses.ResponseInputItemUnionParam{e2e.CallOutput("call_none", "18C")}}},
			responses.ResponseNewParams{Model: e2e.ResponsesModel, Input: e2e.InputItems(e2e.CallOutput("call_none", "18C"))}},
	}
	for _, c := range cases {
		_, countErr := client.Responses.InputTokens.Count(ctx, c.count)
		_, respErr := client.Responses.New(ctx, c.resp)
		var got, want *openai.Error
		require.True(t, errors.As(countErr, &got), "%s: count error %v", c.name, countErr)
		require.True(t, errors.As(respErr, &want), "%s: response error %v", c.name, respErr)
		assert.Equal(t, want.StatusCode, got.StatusCode, c.name)
		assert.Equal(t, want.Code, got.Code, c.name)
		assert.Equal(t, want.Param, got.Param, c.name)
		assert.Equal(t, want.Type, got.Type, c.name)
		if c.name != "embedding model" { // that one names the endpoint's path
			assert.Equal(t, want.Message, got.Message, c.name)
		}
	}
	// A body that is no Responses request: no model.
	_, err := client.Responses.InputTokens.Count(ctx, responses.InputTokenCountParams{Input: e2e.CountInputText("Hi")})
	e2e.WantInvalidRequest(t, "a count without a model", err, http.StatusBadRequest, "missing_required_parameter", "model")
	// Only POST counts.
	r := e2e.Call(t, sess.HTTPClient(), http.MethodGet, sess.BaseURL()+"/responses/input_tokens", "", e2e.Bearer("k")...)
	assert.Equal(t, http.StatusMethodNotAllowed, r.Status)
}

// Counting takes no scripted reply, however often it is asked.
func TestResponsesInputTokensTakesNoReply(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t)
	sess := srv.NewSession(t, session.WithHistory(4))
	sess.Chat("once").Responds("Kept for the response.")
	client := e2e.ClientFor(sess, "k")
	ctx := t.Context()
	before := sess.Pending()
	for range 3 {
		_, err := client.Responses.InputTokens.Count(ctx, responses.InputTokenCountParams{
			Model: openai.String(e2e.ResponsesModel), Input: e2e.CountInputText("Hi")})
		require.NoError(t, err)
	}
	assert.Equal(t, before, sess.Pending())
}
