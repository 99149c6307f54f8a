package anthropic

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/llmtestserver/llmtestserver/internal/apierr"
	"github.com/llmtestserver/llmtestserver/scenario"
)

// refusal is one malformed body with the refusal it must get.
type refusal struct {
	name    string
	body    []byte
	param   string
	message string
	// messagesOnly marks a body whose refusal needs a field count_tokens
	// does not take.
	messagesOnly bool
}

func pngData() string { return "iVBORw0KGgo=" } // the PNG signature

func image(source map[string]any) map[string]any {
	return map[string]any{"type": "image", "source": source}
}

func text(s string) map[string]any { return map[string]any{"type": "text", "text": s} }

func replayedThinking(thinking, sig string) map[string]any {
	return map[string]any{"type": "thinking", "thinking": thinking, "signature": sig}
}

var fTool = map[string]any{"name": "f", "input_schema": map[string]any{"type": "object"}}

// strictRefusals are the refusals of audit items A3, A6, A7, A8, B12, B13
// and E, with their exact messages and params, on both routes unless
// marked.
func strictRefusals(t testing.TB) []refusal {
	many := make([]any, 10000)
	for i := range many {
		many[i] = map[string]any{"type": "foo"}
	}
	enabled := map[string]any{"type": "enabled", "budget_tokens": 1024}
	return []refusal{
		// A3: unknown fields at every level.
		{name: "top-level foo", body: body(t, map[string]any{"foo": 1}), param: "foo", message: "foo: Extra inputs are not permitted"},
		{name: "top-level response_format", body: body(t, map[string]any{"response_format": map[string]any{}}), param: "response_format",
			message: "response_format: Extra inputs are not permitted"},
		{name: "top-level reasoning_effort", body: body(t, map[string]any{"reasoning_effort": "high"}), param: "reasoning_effort",
			message: "reasoning_effort: Extra inputs are not permitted"},
		{name: "message name", body: body(t, map[string]any{"messages": []any{userMsg("q"), map[string]any{"role": "assistant", "content": "a", "name": "bob"}, userMsg("r")}}),
			param: "messages.1.name", message: "messages.1.name: Extra inputs are not permitted"},
		{name: "cache_control scope", body: body(t, map[string]any{"system": []any{text("a"), map[string]any{"type": "text", "text": "b",
			"cache_control": map[string]any{"type": "ephemeral", "scope": "global"}}}}),
			param: "system.1.cache_control.ephemeral.scope", message: "system.1.cache_control.ephemeral.scope: Extra inputs are not permitted"},
		{name: "cache_control on thinking", body: body(t, map[string]any{"messages": []any{userMsg("q"), asstMsg([]any{map[string]any{"type": "thinking",
			"thinking": "t", "signature": signature("t"), "cache_control": map[string]any{"type": "ephemeral"}}}), userMsg("r")}}),
			param: "messages.1.content.0.thinking.cache_control", message: "messages.1.content.0.thinking.cache_control: Extra inputs are not permitted"},
		{name: "tool_use text", body: body(t, map[string]any{"messages": []any{userMsg("q"), asstMsg([]any{map[string]any{"type": "tool_use", "id": "t", "name": "f",
			"input": map[string]any{}, "text": "x"}}), userMsg([]any{toolResult("t")})}}),
			param: "messages.1.content.0.tool_use.text", message: "messages.1.content.0.tool_use.text: Extra inputs are not permitted"},
		{name: "tool_choice none disable_parallel_tool_use", body: body(t, map[string]any{"tool_choice": map[string]any{"type": "none", "disable_parallel_tool_use": true}}),
			param: "tool_choice.none.disable_parallel_tool_use", message: "tool_choice.none.disable_parallel_tool_use: Extra inputs are not permitted"},
		{name: "tool_result text id", body: body(t, map[string]any{"messages": []any{userMsg("q"), asstMsg([]any{toolUse("t")}),
			userMsg([]any{map[string]any{"type": "tool_result", "tool_use_id": "t", "content": []any{map[string]any{"type": "text", "text": "r", "id": "x"}}}})}}),
			param: "messages.2.content.0.tool_result.content.0.text.id", message: "messages.2.content.0.tool_result.content.0.text.id: Extra inputs are not permitted"},
		{name: "custom tool extra", body: body(t, map[string]any{"tools": []any{map[string]any{"name": "f", "input_schema": map[string]any{}, "parameters": map[string]any{}}}}),
			param: "tools.0.custom.parameters", message: "tools.0.custom.parameters: Extra inputs are not permitted"},
		{name: "image source extra", body: body(t, map[string]any{"messages": []any{userMsg([]any{image(map[string]any{"type": "url", "url": "https://x/y.png", "detail": "low"})})}}),
			param: "messages.0.content.0.image.source.url.detail", message: "messages.0.content.0.image.source.url.detail: Extra inputs are not permitted"},
		{name: "thinking extra", body: body(t, map[string]any{"thinking": map[string]any{"type": "disabled", "budget_tokens": 2000}}),
			param: "thinking.disabled.budget_tokens", message: "thinking.disabled.budget_tokens: Extra inputs are not permitted"},
		{name: "beta field on the GA route", body: body(t, map[string]any{"context_management": map[string]any{}}),
			param: "context_management", message: "context_management: Extra inputs are not permitted"},

		// A8: empty and whitespace-only text.
		{name: "empty text block", body: body(t, map[string]any{"messages": []any{userMsg([]any{text("")})}}),
			param: "messages.0.content.0", message: "messages: text content blocks must be non-empty"},
		{name: "empty text block beside text", body: body(t, map[string]any{"messages": []any{userMsg([]any{text(""), text("x")})}}),
			param: "messages.0.content.0", message: "messages: text content blocks must be non-empty"},
		{name: "empty text block in final assistant", body: body(t, map[string]any{"messages": []any{userMsg("q"), asstMsg([]any{text("")})}}),
			param: "messages.1.content.0", message: "messages: text content blocks must be non-empty"},
		{name: "whitespace text block", body: body(t, map[string]any{"messages": []any{userMsg([]any{text("  ")})}}),
			param: "messages.0", message: "messages: text content blocks must contain non-whitespace text"},
		{name: "whitespace string content", body: body(t, map[string]any{"messages": []any{userMsg("\n")}}),
			param: "messages.0", message: "messages: text content blocks must contain non-whitespace text"},
		{name: "whitespace system string", body: body(t, map[string]any{"system": "  "}),
			param: "system", message: "system: text content blocks must contain non-whitespace text"},
		{name: "empty system block", body: body(t, map[string]any{"system": []any{text("a"), text("")}}),
			param: "system.1", message: "system: text content blocks must be non-empty"},

		// A6: forced tool use with thinking.
		{name: "tool_choice any with thinking", body: body(t, map[string]any{"max_tokens": 2048, "thinking": enabled, "tools": []any{fTool},
			"tool_choice": map[string]any{"type": "any"}}), param: "tool_choice", message: "Thinking may not be enabled when tool_choice forces tool use."},
		{name: "tool_choice tool with adaptive thinking", body: body(t, map[string]any{"thinking": map[string]any{"type": "adaptive"}, "tools": []any{fTool},
			"tool_choice": map[string]any{"type": "tool", "name": "f"}}), param: "tool_choice", message: "Thinking may not be enabled when tool_choice forces tool use."},

		// A7: replayed thinking.
		{name: "forged signature", body: body(t, map[string]any{"messages": []any{userMsg("q"), asstMsg([]any{replayedThinking("hmm", "not-a-real-signature"), text("a")}), userMsg("r")}}),
			param: "messages.1.content.0", message: "messages.1.content.0: Invalid `signature` in `thinking` block"},
		{name: "edited thinking", body: body(t, map[string]any{"messages": []any{userMsg("q"), asstMsg([]any{text("a"), replayedThinking("hmm!", signature("hmm"))}), userMsg("r")}}),
			param: "messages.1.content.1", message: "messages.1.content.1: Invalid `signature` in `thinking` block"},

		// B12 and E: blocks.
		{name: "unknown block type", body: body(t, map[string]any{"messages": []any{userMsg([]any{map[string]any{"type": "foo"}})}}),
			param: "messages.0.content.0", message: "messages.0.content.0: Input tag 'foo' found using 'type' does not match any of the expected tags: " + quoteTags(messageBlocks.tags)},
		{name: "unknown block type in assistant", body: body(t, map[string]any{"messages": []any{userMsg("q"), asstMsg([]any{map[string]any{"type": "foo"}})}}),
			param: "messages.1.content.0", message: "messages.1.content.0: Input tag 'foo' found using 'type' does not match any of the expected tags: " + quoteTags(messageBlocks.tags)},
		{name: "10k unknown blocks", body: body(t, map[string]any{"messages": []any{userMsg(many)}}),
			param: "messages.0.content.0", message: "messages.0.content.0: Input tag 'foo' found using 'type' does not match any of the expected tags: " + quoteTags(messageBlocks.tags)},
		{name: "image in a system-role message", body: body(t, map[string]any{"messages": []any{map[string]any{"role": "system", "content": []any{image(map[string]any{"type": "url", "url": "https://x"})}}, userMsg("q")}}),
			param: "messages.0.content.0", message: "messages.0.content.0: Input tag 'image' found using 'type' does not match any of the expected tags: 'text'"},
		{name: "image base64 not decoding", body: body(t, map[string]any{"messages": []any{userMsg([]any{image(map[string]any{"type": "base64", "media_type": "image/png", "data": "%%%"})})}}),
			param: "messages.0.content.0.image.source.base64", message: "messages.0.content.0.image.source.base64: invalid base64 data"},
		{name: "image base64 of text", body: body(t, map[string]any{"messages": []any{userMsg([]any{image(map[string]any{"type": "base64", "media_type": "image/png", "data": "aGVsbG8gd29ybGQ="})})}}),
			param: "messages.0.content.0.image.source.base64.data", message: "messages.0.content.0.image.source.base64.data: Image does not match the provided media type image/png"},
		{name: "image empty data", body: body(t, map[string]any{"messages": []any{userMsg([]any{image(map[string]any{"type": "base64", "media_type": "image/png", "data": ""})})}}),
			param: "messages.0.content.0.image.source.base64", message: "messages.0.content.0.image.source.base64: image cannot be empty"},
		{name: "image media_type text/html", body: body(t, map[string]any{"messages": []any{userMsg([]any{image(map[string]any{"type": "base64", "media_type": "text/html", "data": pngData()})})}}),
			param: "messages.0.content.0.image.source.base64.media_type", message: "messages.0.content.0.image.source.base64.media_type: Input should be 'image/jpeg', 'image/png', 'image/gif' or 'image/webp'"},
		{name: "image media_type image/bmp", body: body(t, map[string]any{"messages": []any{userMsg([]any{image(map[string]any{"type": "base64", "media_type": "image/bmp", "data": pngData()})})}}),
			param: "messages.0.content.0.image.source.base64.media_type", message: "messages.0.content.0.image.source.base64.media_type: Input should be 'image/jpeg', 'image/png', 'image/gif' or 'image/webp'"},
		{name: "image data a number", body: body(t, map[string]any{"messages": []any{userMsg([]any{image(map[string]any{"type": "base64", "media_type": "image/png", "data": 7})})}}),
			param: "messages.0.content.0.image.source.base64.data", message: "messages.0.content.0.image.source.base64.data: Input should be a valid string"},
		{name: "image unknown source type", body: body(t, map[string]any{"messages": []any{userMsg([]any{image(map[string]any{"type": "ftp", "url": "x"})})}}),
			param: "messages.0.content.0.image.source", message: "messages.0.content.0.image.source: Input tag 'ftp' found using 'type' does not match any of the expected tags: 'base64', 'url', 'file'"},
		{name: "image javascript URL", body: body(t, map[string]any{"messages": []any{userMsg([]any{image(map[string]any{"type": "url", "url": "javascript:alert(1)"})})}}),
			param: "messages.0.content.0.image.source.url.url", message: "messages.0.content.0.image.source.url.url: URL scheme should be 'http' or 'https'"},
		{name: "image relative URL", body: body(t, map[string]any{"messages": []any{userMsg([]any{image(map[string]any{"type": "url", "url": "u"})})}}),
			param: "messages.0.content.0.image.source.url.url", message: "messages.0.content.0.image.source.url.url: Input should be a valid URL, relative URL without a base"},
		{name: "text document data a number", body: body(t, map[string]any{"messages": []any{userMsg([]any{map[string]any{"type": "document",
			"source": map[string]any{"type": "text", "media_type": "text/plain", "data": 3}}})}}),
			param: "messages.0.content.0.document.source.text.data", message: "messages.0.content.0.document.source.text.data: Input should be a valid string"},
		{name: "pdf document not base64", body: body(t, map[string]any{"messages": []any{userMsg([]any{map[string]any{"type": "document",
			"source": map[string]any{"type": "base64", "media_type": "application/pdf", "data": "%%"}}})}}),
			param: "messages.0.content.0.document.source.base64", message: "messages.0.content.0.document.source.base64: invalid base64 data"},

		// B12 and E: tools.
		{name: "duplicate tool_use ids", body: body(t, map[string]any{"messages": []any{userMsg("q"), asstMsg([]any{toolUse("t"), toolUse("t")}), userMsg([]any{toolResult("t")})}}),
			param: "messages.1.content.1", message: "messages.1.content.1: `tool_use` ids must be unique"},
		{name: "tool_use in a user message", body: body(t, map[string]any{"messages": []any{userMsg([]any{toolUse("t")})}}),
			param: "messages.0.content.0", message: "messages.0.content.0: `tool_use` blocks are only allowed in `assistant` messages"},
		{name: "tool_result in an assistant message", body: body(t, map[string]any{"messages": []any{userMsg("q"), asstMsg([]any{toolResult("t")})}}),
			param: "messages.1.content.0", message: "messages.1.content.0: `tool_result` blocks are only allowed in `user` messages"},
		{name: "tool_result after text", body: body(t, map[string]any{"messages": []any{userMsg("q"), asstMsg([]any{toolUse("t")}), userMsg([]any{text("see"), toolResult("t")})}}),
			param: "messages.1", message: "messages.1: `tool_use` ids were found without `tool_result` blocks immediately after: t. Each `tool_use` block must have a corresponding `tool_result` block in the next message."},
		{name: "unknown server tool type", body: body(t, map[string]any{"tools": []any{map[string]any{"type": "bogus_20250101", "name": "x"}}}),
			param: "tools.0", message: "tools.0: Input tag 'bogus_20250101' found using 'type' does not match any of the expected tags: " + quoteTags(toolTags(false))},
		{name: "beta server tool on the GA route", body: body(t, map[string]any{"tools": []any{map[string]any{"type": "computer_20250124", "name": "computer"}}}),
			param: "tools.0", message: "tools.0: Input tag 'computer_20250124' found using 'type' does not match any of the expected tags: " + quoteTags(toolTags(false))},
		{name: "server tool named markup", body: body(t, map[string]any{"tools": []any{map[string]any{"type": "web_search_20250305", "name": `"><img src=x onerror=alert(1)>`}}}),
			param: "tools.0.web_search_20250305.name", message: "tools.0.web_search_20250305.name: Input should be 'web_search'"},
		{name: "input_schema of type string", body: body(t, map[string]any{"tools": []any{map[string]any{"name": "f", "input_schema": map[string]any{"type": "string"}}}}),
			param: "tools.0.custom.input_schema.type", message: "tools.0.custom.input_schema.type: Input should be 'object'"},
		{name: "tool_choice naming an unknown tool", body: body(t, map[string]any{"tools": []any{fTool}, "tool_choice": map[string]any{"type": "tool", "name": "g"}}),
			param: "tool_choice.tool.name", message: "tool_choice.tool.name: Tool 'g' not found in `tools`"},
		{name: "tool_choice any without tools", body: body(t, map[string]any{"tool_choice": map[string]any{"type": "any"}}),
			param: "tool_choice", message: "tool_choice: `tool_choice` of type `any` requires `tools` to be provided"},

		// E: cache breakpoints inside a tool_result each count.
		{name: "five cache_control in one tool_result", body: body(t, map[string]any{"messages": []any{userMsg("q"), asstMsg([]any{toolUse("t")}),
			userMsg([]any{map[string]any{"type": "tool_result", "tool_use_id": "t", "content": []any{
				cached("a", ""), cached("b", ""), cached("c", ""), cached("d", ""), cached("e", "")}}})}}),
			param: "messages.2.content.0.content.4", message: "A maximum of 4 blocks with cache_control may be provided. Found 5."},

		// B13 and E: sampling (count_tokens takes none of these fields).
		{name: "temperature 5", body: body(t, map[string]any{"temperature": 5}), param: "temperature",
			message: "temperature: Input should be less than or equal to 1", messagesOnly: true},
		{name: "temperature 1e308", body: body(t, map[string]any{"temperature": 1e308}), param: "temperature",
			message: "temperature: Input should be less than or equal to 1", messagesOnly: true},
		{name: "temperature NaN", body: body(t, map[string]any{"temperature": "NaN"}), param: "temperature",
			message: "temperature: Input should be a valid number", messagesOnly: true},
		{name: "temperature hot", body: body(t, map[string]any{"temperature": "hot"}), param: "temperature",
			message: "temperature: Input should be a valid number", messagesOnly: true},
		{name: "temperature negative", body: body(t, map[string]any{"temperature": -0.1}), param: "temperature",
			message: "temperature: Input should be greater than or equal to 0", messagesOnly: true},
		{name: "top_p -1", body: body(t, map[string]any{"top_p": -1}), param: "top_p",
			message: "top_p: Input should be greater than or equal to 0", messagesOnly: true},
		{name: "top_p 2", body: body(t, map[string]any{"top_p": 2}), param: "top_p",
			message: "top_p: Input should be less than or equal to 1", messagesOnly: true},
		{name: "top_k x", body: body(t, map[string]any{"top_k": "x"}), param: "top_k",
			message: "top_k: Input should be a valid integer", messagesOnly: true},
		{name: "top_k negative", body: body(t, map[string]any{"top_k": -2}), param: "top_k",
			message: "top_k: Input should be greater than or equal to 0", messagesOnly: true},
		{name: "temperature with thinking", body: body(t, map[string]any{"max_tokens": 2048, "thinking": enabled, "temperature": 0.5}), param: "temperature",
			message: "`temperature` may only be set to 1 when thinking is enabled. Please consult our documentation at " + thinkingDocs, messagesOnly: true},
		{name: "top_k with thinking", body: body(t, map[string]any{"max_tokens": 2048, "thinking": enabled, "top_k": 5}), param: "top_k",
			message: "`top_k` must be unset when thinking is enabled. Please consult our documentation at " + thinkingDocs, messagesOnly: true},

		// count_tokens' own fields.
		{name: "thinking display", body: body(t, map[string]any{"max_tokens": 2048, "thinking": map[string]any{"type": "enabled", "budget_tokens": 1024, "display": "full"}}),
			param: "thinking.enabled.display", message: "thinking.enabled.display: Input should be 'summarized' or 'omitted'"},
	}
}

