package llmtest_test

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/llmtestserver/llmtestserver/internal/e2e"
	"github.com/llmtestserver/llmtestserver/journal"
	"github.com/llmtestserver/llmtestserver/llmtest"
	"github.com/llmtestserver/llmtestserver/scenario"
	"github.com/llmtestserver/llmtestserver/session"
	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/conversations"
	"github.com/openai/openai-go/v3/option"
	"github.com/openai/openai-go/v3/responses"
	"github.com/openai/openai-go/v3/shared"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// providerSecret is the provider key the journal tests send; it must never
// be seen in an entry.
const providerSecret = "sk-journal-provider-secret-0123456789"

// journalClient is an openai-go client of sess with the provider key, a
// header the session redacts and one it shows.
func journalClient(sess *session.Session, opts ...option.RequestOption) openai.Client {
	return openai.NewClient(append([]option.RequestOption{
		option.WithBaseURL(sess.BaseURL()), option.WithAPIKey(providerSecret),
		option.WithHTTPClient(sess.HTTPClient()), option.WithMaxRetries(0),
		option.WithHeader("X-Tenant-Token", "tenant-secret-value"), option.WithHeader("X-Trace-Tag", "visible-tag"),
	}, opts...)...)
}

// newestEntry is the session's newest journal entry.
func newestEntry(t *testing.T, sess *session.Session) journal.Entry {
	t.Helper()
	entries := sess.Journal().Entries()
	require.NotEmpty(t, entries)
	return entries[len(entries)-1]
}

// A chat completion's entry shows what the code under test sent: the
// system prompt, every message with its tool calls and results, the tools,
// the knobs, and how it was sent, credentials redacted.
func TestJournalRecordsChatRequest(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t)
	sess := srv.NewSession(t, session.RequireAPIKey(providerSecret), session.RedactHeaders("x-TENANT-token"))
	sess.Chat("weather").RespondsJSON(map[string]string{"sky": "clear"})
	client := journalClient(sess)
	_, err := client.Chat.Completions.New(context.Background(), openai.ChatCompletionNewParams{
		Model: "gpt-4.1-mini",
		Messages: []openai.ChatCompletionMessageParamUnion{
			openai.SystemMessage("You are a weather bot. Answer in JSON."),
			openai.UserMessage("Weather in Paris?"),
			{OfAssistant: &openai.ChatCompletionAssistantMessageParam{ToolCalls: []openai.ChatCompletionMessageToolCallUnionParam{
				{OfFunction: &openai.ChatCompletionMessageFunctionToolCallParam{ID: "call_1",
					Function: openai.ChatCompletionMessageFunctionToolCallFunctionParam{Name: "get_weather", Arguments: `{"city":"Paris"}`}}},
			}}},
			openai.ToolMessage(`{"temp":21}`, "call_1"),
		},
		Tools: []openai.ChatCompletionToolUnionParam{openai.ChatCompletionFunctionTool(shared.FunctionDefinitionParam{
			Name: "get_weather", Parameters: shared.FunctionParameters{"type": "object", "properties": map[string]any{}}})},
		ToolChoice:          openai.ChatCompletionToolChoiceOptionUnionParam{OfAuto: openai.String("auto")},
		ResponseFormat:      openai.ChatCompletionNewParamsResponseFormatUnion{OfJSONObject: &shared.ResponseFormatJSONObjectParam{}},
		Temperature:         openai.Float(0.25),
		TopP:                openai.Float(0.5),
		MaxCompletionTokens: openai.Int(300),
		Metadata:            shared.Metadata{"run": "r-7"},
		User:                openai.String("end-user-42"),
	})
	require.NoError(t, err)

	e := newestEntry(t, sess)
	assert.Equal(t, "chat.completions", e.Endpoint)
	r := e.Request
	assert.Equal(t, "You are a weather bot. Answer in JSON.", r.System)
	assert.Equal(t, []journal.Message{
		{Role: "user", Text: "Weather in Paris?"},
		{Role: "assistant", ToolCalls: []journal.ToolCall{{ID: "call_1", Name: "get_weather", Arguments: `{"city":"Paris"}`}}},
		{Role: "tool", Text: `{"temp":21}`, ToolCallID: "call_1"},
	}, r.Messages)
	assert.Equal(t, []string{"get_weather"}, r.Tools)
	assert.Equal(t, "auto", r.ToolChoice)
	assert.Equal(t, "json_object", r.ResponseFormat)
	require.NotNil(t, r.Temperature)
	require.NotNil(t, r.TopP)
	assert.Equal(t, 0.25, *r.Temperature)
	assert.Equal(t, 0.5, *r.TopP)
	assert.Equal(t, 300, r.MaxOutputTokens)
	assert.Equal(t, map[string]string{"run": "r-7"}, r.Metadata)
	assert.Equal(t, "end-user-42", r.User)
	assert.False(t, r.IncludeUsage)

	// The whole body, within the default bound of 16 KiB.
	assert.Contains(t, e.Body, `"temperature":0.25`)
	assert.Equal(t, int64(len(e.Body)), e.BodyBytes)

	assert.Equal(t, journal.Redacted, e.Headers["authorization"])
	assert.Equal(t, journal.Redacted, e.Headers["x-tenant-token"], "the session names it")
	assert.Equal(t, journal.Redacted, e.Headers[strings.ToLower(session.HeaderSessionKey)])
	assert.NotContains(t, e.Headers, strings.ToLower(session.HeaderSession), "the session's own ID, the same on every entry")
	assert.Equal(t, "visible-tag", e.Headers["x-trace-tag"])
	assert.Equal(t, "application/json", e.Headers["content-type"])
	assert.NotContains(t, e.Headers, "content-length")
	for name := range e.Headers {
		assert.Equal(t, strings.ToLower(name), name)
	}

	assert.Contains(t, e.Client.UserAgent, "OpenAI/Go")
	assert.Equal(t, "go", e.Client.Stainless["lang"])
	assert.NotEmpty(t, e.Client.Stainless["package-version"])
	assert.Equal(t, e.Headers["x-stainless-package-version"], e.Client.Stainless["package-version"])
	assert.NotContains(t, e.Client.Stainless, "retry-count")
	assert.Zero(t, e.Client.RetryCount)

	// The admin API shows the same entry, and no credential either.
	got := e2e.Call(t, srv.Client(), http.MethodGet, srv.URL()+"/admin-api/journal", "",
		e2e.Join(e2e.SelectorOf(sess), e2e.Bearer(providerSecret))...)
	require.Equal(t, http.StatusOK, got.Status, "%s", got.Body)
	body := string(got.Body)
	for _, secret := range []string{providerSecret, sess.Key(), "tenant-secret-value"} {
		assert.NotContains(t, body, secret)
	}
	assert.Contains(t, body, `"system":"You are a weather bot. Answer in JSON."`)
	assert.Contains(t, body, `"authorization":"[redacted]"`)
	assert.Contains(t, body, `"user_agent":"OpenAI/Go`)
}

