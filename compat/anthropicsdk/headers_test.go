package anthropicsdk_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/anthropics/anthropic-sdk-go/v2"
	"github.com/anthropics/anthropic-sdk-go/v2/option"
	"github.com/llmtestserver/llmtestserver/session"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const rawBody = `{"model":"claude-sonnet-5-5","max_tokens":10,"messages":[{"role":"user","content":"hi"}]}`

// TestVersionHeadersCheckedAsTheAPIDoes sends requests without
// anthropic-version, with one no API version has and with an unknown
// anthropic-beta: each gets the API's 400 and takes no reply; a session
// that relaxes header checks answers them, raw and streamed, and journals
// what they sent.
func TestVersionHeadersCheckedAsTheAPIDoes(t *testing.T) {
	t.Parallel()
	srv := newServer(t)
	strict := srv.NewSession(t)
	strict.Chat("x").Responds("hello").Repeat()
	refusals := []struct {
		opt     option.RequestOption
		message string
	}{
		{option.WithHeaderDel("anthropic-version"), "anthropic-version: header is required"},
		{option.WithHeader("anthropic-version", "1999-12-31"), `anthropic-version: "1999-12-31" is not a valid version`},
		{option.WithHeader("anthropic-beta", "made-up-2099-01-01"),
			"Unexpected value(s) `made-up-2099-01-01` for the `anthropic-beta` header. Please consult our documentation at docs.anthropic.com or try again without the header."},
	}
	client := clientFor(strict, "k", 0)
	for _, r := range refusals {
		_, err := client.Messages.New(t.Context(), userTurn("hi"), r.opt)
		apiErr := apiError(t, err)
		assert.Equal(t, 400, apiErr.StatusCode)
		assert.Equal(t, "invalid_request_error", string(apiErr.Type()))
		assert.Equal(t, r.message, apiErr.Message)
		assert.NotEmpty(t, apiErr.RequestID)
	}
	assert.Equal(t, 1, strict.Pending(), "a refused request takes no reply")

	// Betas the SDK names are accepted, and journaled in order.
	_, err := client.Beta.Messages.New(t.Context(), anthropic.BetaMessageNewParams{Model: model, MaxTokens: 64,
		Betas:    []anthropic.AnthropicBeta{anthropic.AnthropicBetaContext1m2025_08_07, anthropic.AnthropicBetaInterleavedThinking2025_05_14},
		Messages: []anthropic.BetaMessageParam{anthropic.NewBetaUserMessage(anthropic.NewBetaTextBlock("hi"))}})
	require.NoError(t, err)
	e, _ := strict.Journal().Last()
	assert.Equal(t, []string{"context-1m-2025-08-07", "interleaved-thinking-2025-05-14"}, e.Betas)

	relaxed := srv.NewSession(t, session.RequireAPIKey("k"), session.RelaxAPIHeaders())
	relaxed.Chat("x").Responds("hello").Repeat()
	r := rawPost(t, relaxed, "/v1/messages", rawBody, "Authorization", "Bearer k", "anthropic-version", "")
	require.Equal(t, 200, r.status, "body %s", r.body)
	var msg struct {
		Content []struct{ Text string } `json:"content"`
	}
	require.NoError(t, json.Unmarshal(r.body, &msg))
	require.Len(t, msg.Content, 1)
	assert.Equal(t, "hello", msg.Content[0].Text)
	assert.True(t, strings.HasPrefix(r.header.Get("request-id"), "req_"))

	r = rawPost(t, relaxed, "/v1/messages", strings.Replace(rawBody, `{`, `{"stream":true,`, 1), "Authorization", "Bearer k", "anthropic-version", "")
	require.Equal(t, 200, r.status, "body %s", r.body)
	assert.True(t, strings.HasPrefix(r.header.Get("Content-Type"), "text/event-stream"), r.header.Get("Content-Type"))
	assert.Contains(t, string(r.body), "event: message_start\n")
	assert.Contains(t, string(r.body), "event: message_stop\n")

	relaxedClient := clientFor(relaxed, "k", 0)
	for _, r := range refusals {
		m, err := relaxedClient.Messages.New(t.Context(), userTurn("hi"), r.opt)
		require.NoError(t, err, r.message)
		assert.Equal(t, "hello", m.Content[0].Text)
	}
	entries := relaxed.Journal().Entries()
	require.Len(t, entries, 5)
	for _, e := range entries {
		assert.Equal(t, 200, e.Status)
		assert.Equal(t, "anthropic", e.Provider)
	}
	assert.Empty(t, entries[2].APIVersion)
	assert.Equal(t, "1999-12-31", entries[3].APIVersion)
	assert.Equal(t, []string{"made-up-2099-01-01"}, entries[4].Betas)
}

// TestAPIKeyHeaders authenticates with x-api-key as curl and the older SDKs
// do, and with the bearer token v2 of the Go SDK sends.
func TestAPIKeyHeaders(t *testing.T) {
	t.Parallel()
	sess := newSession(t, session.RequireAPIKey("k"))
	sess.Chat("x").Responds("hello").Repeat()

	for _, h := range [][2]string{{"x-api-key", "k"}, {"Authorization", "Bearer k"}} {
		r := rawPost(t, sess, "/v1/messages", rawBody, h[0], h[1], "anthropic-version", "2023-06-01")
		assert.Equal(t, 200, r.status, "%s: body %s", h[0], r.body)
	}
	r := rawPost(t, sess, "/v1/messages", rawBody, "x-api-key", "wrong")
	assert.Equal(t, 401, r.status)
	assert.Equal(t, "authentication_error", r.envelope(t).Error.Type)

	// The SDK with x-api-key instead of its bearer token.
	client := clientFor(sess, "k", 0)
	m, err := client.Messages.New(t.Context(), userTurn("hi"),
		option.WithHeaderDel("Authorization"), option.WithHeader("x-api-key", "k"))
	require.NoError(t, err)
	assert.Equal(t, "hello", m.Content[0].Text)
}

// TestModelsShapeByHeaders lists GET /v1/models raw: Anthropic's headers
// (anthropic-version, or an x-api-key) get Anthropic's catalog, a request
// with neither OpenAI's.
func TestModelsShapeByHeaders(t *testing.T) {
	t.Parallel()
	sess := newSession(t)
	type list struct {
		Object string `json:"object"`
		Data   []struct {
			ID          string `json:"id"`
			Type        string `json:"type"`
			DisplayName string `json:"display_name"`
		} `json:"data"`
	}
	get := func(headers ...string) list {
		t.Helper()
		r := rawDo(t, sess, "GET", "/v1/models", "", headers...)
		require.Equal(t, 200, r.status, "body %s", r.body)
		var l list
		require.NoError(t, json.Unmarshal(r.body, &l))
		require.NotEmpty(t, l.Data)
		return l
	}
	for _, h := range [][]string{{"anthropic-version", "2026-10-21", "Authorization", "Bearer k"}, {"x-api-key", "k"}} {
		l := get(h...)
		assert.Empty(t, l.Object, "headers %v", h)
		assert.Equal(t, "model", l.Data[0].Type, "headers %v", h)
		assert.True(t, strings.HasPrefix(l.Data[0].ID, "claude-"), "headers %v", h)
		assert.NotEmpty(t, l.Data[0].DisplayName, "headers %v", h)
	}
	l := get("Authorization", "Bearer k", "anthropic-version", "")
	assert.Equal(t, "list", l.Object)
	assert.False(t, strings.HasPrefix(l.Data[0].ID, "claude-"))
}
