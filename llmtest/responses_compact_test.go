package llmtest_test

import (
	"encoding/json"
	"errors"
	"net/http"
	"testing"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
	"github.com/openai/openai-go/v3/responses"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/llmtestserver/llmtestserver/internal/e2e"
	"github.com/llmtestserver/llmtestserver/llmtest"
)

// Responses.Compact turns a conversation into its user messages and one
// compaction item, taking no reply; the next request sends that window
// with its new message and is answered over it, while a compaction item
// the server did not make is refused, and so is a body the Responses API
// refuses.
func TestResponsesCompact(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t)
	sess := srv.NewSession(t)
	sess.Chat("after").Responds("Still here.")
	client := e2e.ClientFor(sess, "k")
	input := []responses.ResponseInputItemUnionParam{
		responses.ResponseInputItemParamOfMessage("Plan a trip to Rome.", responses.EasyInputMessageRoleUser),
		responses.ResponseInputItemParamOfMessage("Day one: the Forum.", responses.EasyInputMessageRoleAssistant),
		responses.ResponseInputItemParamOfMessage("And day two?", responses.EasyInputMessageRoleUser),
	}
	c, err := client.Responses.Compact(t.Context(), responses.ResponseCompactParams{Model: "gpt-4.1-mini",
		Input: responses.ResponseCompactParamsInputUnion{OfResponseInputItemArray: input}})
	require.NoError(t, err)
	for name, f := range map[string]interface{ Valid() bool }{"id": c.JSON.ID, "created_at": c.JSON.CreatedAt,
		"object": c.JSON.Object, "output": c.JSON.Output, "usage": c.JSON.Usage} {
		assert.True(t, f.Valid(), "%s is required", name)
	}
	assert.Equal(t, "response.compaction", string(c.Object))
	var types []string
	for _, it := range c.Output {
		types = append(types, it.Type)
	}
	assert.Equal(t, []string{"message", "message", "compaction"}, types, "the user messages, then the compaction")
	assert.NotEmpty(t, c.Output[2].EncryptedContent)
	assert.Positive(t, c.Usage.InputTokens)
	assert.Equal(t, 1, sess.Pending(), "compaction takes no reply")

	// The window goes back as the next input, with a new message.
	var items []json.RawMessage
	for _, it := range c.Output {
		items = append(items, json.RawMessage(it.RawJSON()))
	}
	next := func(items []json.RawMessage) e2e.Reply {
		all := append(append([]json.RawMessage{}, items...), json.RawMessage(`{"role":"user","content":"Day three?"}`))
		body, err := json.Marshal(map[string]any{"model": "gpt-4.1-mini", "input": all})
		require.NoError(t, err)
		return e2e.Call(t, srv.Client(), "POST", sess.BaseURL()+"/responses", string(body), e2e.Join(e2e.SelectorOf(sess), e2e.Bearer("k"))...)
	}
	r := next(items)
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	assert.Contains(t, string(r.Body), "Still here.")

	forged := append([]json.RawMessage{}, items[:2]...)
	forged = append(forged, json.RawMessage(`{"type":"compaction","id":"cmp_1","encrypted_content":"gAAAA-not-ours"}`))
	r = next(forged)
	assert.Equal(t, http.StatusBadRequest, r.Status)
	_, _, param, _ := r.APIError(t)
	assert.Equal(t, "input[2].encrypted_content", param)

	_, err = client.Responses.Compact(t.Context(), responses.ResponseCompactParams{Model: "gpt-4.1-mini",
		Input: responses.ResponseCompactParamsInputUnion{OfString: openai.String("hi")}}, option.WithJSONSet("temperature", "hot"))
	var apiErr *openai.Error
	require.True(t, errors.As(err, &apiErr), "err %v", err)
	assert.Equal(t, http.StatusBadRequest, apiErr.StatusCode)
}
