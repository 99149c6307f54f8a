package anthropic_test

import (
	"encoding/json"
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/llmtestserver/llmtestserver/internal/e2e"
	"github.com/llmtestserver/llmtestserver/llmtest"
	"github.com/llmtestserver/llmtestserver/session"
)

// The version and beta headers Anthropic's SDKs send are journaled.
func TestAnthropicVersionAndBetasJournaled(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t)
	sess := srv.NewSession(t)
	sess.Chat("hi").Responds("hello").Repeat()
	url := sess.AnthropicBaseURL() + "/v1/messages"
	with := e2e.Call(t, srv.Client(), "POST", url, e2e.MessagesBody, append(e2e.AnthropicSelectorOf(sess),
		"anthropic-beta", "context-1m-2025-08-07, interleaved-thinking-2025-05-14", "anthropic-beta", "message-threads-2026-08-12")...)
	require.Equal(t, http.StatusOK, with.Status, "body %s", with.Body)

	entries := sess.Journal().Entries()
	require.Len(t, entries, 1)
	assert.Equal(t, e2e.AnthropicVersion, entries[0].APIVersion)
	assert.Equal(t, []string{"context-1m-2025-08-07", "interleaved-thinking-2025-05-14", "message-threads-2026-08-12"}, entries[0].Betas)
}

// A missing or unpublished anthropic-version and an unknown anthropic-beta
// value are refused in the API's words, on every route, using no reply;
// session.RelaxAPIHeaders serves them and still journals what was sent.
func TestAnthropicHeadersRefusedAsTheAPIDoes(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t)
	strict := srv.NewSession(t)
	strict.Chat("hi").Responds("hello").Repeat()
	sel := e2e.SelectorOf(strict)
	cases := []struct {
		name, method, path, body string
		headers                  []string
		message                  string
	}{
		{"no version", "POST", "/v1/messages", e2e.MessagesBody, nil, "anthropic-version: header is required"},
		{"no version, count_tokens", "POST", "/v1/messages/count_tokens", `{"model":"claude-sonnet-5-5","messages":[{"role":"user","content":"Hi"}]}`, nil,
			"anthropic-version: header is required"},
		// x-api-key tells an Anthropic models request from OpenAI's.
		{"no version, models", "GET", "/v1/models", "", []string{"x-api-key", "k"}, "anthropic-version: header is required"},
		{"unpublished version", "POST", "/v1/messages", e2e.MessagesBody, []string{"anthropic-version", "2024-10-22"},
			`anthropic-version: "2024-10-22" is not a valid version`},
		{"version sent twice", "POST", "/v1/messages", e2e.MessagesBody, []string{"anthropic-version", "2023-06-01", "anthropic-version", "2023-06-01"},
			`anthropic-version: "2023-06-01, 2023-06-01" is not a valid version`},
		{"unknown beta", "POST", "/v1/messages", e2e.MessagesBody, []string{"anthropic-version", e2e.AnthropicVersion, "anthropic-beta", "context-1m-2025-08-07,bogus"},
			"Unexpected value(s) `bogus` for the `anthropic-beta` header. Please consult our documentation at docs.anthropic.com or try again without the header."},
		{"two unknown betas", "GET", "/v1/models", "", []string{"anthropic-version", e2e.AnthropicVersion, "anthropic-beta", "x", "anthropic-beta", "y"},
			"Unexpected value(s) `x`, `y` for the `anthropic-beta` header. Please consult our documentation at docs.anthropic.com or try again without the header."},
	}
	for _, c := range cases {
		r := e2e.Call(t, srv.Client(), c.method, strict.AnthropicBaseURL()+c.path, c.body, append(append([]string{}, sel...), c.headers...)...)
		assert.Equal(t, http.StatusBadRequest, r.Status, c.name)
		var e struct {
			Type  string `json:"type"`
			Error struct {
				Type    string `json:"type"`
				Message string `json:"message"`
			} `json:"error"`
			RequestID string `json:"request_id"`
		}
		require.NoError(t, json.Unmarshal(r.Body, &e), c.name)
		assert.Equal(t, "error", e.Type, c.name)
		assert.Equal(t, "invalid_request_error", e.Error.Type, c.name)
		assert.Equal(t, c.message, e.Error.Message, c.name)
		assert.Equal(t, r.Header.Get("Request-Id"), e.RequestID, c.name)
	}
	assert.Equal(t, 1, strict.Pending(), "a refused request takes no reply")

	relaxed := srv.NewSession(t, session.RelaxAPIHeaders())
	relaxed.Chat("hi").Responds("hello").Repeat()
	for _, c := range cases {
		r := e2e.Call(t, srv.Client(), c.method, relaxed.AnthropicBaseURL()+c.path, c.body, append(e2e.SelectorOf(relaxed), c.headers...)...)
		assert.Equal(t, http.StatusOK, r.Status, "%s: %s", c.name, r.Body)
	}
	entries := relaxed.Journal().Entries()
	require.Len(t, entries, len(cases))
	assert.Equal(t, "2024-10-22", entries[3].APIVersion)
	assert.Equal(t, []string{"x", "y"}, entries[6].Betas)
}
