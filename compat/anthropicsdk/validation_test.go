package anthropicsdk_test

import (
	"testing"

	"github.com/anthropics/anthropic-sdk-go/v2"
	"github.com/anthropics/anthropic-sdk-go/v2/option"
	"github.com/llmtestserver/llmtestserver/session"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// validationRow is one request the API refuses, sent through the SDK:
// params builds it from a valid one, opts patch the JSON where the SDK's
// types cannot say it.
type validationRow struct {
	name    string
	params  func(p *anthropic.MessageNewParams)
	opts    []option.RequestOption
	stream  bool // the SDK refuses a large max_tokens unless streamed
	status  int
	typ     anthropic.ErrorType
	message string
}

var validationRows = []validationRow{{
	name:    "max_tokens missing",
	opts:    []option.RequestOption{option.WithJSONDel("max_tokens")},
	status:  400,
	typ:     anthropic.ErrorTypeInvalidRequestError,
	message: "max_tokens: Field required",
}, {
	name:    "max_tokens above the model's limit",
	params:  func(p *anthropic.MessageNewParams) { p.MaxTokens = 128001 },
	stream:  true,
	status:  400,
	typ:     anthropic.ErrorTypeInvalidRequestError,
	message: "max_tokens: 128001 > 128000, which is the maximum allowed number of output tokens for claude-sonnet-5-5",
}, {
	name:    "max_tokens above the model's limit, not streamed",
	opts:    []option.RequestOption{option.WithJSONSet("max_tokens", 200000)},
	status:  400,
	typ:     anthropic.ErrorTypeInvalidRequestError,
	message: "max_tokens: 200000 > 128000",
}, {
	name:    "max_tokens negative",
	opts:    []option.RequestOption{option.WithJSONSet("max_tokens", -1)},
	status:  400,
	typ:     anthropic.ErrorTypeInvalidRequestError,
	message: "max_tokens: Input should be greater than or equal to 0",
}, {
	name:    "messages empty",
	opts:    []option.RequestOption{option.WithJSONSet("messages", []any{})},
	status:  400,
	typ:     anthropic.ErrorTypeInvalidRequestError,
	message: "messages: at least one message is required",
}, {
	name:    "messages missing",
	params:  func(p *anthropic.MessageNewParams) { p.Messages = nil },
	status:  400,
	typ:     anthropic.ErrorTypeInvalidRequestError,
	message: "messages: Field required",
}, {
	name: "message content empty",
	// The SDK leaves an empty content out.
	opts:    []option.RequestOption{option.WithJSONSet("messages", []map[string]any{{"role": "user", "content": []any{}}})},
	status:  400,
	typ:     anthropic.ErrorTypeInvalidRequestError,
	message: "messages.0: all messages must have non-empty content except for the optional final assistant message",
}, {
	name:    "message content an empty string",
	opts:    []option.RequestOption{option.WithJSONSet("messages", []map[string]any{{"role": "user", "content": ""}})},
	status:  400,
	typ:     anthropic.ErrorTypeInvalidRequestError,
	message: "messages.0: all messages must have non-empty content",
}, {
	name: "tool_result without its tool_use",
	params: func(p *anthropic.MessageNewParams) {
		p.Messages = []anthropic.MessageParam{anthropic.NewUserMessage(anthropic.NewToolResultBlock("toolu_01nowhere", "sunny", false))}
	},
	status:  400,
	typ:     anthropic.ErrorTypeInvalidRequestError,
	message: "messages.0.content.0: unexpected `tool_use_id` found in `tool_result` blocks: toolu_01nowhere. Each `tool_result` block must have a corresponding `tool_use` block in the previous message.",
}, {
	name: "tool_use left unanswered",
	params: func(p *anthropic.MessageNewParams) {
		p.Tools = []anthropic.ToolUnionParam{weatherTool}
		p.Messages = append(p.Messages,
			anthropic.NewAssistantMessage(anthropic.NewToolUseBlock("toolu_01open", map[string]any{"city": "Paris"}, "get_weather")),
			anthropic.NewUserMessage(anthropic.NewTextBlock("Never mind.")))
	},
	status:  400,
	typ:     anthropic.ErrorTypeInvalidRequestError,
	message: "messages.1: `tool_use` ids were found without `tool_result` blocks immediately after: toolu_01open. Each `tool_use` block must have a corresponding `tool_result` block in the next message.",
}, {
	name:    "bad role",
	opts:    []option.RequestOption{option.WithJSONSet("messages", []map[string]any{{"role": "robot", "content": "hi"}})},
	status:  400,
	typ:     anthropic.ErrorTypeInvalidRequestError,
	message: "messages.0.role: Input should be 'user', 'assistant' or 'system'",
}, {
	name:    "role missing",
	opts:    []option.RequestOption{option.WithJSONSet("messages", []map[string]any{{"content": "hi"}})},
	status:  400,
	typ:     anthropic.ErrorTypeInvalidRequestError,
	message: "messages.0.role: Field required",
}, {
	name:    "model missing",
	opts:    []option.RequestOption{option.WithJSONDel("model")},
	status:  400,
	typ:     anthropic.ErrorTypeInvalidRequestError,
	message: "model: Field required",
}, {
	name: "thinking budget not below max_tokens",
	params: func(p *anthropic.MessageNewParams) {
		p.MaxTokens = 2048
		p.Thinking = anthropic.ThinkingConfigParamOfEnabled(2048)
	},
	status:  400,
	typ:     anthropic.ErrorTypeInvalidRequestError,
	message: "`max_tokens` must be greater than `thinking.budget_tokens`",
}, {
	name:    "thinking budget below 1024",
	params:  func(p *anthropic.MessageNewParams) { p.Thinking = anthropic.ThinkingConfigParamOfEnabled(100) },
	status:  400,
	typ:     anthropic.ErrorTypeInvalidRequestError,
	message: "thinking.enabled.budget_tokens: Input should be greater than or equal to 1024",
}, {
	name:    "tool names not unique",
	params:  func(p *anthropic.MessageNewParams) { p.Tools = []anthropic.ToolUnionParam{weatherTool, weatherTool} },
	status:  400,
	typ:     anthropic.ErrorTypeInvalidRequestError,
	message: "tools: Tool names must be unique.",
}, {
	name: "one-hour breakpoint after a five-minute one",
	params: func(p *anthropic.MessageNewParams) {
		p.System = []anthropic.TextBlockParam{
			{Text: "a", CacheControl: ephemeral},
			{Text: "b", CacheControl: anthropic.CacheControlEphemeralParam{TTL: anthropic.CacheControlEphemeralTTLTTL1h}},
		}
	},
	status:  400,
	typ:     anthropic.ErrorTypeInvalidRequestError,
	message: "system.1.cache_control.ttl: a ttl='1h' cache_control block must not come after a ttl='5m' cache_control block",
}, {
	name:    "unknown model",
	params:  func(p *anthropic.MessageNewParams) { p.Model = "claude-nonexistent-9" },
	status:  404,
	typ:     anthropic.ErrorTypeNotFoundError,
	message: "model: claude-nonexistent-9",
}, {
	name:    "wrong key",
	opts:    []option.RequestOption{option.WithAPIKey("wrong")},
	status:  401,
	typ:     anthropic.ErrorTypeAuthenticationError,
	message: "invalid x-api-key",
}}

// TestValidationThroughSDK sends every request the API refuses through the
// SDK: each gets its status, the API's error type and message, and takes
// no scripted reply.
func TestValidationThroughSDK(t *testing.T) {
	t.Parallel()
	srv := newServer(t)
	for _, row := range validationRows {
		t.Run(row.name, func(t *testing.T) {
			t.Parallel()
			sess := srv.NewSession(t, session.RequireAPIKey("k"))
			sess.Chat("never").Responds("should not be sent")
			client := clientFor(sess, "k", 0)
			p := userTurn("hi")
			if row.params != nil {
				row.params(&p)
			}
			var err error
			if row.stream {
				stream := client.Messages.NewStreaming(t.Context(), p, row.opts...)
				for stream.Next() {
				}
				err = stream.Err()
				stream.Close()
			} else {
				_, err = client.Messages.New(t.Context(), p, row.opts...)
			}
			apiErr := apiError(t, err)
			assert.Equal(t, row.status, apiErr.StatusCode)
			assert.Equal(t, row.typ, apiErr.Type())
			assert.Contains(t, apiErr.Message, row.message)
			checkRequestID(t, apiErr)

			e, ok := sess.Journal().Last()
			require.True(t, ok)
			assert.Equal(t, row.status, e.Status)
			assert.Equal(t, "anthropic", e.Provider)
			assert.Empty(t, e.Scenario)
			assert.Zero(t, e.Usage)
			assert.Equal(t, 1, sess.Scenarios()[0].Remaining, "a refused request took a reply")
		})
	}
}

// TestValidationRaw sends what no SDK sends, with net/http: a body that is
// not JSON, or not an object, and a request without a key. The envelope's
// request_id is the request-id header.
func TestValidationRaw(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, body string
		headers    []string
		status     int
		typ        string
		message    string
	}{
		{"body not JSON", `{"model": `, []string{"x-api-key", "k"}, 400, "invalid_request_error", "The request body is not valid JSON"},
		{"body not an object", `[1, 2]`, []string{"x-api-key", "k"}, 400, "invalid_request_error", "Input should be a valid dictionary or object"},
		{"max_tokens a string", `{"model":"claude-sonnet-5-5","max_tokens":"ten","messages":[{"role":"user","content":"hi"}]}`,
			[]string{"x-api-key", "k"}, 400, "invalid_request_error", "max_tokens: Input should be a valid integer"},
		{"no key", `{"model":"claude-sonnet-5-5","max_tokens":10,"messages":[{"role":"user","content":"hi"}]}`,
			nil, 401, "authentication_error", "x-api-key header is required"},
		{"wrong x-api-key", `{"model":"claude-sonnet-5-5","max_tokens":10,"messages":[{"role":"user","content":"hi"}]}`,
			[]string{"x-api-key", "wrong"}, 401, "authentication_error", "invalid x-api-key"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			sess := newSession(t, session.RequireAPIKey("k"))
			r := rawPost(t, sess, "/v1/messages", tt.body, tt.headers...)
			require.Equal(t, tt.status, r.status, "body %s", r.body)
			assert.Equal(t, "application/json", r.header.Get("Content-Type"))
			env := r.envelope(t)
			assert.Equal(t, tt.typ, env.Error.Type)
			assert.Contains(t, env.Error.Message, tt.message)
			assert.Equal(t, r.header.Get("request-id"), env.RequestID)
			assert.NotEmpty(t, env.RequestID)
		})
	}
}

