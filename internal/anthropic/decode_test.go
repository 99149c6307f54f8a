package anthropic

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/llmtestserver/llmtestserver/internal/apierr"
	"github.com/llmtestserver/llmtestserver/scenario"
)

// body builds a request body from a base with fields replaced (a nil value
// deletes the field).
func body(t testing.TB, fields map[string]any) []byte {
	t.Helper()
	m := map[string]any{
		"model":      "claude-sonnet-5-5",
		"max_tokens": 1024,
		"messages":   []any{map[string]any{"role": "user", "content": "Hello"}},
	}
	for k, v := range fields {
		if v == nil {
			delete(m, k)
		} else {
			m[k] = v
		}
	}
	b, err := json.Marshal(m)
	require.NoError(t, err)
	return b
}

func TestDecodeBlockShapes(t *testing.T) {
	b := []byte(`{
	  "model": "claude-sonnet-5-5", "max_tokens": 0, "stream": true,
	  "system": [{"type":"text","text":"Be brief.","cache_control":{"type":"ephemeral","ttl":"1h"}},{"type":"text","text":"Be kind."}],
	  "messages": [
	    {"role":"user","content":[
	      {"type":"text","text":"Look:"},
	      {"type":"image","source":{"type":"base64","media_type":"image/png","data":"iVBORw0KGgo="}},
	      {"type":"document","source":{"type":"text","media_type":"text/plain","data":"doc text"}}]},
	    {"role":"assistant","content":[
	      {"type":"thinking","thinking":"hmm","signature":"SIG"},
	      {"type":"redacted_thinking","data":"xyz"},
	      {"type":"text","text":"Checking."},
	      {"type":"tool_use","id":"toolu_1","name":"get_weather","input":{"city": "Paris"}},
	      {"type":"server_tool_use","id":"srvtoolu_1","name":"web_search","input":{}}]},
	    {"role":"user","content":[
	      {"type":"tool_result","tool_use_id":"toolu_1","content":[{"type":"text","text":"sunny"}],"is_error":true},
	      {"type":"text","text":"Thanks"}]}
	  ],
	  "tools": [
	    {"name":"get_weather","description":"Weather","input_schema":{"type":"object"},"cache_control":{"type":"ephemeral","ttl":"1h"}},
	    {"type":"web_search_20250305","name":"web_search","max_uses":3}],
	  "tool_choice": {"type":"tool","name":"get_weather","disable_parallel_tool_use":true},
	  "stop_sequences": ["END"], "metadata": {"user_id": "u-1"},
	  "thinking": {"type":"disabled"}, "service_tier": "auto",
	  "output_config": {"effort":"low"}, "temperature": 0.5,
	  "zeta": 1, "alpha": {"x": 1}
	}`)
	b = []byte(strings.Replace(string(b), "SIG", signature("hmm"), 1))
	b = []byte(strings.Replace(string(b), `"data":"xyz"`, `"data":"`+redactedData("xyz")+`"`, 1))
	r, err := DecodeMessagesWith(context.Background(), b, DecodeOptions{AllowUnknown: true})
	require.Nil(t, err)
	require.NotNil(t, r.MaxTokens)
	assert.Equal(t, int64(0), *r.MaxTokens)
	assert.True(t, r.Stream)
	require.Len(t, r.System, 2)
	assert.Equal(t, TTL1h, r.System[0].CacheControl.TTL)
	assert.Nil(t, r.System[1].CacheControl)
	require.Len(t, r.Messages, 3)
	u := r.Messages[0].Content
	assert.Equal(t, []string{"text", "image", "document"}, []string{u[0].Type, u[1].Type, u[2].Type})
	assert.JSONEq(t, `{"type":"base64","media_type":"image/png","data":"iVBORw0KGgo="}`, string(u[1].Source))
	a := r.Messages[1].Content
	assert.Equal(t, "hmm", a[0].Text)
	assert.Equal(t, signature("hmm"), a[0].Signature)
	assert.Equal(t, redactedData("xyz"), a[1].Data)
	assert.Equal(t, "toolu_1", a[3].ID)
	assert.JSONEq(t, `{"city":"Paris"}`, string(a[3].Input))
	assert.Equal(t, "server_tool_use", a[4].Type, "an unread type is kept")
	assert.NotEmpty(t, a[4].Raw)
	tr := r.Messages[2].Content[0]
	assert.Equal(t, "toolu_1", tr.ToolUseID)
	assert.True(t, tr.IsError)
	assert.Equal(t, "sunny", tr.Content[0].Text)
	require.Len(t, r.Tools, 2)
	assert.True(t, r.Tools[0].Client())
	assert.False(t, r.Tools[1].Client())
	assert.Equal(t, "web_search", r.Tools[1].Name)
	assert.Equal(t, &ToolChoice{Type: "tool", Name: "get_weather", DisableParallelToolUse: true}, r.ToolChoice)
	assert.Equal(t, []string{"END"}, r.StopSequences)
	assert.Equal(t, "u-1", r.UserID)
	assert.Equal(t, &Thinking{Type: "disabled"}, r.Thinking)
	assert.Equal(t, "auto", r.ServiceTier)
	assert.JSONEq(t, `{"effort":"low"}`, string(r.OutputConfig))
	assert.Equal(t, []string{"alpha", "zeta"}, r.Unknown, "tolerated unknown fields are named, sorted; known knobs are not")
}