func quoteTags(tags []string) string {
	q := make([]string, len(tags))
	for i, t := range tags {
		q[i] = "'" + t + "'"
	}
	return strings.Join(q, ", ")
}

func TestDecodeStrictRefusals(t *testing.T) {
	for _, tt := range strictRefusals(t) {
		t.Run(tt.name, func(t *testing.T) {
			decoders := map[string]func(context.Context, []byte) (*MessagesRequest, *apierr.Error){"messages": DecodeMessages}
			if !tt.messagesOnly {
				decoders["count_tokens"] = DecodeCountTokens
			}
			for route, decode := range decoders {
				b := tt.body
				if route == "count_tokens" {
					b = withoutMaxTokens(t, b)
				}
				r, err := decode(context.Background(), b)
				require.Nil(t, r, route)
				require.NotNil(t, err, route)
				assert.Equal(t, 400, err.Status, route)
				assert.Equal(t, scenario.ErrorInvalidRequest, err.Kind, route)
				assert.Equal(t, tt.message, err.Message, route)
				assert.Equal(t, tt.param, err.Param, route)
			}
		})
	}
}

// withoutMaxTokens is b without max_tokens, a count_tokens body.
func withoutMaxTokens(t testing.TB, b []byte) []byte {
	t.Helper()
	var m map[string]json.RawMessage
	require.NoError(t, json.Unmarshal(b, &m))
	delete(m, "max_tokens")
	out, err := json.Marshal(m)
	require.NoError(t, err)
	return out
}

