package openai_test

import (
	"errors"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/responses"
	"github.com/openai/openai-go/v3/shared"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/llmtestserver/llmtestserver/internal/e2e"
	"github.com/llmtestserver/llmtestserver/llmtest"
	"github.com/llmtestserver/llmtestserver/session"
)

const csModel = "gpt-4.1-mini"

// csStored answers params with store:true and the metadata given.
func csStored(t *testing.T, client openai.Client, text string, metadata shared.Metadata) *openai.ChatCompletion {
	t.Helper()
	params := e2e.UserTurn(csModel, text)
	params.Store = openai.Bool(true)
	params.Metadata = metadata
	c, err := client.Chat.Completions.New(t.Context(), params)
	require.NoError(t, err)
	return c
}

// csWantNotFound checks err is the 404 of an unknown stored completion.
func csWantNotFound(t *testing.T, what string, err error, id string) {
	t.Helper()
	var apiErr *openai.Error
	require.True(t, errors.As(err, &apiErr), "%s: err = %v", what, err)
	assert.Equal(t, http.StatusNotFound, apiErr.StatusCode, what)
	assert.Equal(t, "invalid_request_error", apiErr.Type, what)
	assert.Equal(t, fmt.Sprintf("Chat completion with id '%s' not found.", id), apiErr.Message, what)
}

// A completion created with store:true is retrieved, listed, its messages
// listed, its metadata updated, and deleted, through openai-go.
func TestChatStoredLifecycle(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t)
	sess := srv.NewSession(t)
	sess.Chat("any").Responds("Paris is sunny.").Repeat()
	client := e2e.ClientFor(sess, "k")
	ctx := t.Context()

	params := openai.ChatCompletionNewParams{Model: csModel, Store: openai.Bool(true),
		Metadata: shared.Metadata{"suite": "stored", "run": "1"},
		Messages: []openai.ChatCompletionMessageParamUnion{
			openai.SystemMessage("Be brief."),
			openai.UserMessage("Weather in Paris?"),
		}}
	created, err := client.Chat.Completions.New(ctx, params)
	require.NoError(t, err)

	got, err := client.Chat.Completions.Get(ctx, created.ID)
	require.NoError(t, err)
	assert.Equal(t, created.ID, got.ID)
	assert.Equal(t, "chat.completion", string(got.Object))
	assert.Equal(t, created.Created, got.Created)
	assert.Equal(t, created.Model, got.Model)
	require.Len(t, got.Choices, 1)
	assert.Equal(t, "Paris is sunny.", got.Choices[0].Message.Content)
	assert.Equal(t, created.Usage.PromptTokens, got.Usage.PromptTokens)
	assert.Equal(t, shared.Metadata{"suite": "stored", "run": "1"}, got.Metadata)

	page, err := client.Chat.Completions.List(ctx, openai.ChatCompletionListParams{})
	require.NoError(t, err)
	require.Len(t, page.Data, 1)
	assert.Equal(t, created.ID, page.Data[0].ID)
	assert.Equal(t, "Paris is sunny.", page.Data[0].Choices[0].Message.Content)
	assert.False(t, page.HasMore)

	msgs, err := client.Chat.Completions.Messages.List(ctx, created.ID, openai.ChatCompletionMessageListParams{})
	require.NoError(t, err)
	require.Len(t, msgs.Data, 2)
	assert.Equal(t, created.ID+"-0", msgs.Data[0].ID)
	assert.Equal(t, "system", string(msgs.Data[0].Role))
	assert.Equal(t, "Be brief.", msgs.Data[0].Content)
	assert.Equal(t, created.ID+"-1", msgs.Data[1].ID)
	assert.Equal(t, "user", string(msgs.Data[1].Role))
	assert.Equal(t, "Weather in Paris?", msgs.Data[1].Content)
	assert.Nil(t, msgs.Data[1].ContentParts)

	updated, err := client.Chat.Completions.Update(ctx, created.ID, openai.ChatCompletionUpdateParams{
		Metadata: shared.Metadata{"suite": "updated"}})
	require.NoError(t, err)
	assert.Equal(t, shared.Metadata{"suite": "updated"}, updated.Metadata)
	assert.Equal(t, "Paris is sunny.", updated.Choices[0].Message.Content)
	got, err = client.Chat.Completions.Get(ctx, created.ID)
	require.NoError(t, err)
	assert.Equal(t, shared.Metadata{"suite": "updated"}, got.Metadata)

	deleted, err := client.Chat.Completions.Delete(ctx, created.ID)
	require.NoError(t, err)
	assert.Equal(t, created.ID, deleted.ID)
	assert.Equal(t, "chat.completion.deleted", string(deleted.Object))
	assert.True(t, deleted.Deleted)

	_, err = client.Chat.Completions.Get(ctx, created.ID)
	csWantNotFound(t, "GET after DELETE", err, created.ID)
	_, err = client.Chat.Completions.Delete(ctx, created.ID)
	csWantNotFound(t, "DELETE after DELETE", err, created.ID)
	_, err = client.Chat.Completions.Update(ctx, created.ID, openai.ChatCompletionUpdateParams{Metadata: shared.Metadata{"a": "b"}})
	csWantNotFound(t, "update after DELETE", err, created.ID)
	_, err = client.Chat.Completions.Messages.List(ctx, created.ID, openai.ChatCompletionMessageListParams{})
	csWantNotFound(t, "messages after DELETE", err, created.ID)
	page, err = client.Chat.Completions.List(ctx, openai.ChatCompletionListParams{})
	require.NoError(t, err)
	assert.Empty(t, page.Data)
}