// A streamed chat completion records stream_options.include_usage.
func TestJournalRecordsStreamOptions(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t)
	sess := srv.NewSession(t)
	sess.Chat("hi").Responds("hello there")
	client := journalClient(sess)
	stream := client.Chat.Completions.NewStreaming(context.Background(), openai.ChatCompletionNewParams{
		Model:         "gpt-4.1-mini",
		Messages:      []openai.ChatCompletionMessageParamUnion{openai.UserMessage("Hi")},
		StreamOptions: openai.ChatCompletionStreamOptionsParam{IncludeUsage: openai.Bool(true)},
	})
	for stream.Next() {
	}
	require.NoError(t, stream.Err())
	require.NoError(t, stream.Close())
	e := newestEntry(t, sess)
	assert.True(t, e.Stream)
	assert.True(t, e.Request.IncludeUsage)
	assert.Nil(t, e.Request.Temperature, "not sent")
	assert.Equal(t, []journal.Message{{Role: "user", Text: "Hi"}}, e.Request.Messages)
}

// Responses requests record their instructions, format,
// previous_response_id and conversation.
func TestJournalRecordsResponsesRequest(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t)
	sess := srv.NewSession(t)
	sess.Chat("any").Responds(`{"city":"Paris"}`).Repeat()
	client := journalClient(sess)
	ctx := context.Background()

	first, err := client.Responses.New(ctx, responses.ResponseNewParams{
		Model: e2e.ResponsesModel, Input: e2e.InputText("Where?"), Instructions: openai.String("Be brief."),
		Temperature: openai.Float(1.5), TopP: openai.Float(0.75), MaxOutputTokens: openai.Int(64),
		Metadata: shared.Metadata{"k": "v"}, User: openai.String("u-1"),
		Text: responses.ResponseTextConfigParam{Format: responses.ResponseFormatTextConfigParamOfJSONSchema("place", map[string]any{
			"type": "object", "properties": map[string]any{"city": map[string]any{"type": "string"}},
			"required": []string{"city"}, "additionalProperties": false,
		})},
	})
	require.NoError(t, err)
	e := newestEntry(t, sess)
	assert.Equal(t, "responses", e.Endpoint)
	assert.Equal(t, "Be brief.", e.Request.System)
	assert.Equal(t, "json_schema:place", e.Request.ResponseFormat)
	require.NotNil(t, e.Request.Temperature)
	require.NotNil(t, e.Request.TopP)
	assert.Equal(t, 1.5, *e.Request.Temperature)
	assert.Equal(t, 0.75, *e.Request.TopP)
	assert.Equal(t, 64, e.Request.MaxOutputTokens)
	assert.Equal(t, map[string]string{"k": "v"}, e.Request.Metadata)
	assert.Equal(t, "u-1", e.Request.User)
	assert.Empty(t, e.Request.PreviousResponseID)

	_, err = client.Responses.New(ctx, responses.ResponseNewParams{
		Model: e2e.ResponsesModel, Input: e2e.InputText("And then?"), PreviousResponseID: openai.String(first.ID)})
	require.NoError(t, err)
	e = newestEntry(t, sess)
	assert.Equal(t, first.ID, e.Request.PreviousResponseID)
	assert.Empty(t, e.Request.ConversationID)
	assert.Equal(t, []journal.Message{{Role: "user", Text: "Where?"}, {Role: "assistant", Text: `{"city":"Paris"}`},
		{Role: "user", Text: "And then?"}}, e.Request.Messages, "the whole conversation the model sees")

	conv, err := client.Conversations.New(ctx, conversations.ConversationNewParams{})
	require.NoError(t, err)
	assert.Empty(t, newestEntry(t, sess).Endpoint, "creating a conversation is no model operation")
	_, err = client.Responses.New(ctx, responses.ResponseNewParams{
		Model: e2e.ResponsesModel, Input: e2e.InputText("Hello"),
		Conversation: responses.ResponseNewParamsConversationUnion{OfString: openai.String(conv.ID)}})
	require.NoError(t, err)
	e = newestEntry(t, sess)
	assert.Equal(t, conv.ID, e.Request.ConversationID)
	assert.Empty(t, e.Request.PreviousResponseID)

	// A count records its request, and no endpoint: it calls no model.
	_, err = client.Responses.InputTokens.Count(ctx, responses.InputTokenCountParams{
		Model: openai.String(e2e.ResponsesModel), Input: e2e.CountInputText("Count me"), Instructions: openai.String("Count."),
		Tools: e2e.WeatherTools()})
	require.NoError(t, err)
	e = newestEntry(t, sess)
	assert.Empty(t, e.Endpoint)
	assert.Equal(t, "Count.", e.Request.System)
	assert.Equal(t, []string{"get_weather"}, e.Request.Tools)
}