// count_tokens refuses the fields only /v1/messages has.
func TestDecodeCountTokensRefusesMessagesFields(t *testing.T) {
	for _, field := range []string{"max_tokens", "stream", "stop_sequences", "metadata", "temperature"} {
		b := body(t, map[string]any{"max_tokens": nil, field: map[string]any{"max_tokens": 10, "stream": true,
			"stop_sequences": []any{"x"}, "metadata": map[string]any{}, "temperature": 1}[field]})
		_, err := DecodeCountTokens(context.Background(), b)
		require.NotNil(t, err, field)
		assert.Equal(t, field+": Extra inputs are not permitted", err.Message)
	}
}

// The beta lists take what the GA ones refuse, and tolerance names every
// unknown field by its path.
func TestDecodeBetaAndTolerance(t *testing.T) {
	b := body(t, map[string]any{"context_management": map[string]any{"edits": []any{}}, "mcp_servers": []any{},
		"tools": []any{map[string]any{"type": "computer_20250124", "name": "computer", "display_width_px": 1024},
			map[string]any{"type": "mcp_toolset", "mcp_server_name": "s"}}})
	r, err := DecodeMessagesWith(context.Background(), b, DecodeOptions{Beta: true})
	require.Nil(t, err)
	assert.Empty(t, r.Unknown)
	_, err = DecodeMessagesWith(context.Background(), b, DecodeOptions{})
	require.NotNil(t, err)

	b = body(t, map[string]any{"foo": 1, "messages": []any{map[string]any{"role": "user", "name": "bob",
		"content": []any{map[string]any{"type": "text", "text": "x", "cache_control": map[string]any{"type": "ephemeral", "scope": "g"}}}}}})
	r, err = DecodeMessagesWith(context.Background(), b, DecodeOptions{AllowUnknown: true})
	require.Nil(t, err)
	assert.Equal(t, []string{"foo", "messages.0.content.0.text.cache_control.ephemeral.scope", "messages.0.name"}, r.Unknown)

	blocks := make([]any, 1000)
	for i := range blocks {
		blocks[i] = map[string]any{"type": "text", "text": "b", "x": i}
	}
	r, err = DecodeMessagesWith(context.Background(), body(t, map[string]any{"messages": []any{userMsg(blocks)}}), DecodeOptions{AllowUnknown: true})
	require.Nil(t, err)
	assert.Len(t, r.Unknown, maxUnknown, "tolerated fields are named up to a bound")
}

