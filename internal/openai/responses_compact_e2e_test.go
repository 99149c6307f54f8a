package openai_test

import (
	"net/http"
	"reflect"
	"strings"
	"testing"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/responses"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/llmtestserver/llmtestserver/internal/e2e"
	"github.com/llmtestserver/llmtestserver/llmtest"
	"github.com/llmtestserver/llmtestserver/session"
)

// Responses.Compact returns a CompactedResponse with every field openai-go
// requires: the user messages kept, then one compaction item, and usage
// whose input tokens are those the Responses route counts. The compaction
// item is accepted back as input, counting a few tokens; a forged one is
// refused, and so is a bad body, in OpenAI's envelope.
func TestResponsesCompact(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t)
	sess := srv.NewSession(t)
	sess.Chat("Hi").Responds("hello").Repeat()
	client := e2e.ClientFor(sess, "k")

	first, err := client.Responses.New(t.Context(), responses.ResponseNewParams{Model: "gpt-4.1-mini", Input: e2e.InputText("Hi")})
	require.NoError(t, err)
	count, err := client.Responses.InputTokens.Count(t.Context(), responses.InputTokenCountParams{
		Model: openai.String("gpt-4.1-mini"), PreviousResponseID: openai.String(first.ID), Input: e2e.CountInputText("Hi")})
	require.NoError(t, err)

	compacted, err := client.Responses.Compact(t.Context(), responses.ResponseCompactParams{
		Model: "gpt-4.1-mini", PreviousResponseID: openai.String(first.ID),
		Input: responses.ResponseCompactParamsInputUnion{OfString: openai.String("Hi")},
	})
	require.NoError(t, err)
	requireFields(t, "compacted", reflect.ValueOf(compacted))
	assert.True(t, strings.HasPrefix(compacted.ID, "resp_"), compacted.ID)
	assert.Equal(t, "response.compaction", string(compacted.Object))
	assert.NotZero(t, compacted.CreatedAt)
	require.Len(t, compacted.Output, 3, "two user messages, one compaction item")
	for _, it := range compacted.Output[:2] {
		assert.Equal(t, "message", it.Type)
		assert.Equal(t, "user", string(it.Role))
	}
	item := compacted.Output[2].AsCompaction()
	assert.Equal(t, "compaction", string(item.Type))
	assert.True(t, strings.HasPrefix(item.ID, "cmp_"), item.ID)
	assert.True(t, strings.HasPrefix(item.EncryptedContent, "gAAAAAB"), item.EncryptedContent)
	assert.Equal(t, count.InputTokens, compacted.Usage.InputTokens, "input tokens as the Responses route counts them")
	assert.Positive(t, compacted.Usage.OutputTokens)
	assert.Equal(t, compacted.Usage.InputTokens+compacted.Usage.OutputTokens, compacted.Usage.TotalTokens)

	entries := e2e.JournalOf(t, sess, 3)
	entry := entries[2]
	assert.Equal(t, "/v1/responses/compact", entry.Path)
	assert.Equal(t, "gpt-4.1-mini", entry.Model)
	assert.Equal(t, "Hi", entry.UserText)
	assert.Equal(t, http.StatusOK, entry.Status)
	assert.Empty(t, entry.ReplyText, "compaction takes no scripted reply")

	// compact is a route of its own, not the ID of a stored response.
	get := e2e.Call(t, srv.Client(), "GET", sess.BaseURL()+"/responses/compact", "", e2e.Join(e2e.SelectorOf(sess), e2e.Bearer("k"))...)
	assert.Equal(t, http.StatusMethodNotAllowed, get.Status)

	// The compacted window goes back as the next turn's input.
	var next []responses.ResponseInputItemUnionParam
	for _, it := range compacted.Output[:2] {
		next = append(next, responses.ResponseInputItemParamOfMessage(it.AsMessage().Content[0].Text, responses.EasyInputMessageRoleUser))
	}
	next = append(next, responses.ResponseInputItemUnionParam{OfCompaction: &responses.ResponseCompactionItemParam{
		ID: openai.String(item.ID), EncryptedContent: item.EncryptedContent}})
	next = append(next, responses.ResponseInputItemParamOfMessage("Hi", responses.EasyInputMessageRoleUser))
	after, err := client.Responses.New(t.Context(), responses.ResponseNewParams{Model: "gpt-4.1-mini", Input: e2e.InputItems(next...)})
	require.NoError(t, err)
	assert.Equal(t, "hello", after.OutputText())
	plain, err := client.Responses.New(t.Context(), responses.ResponseNewParams{Model: "gpt-4.1-mini",
		Input: e2e.InputItems(append(next[:2:2], next[3])...)})
	require.NoError(t, err)
	assert.Equal(t, plain.Usage.InputTokens+8, after.Usage.InputTokens, "the compaction item counts a few tokens")

	forged := responses.ResponseInputItemUnionParam{OfCompaction: &responses.ResponseCompactionItemParam{EncryptedContent: "gAAAAABforgedcontent=="}}
	_, err = client.Responses.New(t.Context(), responses.ResponseNewParams{Model: "gpt-4.1-mini",
		Input: e2e.InputItems(forged, responses.ResponseInputItemParamOfMessage("Hi", responses.EasyInputMessageRoleUser))})
	apiErr := e2e.WantInvalidRequest(t, "forged compaction", err, http.StatusBadRequest, "invalid_encrypted_content", "")
	assert.Contains(t, apiErr.Message, "gAAA...nt== could not be verified")

	bad := e2e.Call(t, srv.Client(), "POST", sess.BaseURL()+"/responses/compact", `{"model":"gpt-4.1-mini","input":"Hi","tools":[]}`,
		e2e.Join(e2e.SelectorOf(sess), e2e.Bearer("k"))...)
	bad.WantError(t, http.StatusBadRequest, "unknown_parameter")
	missing := e2e.Call(t, srv.Client(), "POST", sess.BaseURL()+"/responses/compact", `{"input":"Hi"}`,
		e2e.Join(e2e.SelectorOf(sess), e2e.Bearer("k"))...)
	missing.WantError(t, http.StatusBadRequest, "missing_required_parameter")
	empty := e2e.Call(t, srv.Client(), "POST", sess.BaseURL()+"/responses/compact", `{"model":"gpt-4.1-mini"}`,
		e2e.Join(e2e.SelectorOf(sess), e2e.Bearer("k"))...)
	empty.WantError(t, http.StatusBadRequest, "missing_required_parameter")
}

// Responses.Compact refuses a field it does not know, in OpenAI's words,
// unless the session allows unknown parameters; a compaction request
// takes no scripted reply, so a session with none still compacts.
func TestResponsesCompactUnknownParameters(t *testing.T) {
	t.Parallel()
	params := responses.ResponseCompactParams{Model: "gpt-4.1-mini",
		Input: responses.ResponseCompactParamsInputUnion{OfString: openai.String("Hi")}}
	params.SetExtraFields(map[string]any{"brand_new_knob": 3})

	strict := e2e.ClientFor(llmtest.NewServer(t).NewSession(t), "k")
	_, err := strict.Responses.Compact(t.Context(), params)
	apiErr := e2e.WantInvalidRequest(t, "unknown field", err, http.StatusBadRequest, "unknown_parameter", "brand_new_knob")
	assert.Equal(t, "Unknown parameter: 'brand_new_knob'.", apiErr.Message)

	lenient := e2e.ClientFor(llmtest.NewServer(t).NewSession(t, session.AllowUnknownParameters()), "k")
	got, err := lenient.Responses.Compact(t.Context(), params)
	require.NoError(t, err)
	require.Len(t, got.Output, 2)
	assert.Equal(t, "compaction", got.Output[1].Type)
}
