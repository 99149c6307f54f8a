package openai_test

import (
	"net/http"
	"testing"

	"github.com/llmtestserver/llmtestserver/llmtest"
	"github.com/llmtestserver/llmtestserver/scenario"
	"github.com/llmtestserver/llmtestserver/session"
	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
	"github.com/openai/openai-go/v3/responses"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func snapshotClient(sess *session.Session) openai.Client {
	return openai.NewClient(option.WithBaseURL(sess.BaseURL()), option.WithAPIKey("k"),
		option.WithHTTPClient(sess.HTTPClient()), option.WithMaxRetries(0))
}

// Answers name the dated snapshot an alias points to, as the real API
// does, in every body, chunk and event of both APIs, and in a stored
// response; the journal keeps the name the request gave.
func TestAnswersNameTheSnapshot(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t)
	for _, tc := range []struct{ requested, answered string }{
		{"gpt-4o-mini", "gpt-4o-mini-2024-07-18"},
		{"gpt-5", "gpt-5-2025-08-07"},
		{"gpt-4.1-mini-2025-04-14", "gpt-4.1-mini-2025-04-14"}, // a snapshot answers as itself
		{"gpt-5-chat-latest", "gpt-5-chat-latest"},             // no snapshot: as named
	} {
		t.Run(tc.requested, func(t *testing.T) {
			sess := srv.NewSession(t)
			sess.Chat("hi").Responds("hello there").Repeat()
			client := snapshotClient(sess)
			ctx := t.Context()
			chatParams := openai.ChatCompletionNewParams{Model: tc.requested,
				Messages: []openai.ChatCompletionMessageParamUnion{openai.UserMessage("hi")}}

			chat, err := client.Chat.Completions.New(ctx, chatParams)
			require.NoError(t, err)
			assert.Equal(t, tc.answered, chat.Model)

			stream := client.Chat.Completions.NewStreaming(ctx, chatParams)
			chunks := 0
			for stream.Next() {
				chunks++
				assert.Equal(t, tc.answered, stream.Current().Model, "chunk %d", chunks)
			}
			require.NoError(t, stream.Err())
			require.Positive(t, chunks)

			respParams := responses.ResponseNewParams{Model: tc.requested,
				Input: responses.ResponseNewParamsInputUnion{OfString: openai.String("hi")}}
			resp, err := client.Responses.New(ctx, respParams)
			require.NoError(t, err)
			assert.Equal(t, tc.answered, resp.Model)
			stored, err := client.Responses.Get(ctx, resp.ID, responses.ResponseGetParams{})
			require.NoError(t, err)
			assert.Equal(t, tc.answered, stored.Model, "GET /v1/responses/{id}")

			events := client.Responses.NewStreaming(ctx, respParams)
			withResponse := 0
			for events.Next() {
				if ev := events.Current(); ev.Response.ID != "" {
					withResponse++
					assert.Equal(t, tc.answered, ev.Response.Model, "event %s", ev.Type)
				}
			}
			require.NoError(t, events.Err())
			assert.GreaterOrEqual(t, withResponse, 3, "created, in_progress and completed carry the response")

			for _, e := range sess.Journal().Entries() {
				if e.Method != http.MethodPost {
					continue // a GET names no model
				}
				assert.Equal(t, tc.requested, e.Model, "the journal keeps the requested name: %s", e.Path)
			}
		})
	}
}

// A reply's own model is named as scripted, on both APIs.
func TestScriptedModelIsEchoedAsScripted(t *testing.T) {
	t.Parallel()
	sess := llmtest.NewServer(t).NewSession(t)
	sess.Chat("m").Reply(scenario.Reply{Text: "x", Model: "my-model"}).Repeat()
	client := snapshotClient(sess)
	chat, err := client.Chat.Completions.New(t.Context(), openai.ChatCompletionNewParams{Model: "gpt-4o-mini",
		Messages: []openai.ChatCompletionMessageParamUnion{openai.UserMessage("hi")}})
	require.NoError(t, err)
	assert.Equal(t, "my-model", chat.Model)
	resp, err := client.Responses.New(t.Context(), responses.ResponseNewParams{Model: "gpt-5",
		Input: responses.ResponseNewParamsInputUnion{OfString: openai.String("hi")}})
	require.NoError(t, err)
	assert.Equal(t, "my-model", resp.Model)
}