// What the real API takes, the decoder takes: every accepted shape the
// sources tabulate, valid images of each type, thinking replayed as
// signed, the display knob, and between_tools thinking.
func TestDecodeStrictAccepts(t *testing.T) {
	gif, jpeg, webp := "R0lGODlhAQABAAAAACw=", "/9j/4AAQSkZJRg==", "UklGRiQAAABXRUJQVlA4IA=="
	for name, b := range map[string][]byte{
		"whitespace beside text":       body(t, map[string]any{"messages": []any{userMsg([]any{text(" "), text("real")})}}),
		"whitespace beside a tool_use": body(t, map[string]any{"messages": []any{userMsg("q"), asstMsg([]any{text("\n\n"), toolUse("t")}), userMsg([]any{toolResult("t")})}}),
		"empty tool_result contents": body(t, map[string]any{"messages": []any{userMsg("q"), asstMsg([]any{toolUse("a"), toolUse("b"), toolUse("c")}),
			userMsg([]any{map[string]any{"type": "tool_result", "tool_use_id": "a", "content": ""},
				map[string]any{"type": "tool_result", "tool_use_id": "b", "content": " "},
				map[string]any{"type": "tool_result", "tool_use_id": "c", "content": []any{text("")}}})}}),
		"empty system string": body(t, map[string]any{"system": ""}),
		"images of each type": body(t, map[string]any{"messages": []any{userMsg([]any{
			image(map[string]any{"type": "base64", "media_type": "image/png", "data": pngData()}),
			image(map[string]any{"type": "base64", "media_type": "image/gif", "data": gif}),
			image(map[string]any{"type": "base64", "media_type": "image/jpeg", "data": jpeg}),
			image(map[string]any{"type": "base64", "media_type": "image/webp", "data": webp}),
			image(map[string]any{"type": "url", "url": "https://example.com/a.png"}),
			image(map[string]any{"type": "file", "file_id": "file_1"})})}}),
		"signed thinking replayed": body(t, map[string]any{"messages": []any{userMsg("q"), asstMsg([]any{replayedThinking("hmm", signature("hmm")), text("a")}), userMsg("r")}}),
		"thinking display omitted": body(t, map[string]any{"max_tokens": 2048, "thinking": map[string]any{"type": "enabled", "budget_tokens": 1024, "display": "omitted"},
			"temperature": 1}),
		"between_tools thinking": body(t, map[string]any{"thinking": map[string]any{"type": "between_tools"}, "top_k": 3}),
		"tool_choice auto with thinking": body(t, map[string]any{"max_tokens": 2048, "thinking": map[string]any{"type": "enabled", "budget_tokens": 1024},
			"tools": []any{fTool}, "tool_choice": map[string]any{"type": "auto"}}),
		"tool_choice naming a toolset's tool": body(t, map[string]any{"tools": []any{map[string]any{"type": "browser_toolset_20260801"}},
			"tool_choice": map[string]any{"type": "tool", "name": "browser_click"}}),
		"toolsets without names":   body(t, map[string]any{"tools": []any{map[string]any{"type": "browser_toolset_20260801"}, map[string]any{"type": "computer_toolset_20260801"}}}),
		"sampling in range":        body(t, map[string]any{"temperature": 0, "top_p": 1, "top_k": 0, "thinking": map[string]any{"type": "disabled"}}),
		"five breakpoints nowhere": body(t, map[string]any{"messages": []any{userMsg([]any{cached("a", ""), cached("b", ""), cached("c", ""), cached("d", "")})}}),
	} {
		t.Run(name, func(t *testing.T) {
			r, err := DecodeMessages(context.Background(), b)
			require.Nil(t, err)
			require.NotNil(t, r)
		})
	}
	r, err := DecodeMessages(context.Background(), body(t, map[string]any{"max_tokens": 2048,
		"thinking": map[string]any{"type": "adaptive", "display": "summarized"}}))
	require.Nil(t, err)
	assert.Equal(t, "summarized", r.Thinking.Display)
}

// A body of 10k unknown blocks is refused at the first, its decoding about
// as cheap as its parsing.
func TestDecodeManyUnknownBlocksIsCheap(t *testing.T) {
	many := make([]any, 10000)
	for i := range many {
		many[i] = map[string]any{"type": fmt.Sprintf("foo%d", i)}
	}
	b := body(t, map[string]any{"messages": []any{userMsg(many)}})
	allocs := testing.AllocsPerRun(3, func() { _, _ = DecodeMessages(context.Background(), b) })
	// Parsing the list costs a few allocations a block; decoding every
	// block would cost dozens more.
	assert.Less(t, allocs, float64(10*len(many)))
}