func TestDecodeStringShapes(t *testing.T) {
	r, err := DecodeMessages(context.Background(), []byte(`{"model":"m","max_tokens":5,"system":"Be brief.","messages":[
	  {"role":"user","content":"Hi"},
	  {"role":"assistant","content":[{"type":"tool_use","id":"t1","name":"f","input":{}}]},
	  {"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","content":"42"}]}]}`))
	require.Nil(t, err)
	require.Len(t, r.System, 1)
	assert.Equal(t, "Be brief.", r.System[0].Text)
	assert.True(t, r.Messages[0].ContentString)
	assert.Equal(t, "Hi", r.Messages[0].Content[0].Text)
	res := r.Messages[2].Content[0]
	assert.True(t, res.ContentString)
	assert.Equal(t, "42", res.Content[0].Text)
	assert.Empty(t, r.Unknown)
}

func TestDecodeCountTokensNeedsNoMaxTokens(t *testing.T) {
	r, err := DecodeCountTokens(context.Background(), body(t, map[string]any{"max_tokens": nil}))
	require.Nil(t, err)
	assert.Nil(t, r.MaxTokens)
	_, err = DecodeMessages(context.Background(), body(t, map[string]any{"max_tokens": nil}))
	require.NotNil(t, err)
	assert.Equal(t, "max_tokens: Field required", err.Message)
}

func userMsg(content any) map[string]any { return map[string]any{"role": "user", "content": content} }
func asstMsg(content any) map[string]any {
	return map[string]any{"role": "assistant", "content": content}
}
func toolUse(id string) map[string]any {
	return map[string]any{"type": "tool_use", "id": id, "name": "f", "input": map[string]any{}}
}
func toolResult(id string) map[string]any {
	return map[string]any{"type": "tool_result", "tool_use_id": id, "content": "ok"}
}
func cached(text, ttl string) map[string]any {
	cc := map[string]any{"type": "ephemeral"}
	if ttl != "" {
		cc["ttl"] = ttl
	}
	return map[string]any{"type": "text", "text": text, "cache_control": cc}
}

