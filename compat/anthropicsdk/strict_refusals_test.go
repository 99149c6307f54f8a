package anthropicsdk_test

import (
	"net/http"
	"testing"

	"github.com/anthropics/anthropic-sdk-go/v2"
	"github.com/anthropics/anthropic-sdk-go/v2/option"
	"github.com/llmtestserver/llmtestserver/session"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// pngBase64 is the PNG signature, the smallest body the server takes as a
// PNG image.
const pngBase64 = "iVBORw0KGgo="

// strictCase is a request the SDK can send that the real API refuses.
type strictCase struct {
	name    string
	params  func() anthropic.MessageNewParams
	opts    []option.RequestOption
	message string
}

func withTools(p anthropic.MessageNewParams) anthropic.MessageNewParams {
	p.Tools = []anthropic.ToolUnionParam{{OfTool: &anthropic.ToolParam{Name: "f",
		InputSchema: anthropic.ToolInputSchemaParam{Properties: map[string]any{}}}}}
	return p
}

func strictCases() []strictCase {
	base := func() anthropic.MessageNewParams { return userTurn("hi") }
	conversation := func(assistant ...anthropic.ContentBlockParamUnion) func() anthropic.MessageNewParams {
		return func() anthropic.MessageNewParams {
			p := userTurn("q")
			p.Messages = append(p.Messages, anthropic.NewAssistantMessage(assistant...),
				anthropic.NewUserMessage(anthropic.NewTextBlock("next")))
			return p
		}
	}
	thinking := func(p anthropic.MessageNewParams) anthropic.MessageNewParams {
		p.MaxTokens = 2048
		p.Thinking = anthropic.ThinkingConfigParamOfEnabled(1024)
		return p
	}
	return []strictCase{
		{name: "top-level foo", params: base, opts: []option.RequestOption{option.WithJSONSet("foo", 1)},
			message: "foo: Extra inputs are not permitted"},
		{name: "response_format", params: base, opts: []option.RequestOption{option.WithJSONSet("response_format", map[string]any{"type": "json_object"})},
			message: "response_format: Extra inputs are not permitted"},
		{name: "message name", params: base, opts: []option.RequestOption{option.WithJSONSet("messages.0.name", "bob")},
			message: "messages.0.name: Extra inputs are not permitted"},
		{name: "cache_control scope", params: func() anthropic.MessageNewParams {
			p := base()
			p.System = []anthropic.TextBlockParam{{Text: "a"}, {Text: "b", CacheControl: anthropic.NewCacheControlEphemeralParam()}}
			return p
		}, opts: []option.RequestOption{option.WithJSONSet("system.1.cache_control.scope", "global")},
			message: "system.1.cache_control.ephemeral.scope: Extra inputs are not permitted"},
		{name: "tool_choice none disable_parallel_tool_use", params: func() anthropic.MessageNewParams {
			p := withTools(base())
			p.ToolChoice = anthropic.ToolChoiceUnionParam{OfNone: &anthropic.ToolChoiceNoneParam{}}
			return p
		}, opts: []option.RequestOption{option.WithJSONSet("tool_choice.disable_parallel_tool_use", true)},
			message: "tool_choice.none.disable_parallel_tool_use: Extra inputs are not permitted"},
		{name: "empty text block", params: func() anthropic.MessageNewParams {
			p := base()
			p.Messages = []anthropic.MessageParam{anthropic.NewUserMessage(anthropic.NewTextBlock(""))}
			return p
		}, message: "messages: text content blocks must be non-empty"},
		{name: "whitespace text block", params: func() anthropic.MessageNewParams { return userTurn(" \n") },
			message: "messages: text content blocks must contain non-whitespace text"},
		{name: "forced tool use with thinking", params: func() anthropic.MessageNewParams {
			p := thinking(withTools(base()))
			p.ToolChoice = anthropic.ToolChoiceUnionParam{OfAny: &anthropic.ToolChoiceAnyParam{}}
			return p
		}, message: "Thinking may not be enabled when tool_choice forces tool use."},
		{name: "forged thinking signature", params: conversation(anthropic.NewThinkingBlock("not-a-real-signature", "hmm"), anthropic.NewTextBlock("a")),
			message: "messages.1.content.0: Invalid `signature` in `thinking` block"},
		{name: "image/bmp", params: func() anthropic.MessageNewParams {
			p := base()
			p.Messages = []anthropic.MessageParam{anthropic.NewUserMessage(anthropic.NewImageBlockBase64("image/bmp", pngBase64))}
			return p
		}, message: "messages.0.content.0.image.source.base64.media_type: Input should be 'image/jpeg', 'image/png', 'image/gif' or 'image/webp'"},
		{name: "image data that is no image", params: func() anthropic.MessageNewParams {
			p := base()
			p.Messages = []anthropic.MessageParam{anthropic.NewUserMessage(anthropic.NewImageBlockBase64("image/png", "aGVsbG8="))}
			return p
		}, message: "messages.0.content.0.image.source.base64.data: Image does not match the provided media type image/png"},
		{name: "duplicate tool_use ids", params: func() anthropic.MessageNewParams {
			p := withTools(userTurn("q"))
			p.Messages = append(p.Messages,
				anthropic.NewAssistantMessage(anthropic.NewToolUseBlock("toolu_1", map[string]any{}, "f"), anthropic.NewToolUseBlock("toolu_1", map[string]any{}, "f")),
				anthropic.NewUserMessage(anthropic.NewToolResultBlock("toolu_1", "ok", false)))
			return p
		}, message: "messages.1.content.1: `tool_use` ids must be unique"},
		{name: "tool_choice naming a tool not offered", params: func() anthropic.MessageNewParams {
			p := withTools(base())
			p.ToolChoice = anthropic.ToolChoiceParamOfTool("g")
			return p
		}, message: "tool_choice.tool.name: Tool 'g' not found in `tools`"},
		{name: "temperature with thinking", params: func() anthropic.MessageNewParams { return thinking(base()) },
			opts:    []option.RequestOption{option.WithJSONSet("temperature", 0.5)},
			message: "`temperature` may only be set to 1 when thinking is enabled. Please consult our documentation at https://docs.claude.com/en/docs/build-with-claude/extended-thinking#important-considerations-when-using-extended-thinking"},
	}
}

// Through the SDK, over HTTP or in memory, each request the real API
// refuses is a 400 invalid_request_error *anthropic.Error with the real
// API's message, and uses no scripted reply.
func TestStrictRefusals(t *testing.T) {
	t.Parallel()
	for _, c := range strictCases() {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			sess := newSession(t)
			sess.Chat("x").Responds("never")
			client := clientFor(sess, "k", 0)
			_, err := client.Messages.New(t.Context(), c.params(), c.opts...)
			apiErr := apiError(t, err)
			assert.Equal(t, http.StatusBadRequest, apiErr.StatusCode)
			assert.Equal(t, "invalid_request_error", string(apiErr.Type()))
			assert.Equal(t, c.message, apiErr.Message)
			assert.Equal(t, 1, sess.Pending(), "a refused request changes no session state")
		})
	}
}