// Without store:true (absent or false), nothing is kept, streamed or not;
// a stream with store:true is kept as its non-streamed twin would be.
func TestChatStoredOnlyWithStoreTrue(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t)
	sess := srv.NewSession(t)
	sess.Chat("any").Responds("Streamed and kept.").Repeat()
	client := e2e.ClientFor(sess, "k")
	ctx := t.Context()

	for _, store := range []*bool{nil, openai.Ptr(false)} {
		params := e2e.UserTurn(csModel, "Not kept")
		if store != nil {
			params.Store = openai.Bool(*store)
		}
		c, err := client.Chat.Completions.New(ctx, params)
		require.NoError(t, err)
		_, err = client.Chat.Completions.Get(ctx, c.ID)
		csWantNotFound(t, "an unstored completion", err, c.ID)
		s := client.Chat.Completions.NewStreaming(ctx, params)
		var id string
		for s.Next() {
			id = s.Current().ID
		}
		require.NoError(t, s.Err())
		_, err = client.Chat.Completions.Get(ctx, id)
		csWantNotFound(t, "an unstored stream", err, id)
	}

	params := e2e.UserTurn(csModel, "Kept stream")
	params.Store = openai.Bool(true)
	params.StreamOptions = openai.ChatCompletionStreamOptionsParam{IncludeUsage: openai.Bool(true)}
	s := client.Chat.Completions.NewStreaming(ctx, params)
	acc := openai.ChatCompletionAccumulator{}
	for s.Next() {
		acc.AddChunk(s.Current())
	}
	require.NoError(t, s.Err())
	got, err := client.Chat.Completions.Get(ctx, acc.ID)
	require.NoError(t, err)
	assert.Equal(t, "Streamed and kept.", got.Choices[0].Message.Content)
	assert.Equal(t, acc.Usage.PromptTokens, got.Usage.PromptTokens)
	msgs, err := client.Chat.Completions.Messages.List(ctx, acc.ID, openai.ChatCompletionMessageListParams{})
	require.NoError(t, err)
	require.Len(t, msgs.Data, 1)
	assert.Equal(t, "Kept stream", msgs.Data[0].Content)
}

// The list pages as openai-go's cursor pagination expects, in both orders,
// filtered by model and metadata.
func TestChatStoredListPagesAndFilters(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t)
	sess := srv.NewSession(t)
	sess.Chat("any").Responds("ok").Repeat()
	client := e2e.ClientFor(sess, "k")
	ctx := t.Context()

	var ids []string
	for i := range 5 {
		c := csStored(t, client, fmt.Sprintf("question %d", i), shared.Metadata{"parity": []string{"even", "odd"}[i%2]})
		ids = append(ids, c.ID)
	}
	other := e2e.UserTurn("gpt-4o-mini", "another model")
	other.Store = openai.Bool(true)
	o, err := client.Chat.Completions.New(ctx, other)
	require.NoError(t, err)

	listed := func(params openai.ChatCompletionListParams) []string {
		t.Helper()
		var out []string
		iter := client.Chat.Completions.ListAutoPaging(ctx, params)
		for iter.Next() {
			out = append(out, iter.Current().ID)
		}
		require.NoError(t, iter.Err())
		return out
	}
	all := append(append([]string{}, ids...), o.ID)
	assert.Equal(t, all, listed(openai.ChatCompletionListParams{Limit: openai.Int(2)}), "ascending, two a page")
	reversed := make([]string, len(all))
	for i, id := range all {
		reversed[len(all)-1-i] = id
	}
	assert.Equal(t, reversed, listed(openai.ChatCompletionListParams{Limit: openai.Int(4),
		Order: openai.ChatCompletionListParamsOrderDesc}), "descending")
	assert.Equal(t, ids, listed(openai.ChatCompletionListParams{Model: openai.String(csModel)}), "by model")
	assert.Equal(t, []string{ids[1], ids[3]}, listed(openai.ChatCompletionListParams{
		Metadata: shared.Metadata{"parity": "odd"}}), "by metadata")
	assert.Empty(t, listed(openai.ChatCompletionListParams{Metadata: shared.Metadata{"parity": "none"}}))

	page, err := client.Chat.Completions.List(ctx, openai.ChatCompletionListParams{Limit: openai.Int(2)})
	require.NoError(t, err)
	assert.True(t, page.HasMore)
	r := e2e.Call(t, sess.HTTPClient(), http.MethodGet, sess.BaseURL()+"/chat/completions?limit=2", "", e2e.Bearer("k")...)
	require.Equal(t, http.StatusOK, r.Status)
	assert.Contains(t, string(r.Body), fmt.Sprintf(`"first_id":"%s","last_id":"%s","has_more":true`, ids[0], ids[1]))

	for _, q := range []string{"limit=0", "limit=101", "limit=x", "order=up", "after=chatcmpl-unknown"} {
		r := e2e.Call(t, sess.HTTPClient(), http.MethodGet, sess.BaseURL()+"/chat/completions?"+q, "", e2e.Bearer("k")...)
		assert.Equal(t, http.StatusBadRequest, r.Status, q)
	}
}