func TestDecodeValidation(t *testing.T) {
	tests := []struct {
		name    string
		body    []byte
		param   string
		message string
	}{
		{"max_tokens missing", body(t, map[string]any{"max_tokens": nil}), "max_tokens", "max_tokens: Field required"},
		{"max_tokens a string", body(t, map[string]any{"max_tokens": "10"}), "max_tokens", "max_tokens: Input should be a valid integer"},
		{"max_tokens fractional", body(t, map[string]any{"max_tokens": 1.5}), "max_tokens", "max_tokens: Input should be a valid integer, got a number with a fractional part"},
		{"max_tokens negative", body(t, map[string]any{"max_tokens": -1}), "max_tokens", "max_tokens: Input should be greater than or equal to 0"},
		{"model missing", body(t, map[string]any{"model": nil}), "model", "model: Field required"},
		{"model a number", body(t, map[string]any{"model": 4}), "model", "model: Input should be a valid string"},
		{"messages missing", body(t, map[string]any{"messages": nil}), "messages", "messages: Field required"},
		{"messages an object", body(t, map[string]any{"messages": map[string]any{}}), "messages", "messages: Input should be a valid list"},
		{"messages empty", body(t, map[string]any{"messages": []any{}}), "messages", "messages: at least one message is required"},
		{"message not an object", body(t, map[string]any{"messages": []any{"hi"}}), "messages.0", "messages.0: Input should be a valid dictionary"},
		{"bad role", body(t, map[string]any{"messages": []any{map[string]any{"role": "tool", "content": "x"}}}),
			"messages.0.role", "messages.0.role: Input should be 'user', 'assistant' or 'system'"},
		{"role missing", body(t, map[string]any{"messages": []any{map[string]any{"content": "x"}}}), "messages.0.role", "messages.0.role: Field required"},
		{"content missing", body(t, map[string]any{"messages": []any{map[string]any{"role": "user"}}}), "messages.0.content", "messages.0.content: Field required"},
		{"content a number", body(t, map[string]any{"messages": []any{userMsg(3)}}), "messages.0.content",
			"messages.0.content: Input should be a valid string or a valid list of content blocks"},
		{"empty content", body(t, map[string]any{"messages": []any{userMsg(""), asstMsg("a"), userMsg("b")}}), "messages.0",
			"messages.0: all messages must have non-empty content except for the optional final assistant message"},
		{"block without type", body(t, map[string]any{"messages": []any{userMsg([]any{map[string]any{"text": "x"}})}}),
			"messages.0.content.0", "messages.0.content.0: Unable to extract tag using discriminator 'type'"},
		{"text block without text", body(t, map[string]any{"messages": []any{userMsg([]any{map[string]any{"type": "text"}})}}),
			"messages.0.content.0.text.text", "messages.0.content.0.text.text: Field required"},
		{"tool_use input not an object", body(t, map[string]any{"messages": []any{userMsg("q"), asstMsg([]any{map[string]any{"type": "tool_use", "id": "t", "name": "f", "input": "x"}})}}),
			"messages.1.content.0.tool_use.input", "messages.1.content.0.tool_use.input: Input should be a valid dictionary"},
		{"tool_result without tool_use", body(t, map[string]any{"messages": []any{userMsg("q"), asstMsg("a"), userMsg([]any{toolResult("toolu_x")})}}),
			"messages.2.content.0",
			"messages.2.content.0: unexpected `tool_use_id` found in `tool_result` blocks: toolu_x. Each `tool_result` block must have a corresponding `tool_use` block in the previous message."},
		{"tool_result first", body(t, map[string]any{"messages": []any{userMsg([]any{map[string]any{"type": "text", "text": "x"}, toolResult("toolu_x")})}}),
			"messages.0.content.1",
			"messages.0.content.1: unexpected `tool_use_id` found in `tool_result` blocks: toolu_x. Each `tool_result` block must have a corresponding `tool_use` block in the previous message."},
		{"tool_use unanswered", body(t, map[string]any{"messages": []any{userMsg("q"), asstMsg([]any{toolUse("toolu_a"), toolUse("toolu_b")}), userMsg([]any{toolResult("toolu_a")})}}),
			"messages.1",
			"messages.1: `tool_use` ids were found without `tool_result` blocks immediately after: toolu_b. Each `tool_use` block must have a corresponding `tool_result` block in the next message."},
		{"system a number", body(t, map[string]any{"system": 1}), "system", "system: Input should be a valid string or a valid list of text blocks"},
		{"system block not text", body(t, map[string]any{"system": []any{map[string]any{"type": "image"}}}), "system.0",
			"system.0: Input tag 'image' found using 'type' does not match any of the expected tags: 'text'"},
		{"tool without schema", body(t, map[string]any{"tools": []any{map[string]any{"name": "f"}}}), "tools.0.custom.input_schema", "tools.0.custom.input_schema: Field required"},
		{"tool bad name", body(t, map[string]any{"tools": []any{map[string]any{"name": "a b", "input_schema": map[string]any{}}}}), "tools.0.custom.name",
			"tools.0.custom.name: String should match pattern '^[a-zA-Z0-9_-]{1,128}$'"},
		{"tools duplicate", body(t, map[string]any{"tools": []any{map[string]any{"name": "f", "input_schema": map[string]any{}}, map[string]any{"name": "f", "input_schema": map[string]any{}}}}),
			"tools", "tools: Tool names must be unique."},
		{"tool_choice bad type", body(t, map[string]any{"tool_choice": map[string]any{"type": "required"}}), "tool_choice",
			"tool_choice: Input tag 'required' found using 'type' does not match any of the expected tags: 'auto', 'any', 'tool', 'none'"},
		{"tool_choice tool without name", body(t, map[string]any{"tool_choice": map[string]any{"type": "tool"}}), "tool_choice.tool.name", "tool_choice.tool.name: Field required"},
		{"stream not bool", body(t, map[string]any{"stream": "yes"}), "stream", "stream: Input should be a valid boolean"},
		{"stop_sequences not strings", body(t, map[string]any{"stop_sequences": []any{1}}), "stop_sequences.0", "stop_sequences.0: Input should be a valid string"},
		{"metadata user_id a number", body(t, map[string]any{"metadata": map[string]any{"user_id": 1}}), "metadata.user_id", "metadata.user_id: Input should be a valid string"},
		{"service_tier", body(t, map[string]any{"service_tier": "priority"}), "service_tier", "service_tier: Input should be 'auto' or 'standard_only'"},
		{"thinking bad type", body(t, map[string]any{"thinking": map[string]any{"type": "on"}}), "thinking",
			"thinking: Input tag 'on' found using 'type' does not match any of the expected tags: 'enabled', 'disabled', 'between_tools', 'adaptive'"},
		{"thinking budget missing", body(t, map[string]any{"thinking": map[string]any{"type": "enabled"}}), "thinking.enabled.budget_tokens", "thinking.enabled.budget_tokens: Field required"},
		{"thinking budget small", body(t, map[string]any{"thinking": map[string]any{"type": "enabled", "budget_tokens": 512}}), "thinking.enabled.budget_tokens",
			"thinking.enabled.budget_tokens: Input should be greater than or equal to 1024"},
		{"thinking budget over max_tokens", body(t, map[string]any{"max_tokens": 2000, "thinking": map[string]any{"type": "enabled", "budget_tokens": 2000}}), "max_tokens",
			"`max_tokens` must be greater than `thinking.budget_tokens`. Please consult our documentation at https://docs.claude.com/en/docs/build-with-claude/extended-thinking#max-tokens-and-context-window-size"},
		{"cache_control bad ttl", body(t, map[string]any{"system": []any{cached("s", "10m")}}), "system.0.cache_control.ephemeral.ttl", "system.0.cache_control.ephemeral.ttl: Input should be '5m' or '1h'"},
		{"cache_control bad type", body(t, map[string]any{"system": []any{map[string]any{"type": "text", "text": "s", "cache_control": map[string]any{"type": "persistent"}}}}),
			"system.0.cache_control", "system.0.cache_control: Input tag 'persistent' found using 'type' does not match any of the expected tags: 'ephemeral'"},
		{"five breakpoints", body(t, map[string]any{"system": []any{cached("a", ""), cached("b", ""), cached("c", ""), cached("d", ""), cached("e", "")}}),
			"system.4", "A maximum of 4 blocks with cache_control may be provided. Found 5."},
		{"automatic fifth breakpoint", body(t, map[string]any{"system": []any{cached("a", ""), cached("b", ""), cached("c", ""), cached("d", "")},
			"cache_control": map[string]any{"type": "ephemeral"}}),
			"cache_control", "A maximum of 4 blocks with cache_control may be provided. Found 5."},
		{"1h after 5m", body(t, map[string]any{"system": []any{cached("a", "5m")}, "messages": []any{userMsg([]any{cached("b", "1h")})}}),
			"messages.0.content.0.cache_control.ttl",
			"messages.0.content.0.cache_control.ttl: a ttl='1h' cache_control block must not come after a ttl='5m' cache_control block. Note that blocks are processed in the following order: `tools`, `system`, `messages`."},
		{"automatic ttl disagrees", body(t, map[string]any{"messages": []any{userMsg([]any{cached("b", "1h")})}, "cache_control": map[string]any{"type": "ephemeral"}}),
			"cache_control", "Top-level cache_control has ttl='5m' but the target block already has cache_control with ttl='1h'"},
		{"not an object", []byte(`[1]`), "", "Input should be a valid dictionary or object to extract fields from"},
		{"tool_result inside a tool_result", body(t, map[string]any{"messages": []any{userMsg("q"), asstMsg([]any{toolUse("t")}),
			userMsg([]any{map[string]any{"type": "tool_result", "tool_use_id": "t", "content": []any{toolResult("t")}}})}}),
			"messages.2.content.0.tool_result.content.0", "messages.2.content.0.tool_result.content.0: Input tag 'tool_result' found using 'type' does not match any of the expected tags: 'text', 'image', 'search_result', 'document', 'tool_reference', 'browser_state'"},
		{"system block of another type", body(t, map[string]any{"system": []any{map[string]any{"type": "image", "source": map[string]any{}}}}),
			"system.0", "system.0: Input tag 'image' found using 'type' does not match any of the expected tags: 'text'"},
		{"invalid JSON", []byte("{\n \"model\": x}"), "", "The request body is not valid JSON: invalid character 'x' looking for beginning of value: line 2 column 11 (char 12)"},
		{"truncated JSON", []byte(`{"model":`), "", "The request body is not valid JSON: unexpected end of JSON input: line 1 column 10 (char 9)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := DecodeMessages(context.Background(), tt.body)
			require.Nil(t, r)
			require.NotNil(t, err)
			assert.Equal(t, 400, err.Status)
			assert.Equal(t, scenario.ErrorInvalidRequest, err.Kind)
			assert.Equal(t, "invalid_request_error", err.Type)
			assert.Equal(t, tt.message, err.Message)
			assert.Equal(t, tt.param, err.Param)
		})
	}
}