// TestUnknownFieldsIgnored sends fields the server does not know, as newer
// SDKs do, to a session that allows them (the default refuses them, see
// strict_fields_test.go): the request is answered, and the journal names
// what it ignored.
func TestUnknownFieldsIgnored(t *testing.T) {
	t.Parallel()
	sess := newSession(t, session.AllowUnknownParameters())
	sess.Chat("x").Responds("fine").Repeat()
	client := clientFor(sess, "k", 0)
	msg, err := client.Messages.New(t.Context(), userTurn("hi"),
		option.WithJSONSet("frobnicate", map[string]any{"level": 3}),
		option.WithJSONSet("a_future_knob", true),
		option.WithJSONSet("temperature", 0.2),
		option.WithJSONSet("thinking", map[string]any{"type": "disabled"}))
	require.NoError(t, err)
	assert.Equal(t, "fine", msg.Content[0].Text)
	e, _ := sess.Journal().Last()
	assert.Equal(t, 200, e.Status)
	assert.Equal(t, []string{"a_future_knob", "frobnicate"}, e.Ignored)

	r := rawPost(t, sess, "/v1/messages",
		`{"model":"claude-sonnet-5-5","max_tokens":10,"messages":[{"role":"user","content":"hi"}],"zzz":1}`,
		"x-api-key", "k")
	require.Equal(t, 200, r.status, "body %s", r.body)
	e, _ = sess.Journal().Last()
	assert.Equal(t, []string{"zzz"}, e.Ignored)

	_, err = client.Messages.New(t.Context(), userTurn("hi"))
	require.NoError(t, err)
	e, _ = sess.Journal().Last()
	assert.Empty(t, e.Ignored, "the SDK's own fields are known")
}
