package llmtest_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/llmtestserver/llmtestserver/internal/e2e"
	"github.com/llmtestserver/llmtestserver/llmtest"
	"github.com/llmtestserver/llmtestserver/scenario"
)

// anthropicError is Anthropic's error envelope.
type anthropicError struct {
	Type  string `json:"type"`
	Error struct {
		Type    string `json:"type"`
		Message string `json:"message"`
		Details *struct {
			ErrorCode string `json:"error_code"`
		} `json:"details"`
	} `json:"error"`
	RequestID string `json:"request_id"`
}

func decodeAnthropicError(t *testing.T, r e2e.Reply) anthropicError {
	t.Helper()
	var e anthropicError
	require.NoError(t, json.Unmarshal(r.Body, &e), "body %s", r.Body)
	require.Equal(t, "error", e.Type, "body %s", r.Body)
	return e
}

// GET /v1/models answers in the shape of the provider whose headers the
// request carries.
func TestModelsAnswerInTheCallersShape(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t)
	sess := srv.NewSession(t)
	sel := e2e.SelectorOf(sess)

	openai := e2e.Call(t, srv.Client(), "GET", sess.BaseURL()+"/models", "", sel...)
	require.Equal(t, http.StatusOK, openai.Status)
	var list struct {
		Object string `json:"object"`
		Data   []struct {
			ID, Object string
		} `json:"data"`
	}
	require.NoError(t, json.Unmarshal(openai.Body, &list))
	assert.Equal(t, "list", list.Object)
	require.NotEmpty(t, list.Data)
	assert.True(t, strings.HasPrefix(list.Data[0].ID, "gpt") || strings.HasPrefix(list.Data[0].ID, "o"), "first OpenAI model %q", list.Data[0].ID)
	assert.NotEmpty(t, openai.Header.Get("X-Request-Id"))

	claude := e2e.Call(t, srv.Client(), "GET", sess.AnthropicBaseURL()+"/v1/models", "", append(sel, "anthropic-version", "2026-10-21")...)
	require.Equal(t, http.StatusOK, claude.Status, "body %s", claude.Body)
	var page struct {
		Data []struct {
			Type, ID    string
			DisplayName string `json:"display_name"`
		} `json:"data"`
		HasMore bool   `json:"has_more"`
		FirstID string `json:"first_id"`
	}
	require.NoError(t, json.Unmarshal(claude.Body, &page))
	require.NotEmpty(t, page.Data)
	assert.Equal(t, "model", page.Data[0].Type)
	assert.True(t, strings.HasPrefix(page.Data[0].ID, "claude-"), "first Anthropic model %q", page.Data[0].ID)
	assert.NotEmpty(t, page.Data[0].DisplayName)
	assert.Equal(t, page.Data[0].ID, page.FirstID)
	assert.True(t, strings.HasPrefix(claude.Header.Get("Request-Id"), "req_"), "request-id %q", claude.Header.Get("Request-Id"))

	one := e2e.Call(t, srv.Client(), "GET", sess.AnthropicBaseURL()+"/v1/models/claude-haiku-4-5", "", append(sel, "x-api-key", "k", "anthropic-version", e2e.AnthropicVersion)...)
	require.Equal(t, http.StatusOK, one.Status, "body %s", one.Body)
	assert.Contains(t, string(one.Body), `"display_name":"Claude Haiku 4.5"`)

	entries := sess.Journal().Entries()
	require.Len(t, entries, 3)
	assert.Equal(t, []string{"openai", "anthropic", "anthropic"}, []string{entries[0].Provider, entries[1].Provider, entries[2].Provider})
}