// count_tokens takes the fields of MessageCountTokensParams only, and
// refuses what /v1/messages refuses.
func TestStrictCountTokens(t *testing.T) {
	t.Parallel()
	sess := newSession(t)
	client := clientFor(sess, "k", 0)
	params := anthropic.MessageCountTokensParams{Model: model,
		Messages: []anthropic.MessageParam{anthropic.NewUserMessage(anthropic.NewTextBlock("hi"))}}
	for field, value := range map[string]any{"max_tokens": 10, "stream": true, "messages.0.name": "bob"} {
		_, err := client.Messages.CountTokens(t.Context(), params, option.WithJSONSet(field, value))
		apiErr := apiError(t, err)
		assert.Equal(t, http.StatusBadRequest, apiErr.StatusCode, field)
		assert.Equal(t, field+": Extra inputs are not permitted", apiErr.Message)
	}
	n, err := client.Messages.CountTokens(t.Context(), params)
	require.NoError(t, err)
	assert.Positive(t, n.InputTokens)
}

// A request that asks for a beta takes the Beta params' fields, which a GA
// request is refused.
func TestStrictBetaFields(t *testing.T) {
	t.Parallel()
	sess := newSession(t)
	sess.Chat("x").Responds("fine").Repeat()
	client := clientFor(sess, "k", 0)
	set := option.WithJSONSet("context_management", map[string]any{"edits": []any{}})
	_, err := client.Beta.Messages.New(t.Context(), anthropic.BetaMessageNewParams{Model: model, MaxTokens: 64,
		Betas:    []anthropic.AnthropicBeta{anthropic.AnthropicBetaContextManagement2025_06_27},
		Messages: []anthropic.BetaMessageParam{anthropic.NewBetaUserMessage(anthropic.NewBetaTextBlock("hi"))}}, set)
	require.NoError(t, err)
	_, err = client.Messages.New(t.Context(), userTurn("hi"), set)
	assert.Equal(t, "context_management: Extra inputs are not permitted", apiError(t, err).Message)

	// Older SDKs' Beta service marks its requests with ?beta=true instead.
	body := `{"model":"claude-sonnet-5-5","max_tokens":10,"messages":[{"role":"user","content":"hi"}],"context_management":{"edits":[]}}`
	r := rawPost(t, sess, "/v1/messages?beta=true", body, "x-api-key", "k")
	assert.Equal(t, http.StatusOK, r.status, "body %s", r.body)
	r = rawPost(t, sess, "/v1/messages", body, "x-api-key", "k")
	assert.Equal(t, http.StatusBadRequest, r.status, "body %s", r.body)
	assert.Equal(t, "context_management: Extra inputs are not permitted", r.envelope(t).Error.Message)
}

// A session that allows unknown parameters answers the requests refused
// above for their extra fields, and its journal names each by its path.
func TestStrictAllowUnknownParameters(t *testing.T) {
	t.Parallel()
	sess := newSession(t, session.AllowUnknownParameters())
	sess.Chat("x").Responds("fine").Repeat()
	client := clientFor(sess, "k", 0)
	p := userTurn("hi")
	p.System = []anthropic.TextBlockParam{{Text: "a", CacheControl: anthropic.NewCacheControlEphemeralParam()}}
	msg, err := client.Messages.New(t.Context(), p,
		option.WithJSONSet("response_format", map[string]any{}),
		option.WithJSONSet("messages.0.name", "bob"),
		option.WithJSONSet("system.0.cache_control.scope", "global"))
	require.NoError(t, err)
	assert.Equal(t, "fine", msg.Content[0].Text)
	e, _ := sess.Journal().Last()
	assert.Equal(t, []string{"messages.0.name", "response_format", "system.0.cache_control.ephemeral.scope"}, e.Ignored)

	_, err = client.Messages.New(t.Context(), p)
	require.NoError(t, err)
	e, _ = sess.Journal().Last()
	assert.Empty(t, e.Ignored, "the SDK's own fields are known")
}
