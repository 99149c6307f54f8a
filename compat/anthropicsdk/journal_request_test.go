package anthropicsdk_test

import (
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/anthropics/anthropic-sdk-go/v2"
	"github.com/anthropics/anthropic-sdk-go/v2/option"
	"github.com/llmtestserver/llmtestserver/journal"
	"github.com/llmtestserver/llmtestserver/llmtest"
	"github.com/llmtestserver/llmtestserver/scenario"
	"github.com/llmtestserver/llmtestserver/session"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// journalSecret is the provider key the journal tests send, as the SDK's
// bearer token and as x-api-key.
const journalSecret = "sk-ant-journal-secret-0123456789"

// journaledParams is a request with a system prompt, a tool, a forced tool
// choice, metadata and a tool turn answered.
func journaledParams() anthropic.MessageNewParams {
	p := userTurn("Weather in Paris?")
	p.System = []anthropic.TextBlockParam{{Text: "You are a weather bot."}}
	p.Tools = []anthropic.ToolUnionParam{anthropic.ToolUnionParamOfTool(anthropic.ToolInputSchemaParam{
		Properties: map[string]any{"city": map[string]any{"type": "string"}}}, "get_weather")}
	p.ToolChoice = anthropic.ToolChoiceUnionParam{OfAny: &anthropic.ToolChoiceAnyParam{}}
	p.Metadata = anthropic.MetadataParam{UserID: anthropic.String("user-7")}
	p.Messages = append(p.Messages,
		anthropic.NewAssistantMessage(anthropic.NewToolUseBlock("toolu_1", map[string]string{"city": "Paris"}, "get_weather")),
		anthropic.NewUserMessage(anthropic.NewToolResultBlock("toolu_1", "21 degrees", false)))
	return p
}

// A Messages request's entry shows the system prompt, the messages with
// their tool use and results, the tools, the knobs and the SDK, with the
// bearer token and x-api-key redacted here and in GET /admin-api/journal;
// count_tokens records its request too.
func TestJournalRecordsMessagesRequest(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t)
	sess := srv.NewSession(t, session.RequireAPIKey(journalSecret), session.RedactHeaders("X-Tenant-Token"))
	sess.Chat("weather").Responds("Sunny.")
	client := anthropic.NewClient(option.WithBaseURL(sess.AnthropicBaseURL()), option.WithAPIKey(journalSecret),
		option.WithHTTPClient(sess.HTTPClient()), option.WithMaxRetries(0),
		option.WithHeader("X-Tenant-Token", "tenant-secret-value"))
	_, err := client.Messages.New(t.Context(), journaledParams(),
		option.WithJSONSet("temperature", 0.4), option.WithJSONSet("top_p", 0.9),
		// Sonnet 5 thinks by default, and thinking takes no temperature.
		option.WithJSONSet("thinking", map[string]any{"type": "disabled"}))
	require.NoError(t, err)

	entries := sess.Journal().Entries()
	require.Len(t, entries, 1)
	e := entries[0]
	assert.Equal(t, "messages", e.Endpoint)
	r := e.Request
	assert.Equal(t, "You are a weather bot.", r.System)
	assert.Equal(t, []journal.Message{
		{Role: "user", Text: "Weather in Paris?"},
		{Role: "assistant", ToolCalls: []journal.ToolCall{{ID: "toolu_1", Name: "get_weather", Arguments: `{"city":"Paris"}`}}},
		{Role: "tool", Text: "21 degrees", ToolCallID: "toolu_1"},
	}, r.Messages)
	assert.Equal(t, []string{"get_weather"}, r.Tools)
	assert.Equal(t, "required", r.ToolChoice)
	assert.Equal(t, 1024, r.MaxOutputTokens)
	require.NotNil(t, r.Temperature)
	require.NotNil(t, r.TopP)
	assert.Equal(t, 0.4, *r.Temperature)
	assert.Equal(t, 0.9, *r.TopP)
	assert.Equal(t, "user-7", r.User)
	assert.Equal(t, map[string]string{"user_id": "user-7"}, r.Metadata)
	assert.Contains(t, e.Body, `"temperature":0.4`)
	assert.Equal(t, int64(len(e.Body)), e.BodyBytes)

	assert.Equal(t, journal.Redacted, e.Headers["authorization"])
	assert.Equal(t, journal.Redacted, e.Headers["x-tenant-token"])
	assert.Equal(t, journal.Redacted, e.Headers[strings.ToLower(session.HeaderSessionKey)])
	assert.NotEmpty(t, e.Headers["anthropic-version"])
	assert.Contains(t, e.Client.UserAgent, "Anthropic/Go")
	assert.Equal(t, "go", e.Client.Stainless["lang"])
	assert.NotEmpty(t, e.Client.Stainless["package-version"])
	assert.Zero(t, e.Client.RetryCount)

	_, err = client.Messages.CountTokens(t.Context(), countParams(journaledParams()),
		option.WithHeaderDel("Authorization"), option.WithHeader("x-api-key", journalSecret))
	require.NoError(t, err)
	entries = sess.Journal().Entries()
	require.Len(t, entries, 2)
	assert.Equal(t, journal.Redacted, entries[1].Headers["x-api-key"])
	assert.Equal(t, "/v1/messages/count_tokens", entries[1].Path)
	assert.Empty(t, entries[1].Endpoint, "a count is no Messages call")
	assert.Equal(t, "You are a weather bot.", entries[1].Request.System)
	assert.Equal(t, []string{"get_weather"}, entries[1].Request.Tools)

	req, err := http.NewRequestWithContext(t.Context(), http.MethodGet, srv.URL()+"/admin-api/journal", nil)
	require.NoError(t, err)
	req.Header.Set(session.HeaderSession, sess.ID())
	req.Header.Set(session.HeaderSessionKey, sess.Key())
	req.Header.Set("Authorization", "Bearer "+journalSecret)
	resp, err := srv.Client().Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	require.Equal(t, http.StatusOK, resp.StatusCode, "%s", body)
	for _, secret := range []string{journalSecret, sess.Key(), "tenant-secret-value"} {
		assert.NotContains(t, string(body), secret)
	}
	assert.Contains(t, string(body), `"x-api-key":"[redacted]"`)
	assert.Contains(t, string(body), `"authorization":"[redacted]"`)
}

// The SDK's retry after a scripted 500 is journaled with retry count 1.
func TestJournalRecordsMessagesRetryCount(t *testing.T) {
	t.Parallel()
	sess := newSession(t)
	sess.Chat("flaky").Reply(scenario.Reply{Error: &scenario.Error{Status: 500, Headers: fast}}, scenario.Text("ok"))
	client := clientFor(sess, "k", 1)
	_, err := client.Messages.New(t.Context(), userTurn("hi"))
	require.NoError(t, err)
	entries := sess.Journal().Entries()
	require.Len(t, entries, 2)
	assert.Equal(t, http.StatusInternalServerError, entries[0].Status)
	assert.Zero(t, entries[0].Client.RetryCount)
	assert.Equal(t, 1, entries[1].Client.RetryCount)
}