func TestDecodeAccepts(t *testing.T) {
	for name, b := range map[string][]byte{
		"final assistant prefill may be empty": body(t, map[string]any{"messages": []any{userMsg("q"), asstMsg("")}}),
		"assistant tool_use last":              body(t, map[string]any{"messages": []any{userMsg("q"), asstMsg([]any{toolUse("t")})}}),
		"1h before 5m":                         body(t, map[string]any{"system": []any{cached("a", "1h")}, "messages": []any{userMsg([]any{cached("b", "5m")})}}),
		"four breakpoints and automatic on one": body(t, map[string]any{"system": []any{cached("a", ""), cached("b", ""), cached("c", "")},
			"messages": []any{userMsg([]any{cached("d", "")})}, "cache_control": map[string]any{"type": "ephemeral"}}),
		"nulls for optional fields": body(t, map[string]any{"system": nil, "tools": nil, "metadata": nil, "stream": nil}),
		"integral float max_tokens": []byte(`{"model":"m","max_tokens":10.0,"messages":[{"role":"user","content":"x"}]}`),
		"system role message":       body(t, map[string]any{"messages": []any{map[string]any{"role": "system", "content": []any{map[string]any{"type": "text", "text": "s"}}}, userMsg("q")}}),
	} {
		t.Run(name, func(t *testing.T) {
			_, err := DecodeMessages(context.Background(), b)
			assert.Nil(t, err)
		})
	}
}