// Errors before any runtime is chosen, and errors of the core, come in the
// envelope of the provider the request speaks.
func TestCoreErrorsInTheProvidersEnvelope(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t)
	sess := srv.NewSession(t)

	gone := e2e.Call(t, srv.Client(), "POST", sess.AnthropicBaseURL()+"/v1/messages", e2e.MessagesBody, "X-Llm-Test-Server-Session", sess.ID(),
		"X-Llm-Test-Server-Session-Key", "wrong")
	require.Equal(t, http.StatusNotFound, gone.Status)
	e := decodeAnthropicError(t, gone)
	assert.Equal(t, "not_found_error", e.Error.Type)
	require.NotNil(t, e.Error.Details)
	assert.Equal(t, "session_not_found", e.Error.Details.ErrorCode)

	miss := e2e.Call(t, srv.Client(), "POST", sess.AnthropicBaseURL()+"/v1/messages", e2e.MessagesBody, e2e.AnthropicSelectorOf(sess)...)
	require.Equal(t, http.StatusBadRequest, miss.Status)
	e = decodeAnthropicError(t, miss)
	assert.Equal(t, "invalid_request_error", e.Error.Type)
	assert.Equal(t, "llm_test_server_no_scenario", e.Error.Details.ErrorCode)
	assert.Equal(t, miss.Header.Get("Request-Id"), e.RequestID)

	doubled := e2e.Call(t, srv.Client(), "POST", sess.AnthropicBaseURL()+"/v1/v1/messages", e2e.MessagesBody, append(e2e.SelectorOf(sess), "anthropic-version", "2026-10-21")...)
	require.Equal(t, http.StatusNotFound, doubled.Status)
	assert.Contains(t, decodeAnthropicError(t, doubled).Error.Message, "AnthropicBaseURL()")

	wrongMethod := e2e.Call(t, srv.Client(), "GET", sess.AnthropicBaseURL()+"/v1/messages", "", e2e.AnthropicSelectorOf(sess)...)
	require.Equal(t, http.StatusMethodNotAllowed, wrongMethod.Status)
	assert.Equal(t, "POST", wrongMethod.Header.Get("Allow"))
	decodeAnthropicError(t, wrongMethod)
}

// One neutral error kind becomes each provider's own status and type.
func TestErrorKindsMapPerProvider(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t)
	sess := srv.NewSession(t)
	sess.Chat("busy").Reply(
		scenario.Reply{Error: &scenario.Error{Kind: scenario.ErrorOverloaded}},
		scenario.Reply{Error: &scenario.Error{Kind: scenario.ErrorOverloaded}},
		scenario.Reply{Error: &scenario.Error{Kind: scenario.ErrorRateLimit, Headers: map[string]string{"Retry-After": "0"}}},
		scenario.Reply{Error: &scenario.Error{Kind: scenario.ErrorRateLimit, Headers: map[string]string{"Retry-After": "0"}}},
	)
	sel := e2e.SelectorOf(sess)

	r := e2e.Call(t, srv.Client(), "POST", sess.BaseURL()+"/chat/completions", e2e.ChatBody(e2e.ReplyModel, "Hi"), sel...)
	assert.Equal(t, http.StatusServiceUnavailable, r.Status)
	_, typ, _, _ := r.APIError(t)
	assert.Equal(t, "server_error", typ)

	r = e2e.Call(t, srv.Client(), "POST", sess.AnthropicBaseURL()+"/v1/messages", e2e.MessagesBody, append(sel, "anthropic-version", e2e.AnthropicVersion)...)
	assert.Equal(t, 529, r.Status)
	e := decodeAnthropicError(t, r)
	assert.Equal(t, "overloaded_error", e.Error.Type)
	assert.Equal(t, "Overloaded", e.Error.Message)

	r = e2e.Call(t, srv.Client(), "POST", sess.BaseURL()+"/chat/completions", e2e.ChatBody(e2e.ReplyModel, "Hi"), sel...)
	assert.Equal(t, http.StatusTooManyRequests, r.Status)
	assert.Equal(t, "0", r.Header.Get("Retry-After"))

	r = e2e.Call(t, srv.Client(), "POST", sess.AnthropicBaseURL()+"/v1/messages", e2e.MessagesBody, append(sel, "anthropic-version", e2e.AnthropicVersion)...)
	assert.Equal(t, http.StatusTooManyRequests, r.Status)
	assert.Equal(t, "rate_limit_error", decodeAnthropicError(t, r).Error.Type)
	assert.Equal(t, "0", r.Header.Get("Retry-After"))

	codes := []string{}
	for _, e := range sess.Journal().Entries() {
		codes = append(codes, e.Provider+" "+e.ErrorCode)
	}
	assert.Equal(t, []string{"openai server_error", "anthropic overloaded_error", "openai requests", "anthropic rate_limit_error"}, codes)
}