// An embeddings request records its endpoint, inputs and user.
func TestJournalRecordsEmbeddingsRequest(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t)
	sess := srv.NewSession(t)
	client := journalClient(sess)
	_, err := client.Embeddings.New(context.Background(), openai.EmbeddingNewParams{Model: "text-embedding-3-small",
		Input: openai.EmbeddingNewParamsInputUnion{OfArrayOfStrings: []string{"alpha", "beta"}}, User: openai.String("emb-user")})
	require.NoError(t, err)
	e := newestEntry(t, sess)
	assert.Equal(t, "embeddings", e.Endpoint)
	assert.Equal(t, []journal.Message{{Role: "user", Text: "alpha"}, {Role: "user", Text: "beta"}}, e.Request.Messages)
	assert.Equal(t, "emb-user", e.Request.User)
	assert.Equal(t, "go", e.Client.Stainless["lang"])
}

// The SDK's retry after a scripted 500 is journaled with its retry count.
func TestJournalRecordsRetryCount(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t)
	sess := srv.NewSession(t)
	sess.Chat("flaky").Reply(
		scenario.Reply{Error: &scenario.Error{Status: 500, Headers: map[string]string{"retry-after-ms": "1"}}},
		scenario.Text("recovered"))
	client := journalClient(sess, option.WithMaxRetries(1))
	resp, err := client.Chat.Completions.New(context.Background(), e2e.UserTurn("gpt-4.1-mini", "Hi"))
	require.NoError(t, err)
	require.Equal(t, "recovered", resp.Choices[0].Message.Content)
	entries := sess.Journal().Entries()
	require.Len(t, entries, 2)
	assert.Equal(t, 500, entries[0].Status)
	assert.Zero(t, entries[0].Client.RetryCount)
	assert.Equal(t, 1, entries[1].Client.RetryCount)
	assert.NotContains(t, entries[1].Client.Stainless, "retry-count")
}