// The messages of a stored completion page too, with their IDs.
func TestChatStoredMessagesPage(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t)
	sess := srv.NewSession(t)
	sess.Chat("any").Responds("ok").Repeat()
	client := e2e.ClientFor(sess, "k")
	ctx := t.Context()
	params := openai.ChatCompletionNewParams{Model: csModel, Store: openai.Bool(true)}
	for i := range 5 {
		params.Messages = append(params.Messages, openai.UserMessage(fmt.Sprintf("turn %d", i)))
	}
	c, err := client.Chat.Completions.New(ctx, params)
	require.NoError(t, err)
	var texts []string
	iter := client.Chat.Completions.Messages.ListAutoPaging(ctx, c.ID, openai.ChatCompletionMessageListParams{
		Limit: openai.Int(2), Order: openai.ChatCompletionMessageListParamsOrderDesc})
	for iter.Next() {
		texts = append(texts, iter.Current().Content)
	}
	require.NoError(t, iter.Err())
	assert.Equal(t, []string{"turn 4", "turn 3", "turn 2", "turn 1", "turn 0"}, texts)
}

// Stored completions are per session.
func TestChatStoredIsolation(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t)
	a, b := srv.NewSession(t), srv.NewSession(t)
	a.Chat("a").Responds("From A.").Repeat()
	b.Chat("b").Responds("From B.").Repeat()
	clientA, clientB := e2e.ClientFor(a, "k"), e2e.ClientFor(b, "k")
	ctx := t.Context()
	c := csStored(t, clientA, "in A", nil)
	_, err := clientB.Chat.Completions.Get(ctx, c.ID)
	csWantNotFound(t, "another session's completion", err, c.ID)
	_, err = clientB.Chat.Completions.Delete(ctx, c.ID)
	csWantNotFound(t, "deleting another session's completion", err, c.ID)
	page, err := clientB.Chat.Completions.List(ctx, openai.ChatCompletionListParams{})
	require.NoError(t, err)
	assert.Empty(t, page.Data)
	_, err = clientA.Chat.Completions.Get(ctx, c.ID)
	require.NoError(t, err)
}

// An update changes metadata only, within the API's bounds; a refused
// update leaves the completion as it was.
func TestChatStoredUpdateRefuses(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t)
	sess := srv.NewSession(t)
	sess.Chat("any").Responds("ok").Repeat()
	client := e2e.ClientFor(sess, "k")
	ctx := t.Context()
	c := csStored(t, client, "hello", shared.Metadata{"keep": "me"})
	url := sess.BaseURL() + "/chat/completions/" + c.ID
	tooMany := map[string]string{}
	for i := range 17 {
		tooMany[fmt.Sprintf("k%d", i)] = "v"
	}
	for _, body := range []string{
		`{}`, `{"metadata":"x"}`, `{"metadata":{"k":1}}`, `not json`,
		`{"metadata":{"` + strings.Repeat("k", 65) + `":"v"}}`,
		`{"metadata":{"k":"` + strings.Repeat("v", 513) + `"}}`,
	} {
		r := e2e.Call(t, sess.HTTPClient(), http.MethodPost, url, body, e2e.Bearer("k")...)
		assert.Equal(t, http.StatusBadRequest, r.Status, body)
	}
	_, err := client.Chat.Completions.Update(ctx, c.ID, openai.ChatCompletionUpdateParams{Metadata: tooMany})
	e2e.WantInvalidRequest(t, "17 metadata pairs", err, http.StatusBadRequest, "object_above_max_properties", "metadata")
	got, err := client.Chat.Completions.Get(ctx, c.ID)
	require.NoError(t, err)
	assert.Equal(t, shared.Metadata{"keep": "me"}, got.Metadata)

	r := e2e.Call(t, sess.HTTPClient(), http.MethodPut, url, `{}`, e2e.Bearer("k")...)
	assert.Equal(t, http.StatusMethodNotAllowed, r.Status)
	r = e2e.Call(t, sess.HTTPClient(), http.MethodGet, url+"/other", "", e2e.Bearer("k")...)
	assert.Equal(t, http.StatusNotFound, r.Status)
	r = e2e.Call(t, sess.HTTPClient(), http.MethodDelete, sess.BaseURL()+"/chat/completions", "", e2e.Bearer("k")...)
	assert.Equal(t, http.StatusMethodNotAllowed, r.Status)
}

