package llmtest_test

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
)

// Responses.Cancel refuses a response that was not created in the
// background, cancels a queued background one (and returns it unchanged
// when cancelled again), and answers an unknown ID and a wrong method as
// the other sub-routes do.
func TestResponsesCancel(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t)
	sess := srv.NewSession(t)
	sess.Chat("Hi").Responds("hello").Repeat()
	client := e2e.ClientFor(sess, "k")
	params := responses.ResponseNewParams{Model: "gpt-4.1-mini", Input: responses.ResponseNewParamsInputUnion{OfString: openai.String("Hi")}}

	sync, err := client.Responses.New(t.Context(), params)
	require.NoError(t, err)
	_, err = client.Responses.Cancel(t.Context(), sync.ID)
	var apiErr *openai.Error
	require.True(t, errors.As(err, &apiErr), "err %v", err)
	assert.Equal(t, http.StatusBadRequest, apiErr.StatusCode)
	assert.Equal(t, "invalid_request_error", apiErr.Type)
	assert.Equal(t, "Cannot cancel a synchronous response.", apiErr.Message)
	assert.Empty(t, apiErr.Param)
	got, err := client.Responses.Get(t.Context(), sync.ID, responses.ResponseGetParams{})
	require.NoError(t, err)
	assert.Equal(t, responses.ResponseStatusCompleted, got.Status, "a refused cancel changes nothing")

	params.Background = openai.Bool(true)
	params.Store = openai.Bool(true)
	background, err := client.Responses.New(t.Context(), params)
	require.NoError(t, err)
	assert.Equal(t, responses.ResponseStatusQueued, background.Status)
	for range 2 { // cancelling again returns the same response
		cancelled, err := client.Responses.Cancel(t.Context(), background.ID)
		require.NoError(t, err)
		assert.Equal(t, background.ID, cancelled.ID)
		assert.True(t, cancelled.Background)
		assert.Equal(t, responses.ResponseStatusCancelled, cancelled.Status)
	}

	_, err = client.Responses.Cancel(t.Context(), "resp_unknown")
	require.True(t, errors.As(err, &apiErr), "err %v", err)
	assert.Equal(t, http.StatusNotFound, apiErr.StatusCode)
	assert.Equal(t, "Response with id 'resp_unknown' not found.", apiErr.Message)

	wrong := e2e.Call(t, srv.Client(), "GET", sess.BaseURL()+"/responses/"+sync.ID+"/cancel", "", e2e.Join(e2e.SelectorOf(sess), e2e.Bearer("k"))...)
	assert.Equal(t, http.StatusMethodNotAllowed, wrong.Status)
	assert.Equal(t, "POST", wrong.Header.Get("Allow"))
}