// Matchers see the name the request gave, not the snapshot.
func TestMatchersSeeTheRequestedModel(t *testing.T) {
	t.Parallel()
	sess := llmtest.NewServer(t).NewSession(t)
	sess.Chat("alias").When(scenario.Match{Model: "gpt-4o-mini"}).Responds("by alias")
	client := snapshotClient(sess)
	chat, err := client.Chat.Completions.New(t.Context(), openai.ChatCompletionNewParams{Model: "gpt-4o-mini",
		Messages: []openai.ChatCompletionMessageParamUnion{openai.UserMessage("hi")}})
	require.NoError(t, err)
	assert.Equal(t, "by alias", chat.Choices[0].Message.Content)
}

// Embeddings name the model as given, as the real API's do.
func TestEmbeddingsNameTheRequestedModel(t *testing.T) {
	t.Parallel()
	sess := llmtest.NewServer(t).NewSession(t)
	client := snapshotClient(sess)
	emb, err := client.Embeddings.New(t.Context(), openai.EmbeddingNewParams{Model: "text-embedding-3-small",
		Input: openai.EmbeddingNewParamsInputUnion{OfString: openai.String("hi")}})
	require.NoError(t, err)
	assert.Equal(t, "text-embedding-3-small", emb.Model)
}

// The catalog serves dated snapshots and current models, and GET
// /v1/models lists aliases and snapshots; a session whose allow-list names
// an alias serves its snapshots too (the code under test may send back the
// model an answer named), and nothing else.
func TestCatalogServesSnapshotsAndCurrentModels(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t)
	sess := srv.NewSession(t)
	sess.Chat("hi").Responds("hello").Repeat()
	client := snapshotClient(sess)
	for _, model := range []string{"gpt-4.1-mini-2025-04-14", "gpt-5-2025-08-07", "gpt-5.1", "gpt-5.5", "gpt-6-sol", "gpt-6.1-terra", "o3-pro"} {
		_, err := client.Responses.New(t.Context(), responses.ResponseNewParams{Model: model,
			Input: responses.ResponseNewParamsInputUnion{OfString: openai.String("hi")}})
		assert.NoError(t, err, model)
		m, err := client.Models.Get(t.Context(), model)
		if assert.NoError(t, err, model) {
			assert.Equal(t, model, m.ID)
		}
	}
	var ids []string
	pager := client.Models.ListAutoPaging(t.Context())
	for pager.Next() {
		ids = append(ids, pager.Current().ID)
	}
	require.NoError(t, pager.Err())
	assert.Subset(t, ids, []string{"gpt-4o-mini", "gpt-4o-mini-2024-07-18", "gpt-5", "gpt-5-2025-08-07", "gpt-6-astra", "sora-2-2025-10-06"})

	only := srv.NewSession(t, session.OnlyModels("gpt-4o-mini"))
	only.Chat("hi").Responds("hello").Repeat()
	onlyClient := snapshotClient(only)
	chat, err := onlyClient.Chat.Completions.New(t.Context(), openai.ChatCompletionNewParams{Model: "gpt-4o-mini",
		Messages: []openai.ChatCompletionMessageParamUnion{openai.UserMessage("hi")}})
	require.NoError(t, err)
	_, err = onlyClient.Chat.Completions.New(t.Context(), openai.ChatCompletionNewParams{Model: chat.Model,
		Messages: []openai.ChatCompletionMessageParamUnion{openai.UserMessage("hi")}})
	assert.NoError(t, err, "the snapshot an allowed alias answered as")
	_, err = onlyClient.Chat.Completions.New(t.Context(), openai.ChatCompletionNewParams{Model: "gpt-4o-2024-08-06",
		Messages: []openai.ChatCompletionMessageParamUnion{openai.UserMessage("hi")}})
	var apiErr *openai.Error
	require.ErrorAs(t, err, &apiErr, "a snapshot of an alias the session does not list")
	assert.Equal(t, http.StatusNotFound, apiErr.StatusCode)
}