// The body is kept up to journal.max_body_bytes, with BodyBytes the whole
// length; 0 keeps none.
func TestJournalBodyBound(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t)
	body := e2e.ChatBody("gpt-4.1-mini", "Hi "+strings.Repeat("é", 100))
	for _, bound := range []int{0, 40, len(body) + 1} {
		sess := srv.NewSession(t, session.WithJournalBody(int64(bound)))
		sess.Chat("hi").Responds("hello")
		r := e2e.Call(t, srv.Client(), http.MethodPost, sess.BaseURL()+"/chat/completions", body,
			e2e.Join(e2e.SelectorOf(sess), e2e.Bearer("k"))...)
		require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
		e := newestEntry(t, sess)
		assert.Equal(t, int64(len(body)), e.BodyBytes, "bound %d", bound)
		assert.Equal(t, body[:min(bound, len(body))], e.Body, "bound %d", bound)
	}
}

// The configuration refuses a body bound outside 0 to 1 MiB and a
// redacted name that is no header name, naming the field, over JSON too.
func TestJournalRequestConfig(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		opt   session.Option
		field string
	}{
		{session.WithJournalBody(-1), "journal.max_body_bytes"},
		{session.WithJournalBody(1<<20 + 1), "journal.max_body_bytes"},
		{session.RedactHeaders("X-Ok", "X-Bad:"), "journal.redact_headers[1]"},
		{session.RedactHeaders(""), "journal.redact_headers[0]"},
	} {
		_, err := session.NewConfig(tc.opt)
		var ce *session.ConfigError
		require.ErrorAs(t, err, &ce)
		assert.Equal(t, tc.field, ce.Field)
	}
	cfg, err := session.NewConfig(session.WithJournalBody(1<<20), session.RedactHeaders("X-A"), session.WithJournal(5, 1<<20))
	require.NoError(t, err)
	assert.Equal(t, int64(1<<20), cfg.Journal.MaxBodyBytes, "WithJournal keeps the body bound")
	assert.Equal(t, []string{"X-A"}, cfg.Journal.RedactHeaders)
	def, err := session.NewConfig()
	require.NoError(t, err)
	assert.Equal(t, int64(16<<10), def.Journal.MaxBodyBytes)

	parsed, err := session.ParseConfig([]byte(`{"journal":{"max_body_bytes":0,"redact_headers":["X-Secret"]}}`), session.DefaultConfig())
	require.NoError(t, err)
	assert.Zero(t, parsed.Journal.MaxBodyBytes)
	assert.Equal(t, []string{"X-Secret"}, parsed.Journal.RedactHeaders)
	_, err = session.ParseConfig([]byte(`{"journal":{"max_body_bytes":2000000}}`), session.DefaultConfig())
	var ce *session.ConfigError
	require.ErrorAs(t, err, &ce)
	assert.Equal(t, "journal.max_body_bytes", ce.Field)
	data, err := json.Marshal(parsed.Journal)
	require.NoError(t, err)
	assert.JSONEq(t, `{"capacity":1000,"max_bytes":8388608,"max_body_bytes":0,"redact_headers":["X-Secret"]}`, string(data))
}

// An Idempotency-Key replay, which runs no route, records the request's
// body and headers like the first delivery.
func TestJournalBodyOfReplay(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t)
	sess := srv.NewSession(t)
	sess.Chat("hi").Responds("hello")
	body := e2e.ChatBody("gpt-4.1-mini", "Hi")
	for range 2 {
		r := e2e.Call(t, srv.Client(), http.MethodPost, sess.BaseURL()+"/chat/completions", body,
			e2e.Join(e2e.SelectorOf(sess), e2e.Bearer("k"), []string{"Idempotency-Key", "idem-1"})...)
		require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	}
	entries := sess.Journal().Entries()
	require.Len(t, entries, 2)
	require.True(t, entries[1].Replay)
	for _, e := range entries {
		assert.Equal(t, body, e.Body)
		assert.Equal(t, int64(len(body)), e.BodyBytes)
		assert.Equal(t, "idem-1", e.Headers["idempotency-key"])
		assert.Equal(t, journal.Redacted, e.Headers["authorization"])
	}
}