func TestCheckModel(t *testing.T) {
	info, ok := Lookup("claude-sonnet-5-5")
	require.True(t, ok)
	r, err := DecodeMessages(context.Background(), body(t, map[string]any{"max_tokens": 200000}))
	require.Nil(t, err)
	e := r.CheckModel(info)
	require.NotNil(t, e)
	assert.Equal(t, 400, e.Status)
	assert.Equal(t, "max_tokens", e.Param)
	assert.Equal(t, "max_tokens: 200000 > 128000, which is the maximum allowed number of output tokens for claude-sonnet-5-5", e.Message)

	r, err = DecodeMessages(context.Background(), body(t, map[string]any{"max_tokens": 128000}))
	require.Nil(t, err)
	assert.Nil(t, r.CheckModel(info))
	r, err = DecodeCountTokens(context.Background(), body(t, map[string]any{"max_tokens": nil}))
	require.Nil(t, err)
	assert.Nil(t, r.CheckModel(info))
}

// FuzzDecodeMessages decodes any body on both routes, GA and beta, strict
// and tolerant: a refusal is always a 4xx with a message, never a panic,
// and what is accepted normalizes and cuts into prompt parts. The seeds
// are the strict refusals' table (audit section E among them).
func FuzzDecodeMessages(f *testing.F) {
	f.Add([]byte(`{"model":"m","max_tokens":1,"messages":[{"role":"user","content":"x"}]}`))
	f.Add([]byte(`{"model":"m","max_tokens":1,"system":[{"type":"text","text":"s","cache_control":{"type":"ephemeral","ttl":"1h"}}],"messages":[{"role":"assistant","content":[{"type":"tool_use","id":"a","name":"f","input":{}}]},{"role":"user","content":[{"type":"tool_result","tool_use_id":"a","content":[{"type":"text","text":"r"}]}]}],"cache_control":{"type":"ephemeral"}}`))
	f.Add([]byte(`{"model":"m","max_tokens":1,"tools":[{"name":"f","input_schema":{}}],"tool_choice":{"type":"tool","name":"f"},"thinking":{"type":"enabled","budget_tokens":1024}}`))
	f.Add([]byte(`[]`))
	f.Add([]byte(`{"messages":null}`))
	for _, r := range strictRefusals(f) {
		if len(r.body) < 4096 {
			f.Add(r.body)
		}
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		for _, opts := range []DecodeOptions{{}, {Beta: true}, {AllowUnknown: true}} {
			for _, decode := range []func(context.Context, []byte, DecodeOptions) (*MessagesRequest, *apierr.Error){DecodeMessagesWith, DecodeCountTokensWith} {
				r, err := decode(context.Background(), b, opts)
				if err != nil {
					require.Nil(t, r)
					require.GreaterOrEqual(t, err.Status, 400)
					require.Less(t, err.Status, 500)
					require.NotEmpty(t, err.Message)
					continue
				}
				require.NotNil(t, r)
				n := r.Normalize()
				require.Equal(t, scenario.EndpointMessages, n.Endpoint)
				_ = r.PromptParts()
				require.LessOrEqual(t, len(r.Unknown), maxUnknown)
			}
		}
	})
}

// Decoding a body of many messages and blocks stops once the request's
// context ends, refused as a request whose client left.
func TestDecodeStopsWithItsContext(t *testing.T) {
	blocks := make([]any, 1000)
	for i := range blocks {
		blocks[i] = map[string]any{"type": "text", "text": "b"}
	}
	b := body(t, map[string]any{"messages": []any{userMsg(blocks)}})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	for _, decode := range []func(context.Context, []byte) (*MessagesRequest, *apierr.Error){DecodeMessages, DecodeCountTokens} {
		r, err := decode(ctx, b)
		require.Nil(t, r)
		require.NotNil(t, err)
		assert.Equal(t, apierr.StatusClientClosed, err.Status)
	}
	r, err := DecodeMessages(context.Background(), b)
	require.Nil(t, err)
	assert.Len(t, r.Messages[0].Content, 1000)
}