// Stored completions share the session's history with stored responses:
// one capacity bounds both, and neither API serves the other's records.
func TestChatStoredSharesTheHistoryBounds(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t)
	sess := srv.NewSession(t, session.WithHistory(2))
	sess.Chat("any").Responds("ok").Repeat()
	client := e2e.ClientFor(sess, "k")
	ctx := t.Context()

	r := e2e.Respond(t, client, responses.ResponseNewParams{Model: e2e.ResponsesModel, Input: e2e.InputText("a response")}, false)
	c1 := csStored(t, client, "first", nil)
	_, err := client.Responses.Get(ctx, c1.ID, responses.ResponseGetParams{})
	e2e.WantInvalidRequest(t, "a chat completion as a response", err, http.StatusNotFound, "", "")
	err = client.Responses.Delete(ctx, c1.ID)
	e2e.WantInvalidRequest(t, "deleting a chat completion as a response", err, http.StatusNotFound, "", "")
	_, err = client.Responses.New(ctx, responses.ResponseNewParams{Model: e2e.ResponsesModel, Input: e2e.InputText("go on"),
		PreviousResponseID: openai.String(c1.ID), Store: openai.Bool(false)})
	e2e.WantInvalidRequest(t, "continuing a chat completion", err, http.StatusBadRequest, "previous_response_not_found", "previous_response_id")
	_, err = client.Chat.Completions.Get(ctx, r.ID)
	csWantNotFound(t, "a response as a chat completion", err, r.ID)
	_, err = client.Chat.Completions.Get(ctx, c1.ID)
	require.NoError(t, err, "still kept")

	c2 := csStored(t, client, "second", nil) // the third record: the response goes
	_, err = client.Responses.Get(ctx, r.ID, responses.ResponseGetParams{})
	e2e.WantInvalidRequest(t, "the evicted response", err, http.StatusNotFound, "", "")
	c3 := csStored(t, client, "third", nil)
	_, err = client.Chat.Completions.Get(ctx, c1.ID)
	csWantNotFound(t, "the evicted completion", err, c1.ID)
	page, err := client.Chat.Completions.List(ctx, openai.ChatCompletionListParams{})
	require.NoError(t, err)
	require.Len(t, page.Data, 2)
	assert.Equal(t, []string{c2.ID, c3.ID}, []string{page.Data[0].ID, page.Data[1].ID})
}

// An update that makes a completion outgrow what the history leaves it
// never evicts that completion: it is refused and the completion stays as
// it was, or it is kept with its new metadata.
func TestChatStoredUpdateNeverEvictsItself(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t)
	sess := srv.NewSession(t, session.WithHistoryMaxBytes(4000))
	sess.Chat("any").Responds("ok").Repeat()
	client := e2e.ClientFor(sess, "k")
	ctx := t.Context()
	oldest := csStored(t, client, "first", shared.Metadata{"keep": "me"})
	csStored(t, client, "second", nil)
	csStored(t, client, "third", nil)
	big := shared.Metadata{"a": strings.Repeat("v", 500), "b": strings.Repeat("w", 500)}
	_, err := client.Chat.Completions.Update(ctx, oldest.ID, openai.ChatCompletionUpdateParams{Metadata: big})
	got, gerr := client.Chat.Completions.Get(ctx, oldest.ID)
	require.NoError(t, gerr, "the updated completion is still kept")
	if err != nil {
		e2e.WantInvalidRequest(t, "an update that does not fit", err, http.StatusBadRequest, "", "metadata")
		assert.Equal(t, shared.Metadata{"keep": "me"}, got.Metadata)
	} else {
		assert.Equal(t, big, got.Metadata)
	}
}
