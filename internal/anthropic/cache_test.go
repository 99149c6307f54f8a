package anthropic

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestPromptParts(t *testing.T) {
	r, err := DecodeMessages(context.Background(), []byte(`{"model":"m","max_tokens":5,
	  "tools":[{"name":"f","description":"d","input_schema":{"type":"object"},"cache_control":{"type":"ephemeral","ttl":"1h"}}],
	  "system":[{"type":"text","text":"sys","cache_control":{"type":"ephemeral"}}],
	  "messages":[{"role":"user","content":[{"type":"text","text":"hi"},{"type":"image","source":{"type":"url","url":"https://x/u"}},
	     {"type":"document","source":{"type":"text","media_type":"text/plain","data":"doc"}},
	     {"type":"document","source":{"type":"base64","media_type":"application/pdf","data":"JVBERi0x"}}]},
	    {"role":"assistant","content":"ok"}]}`))
	require.Nil(t, err)
	parts := r.PromptParts()
	require.Len(t, parts, 7)
	assert.Equal(t, PromptPart{Key: `tool:{"description":"d","input_schema":{"type":"object"},"name":"f"}`,
		Text: "f\nd\n{\"type\":\"object\"}", Breakpoint: true, TTL: TTL1h}, parts[0])
	assert.Equal(t, PromptPart{Key: `system:{"text":"sys","type":"text"}`, Text: "sys", Breakpoint: true, TTL: TTL5m}, parts[1])
	assert.Equal(t, "hi", parts[2].Text)
	assert.False(t, parts[2].Breakpoint)
	assert.Equal(t, ImageTokens, parts[3].Tokens)
	assert.Equal(t, "doc", parts[4].Text)
	assert.Equal(t, DocumentTokens, parts[5].Tokens)
	assert.Equal(t, `assistant:{"text":"ok","type":"text"}`, parts[6].Key, "a string content is keyed as its text block")
	assert.False(t, parts[6].Breakpoint)
}

func TestPromptPartsAutomatic(t *testing.T) {
	r, err := DecodeMessages(context.Background(), body(t, map[string]any{"cache_control": map[string]any{"type": "ephemeral", "ttl": "1h"}}))
	require.Nil(t, err)
	parts := r.PromptParts()
	require.Len(t, parts, 1)
	assert.True(t, parts[0].Breakpoint, "the automatic breakpoint is on the last part")
	assert.Equal(t, TTL1h, parts[0].TTL)
}

func TestPromptPartsKeysIgnoreBreakpoints(t *testing.T) {
	a, err := DecodeMessages(context.Background(), body(t, map[string]any{"messages": []any{userMsg([]any{cached("same", "")})}}))
	require.Nil(t, err)
	b, err := DecodeMessages(context.Background(), body(t, map[string]any{"messages": []any{userMsg("same")}}))
	require.Nil(t, err)
	assert.Equal(t, a.PromptParts()[0].Key, b.PromptParts()[0].Key)
	c, err := DecodeMessages(context.Background(), body(t, map[string]any{"messages": []any{userMsg("q"), asstMsg("same")}}))
	require.Nil(t, err)
	assert.NotEqual(t, b.PromptParts()[0].Key, c.PromptParts()[1].Key, "the role is part of the key")
}

func TestPromptPartsToolResult(t *testing.T) {
	r, err := DecodeMessages(context.Background(), body(t, map[string]any{"messages": []any{userMsg("q"), asstMsg([]any{toolUse("t")}),
		userMsg([]any{map[string]any{"type": "tool_result", "tool_use_id": "t", "content": []any{
			map[string]any{"type": "text", "text": "a"}, map[string]any{"type": "image", "source": map[string]any{"type": "url", "url": "https://x/u"}},
			cached("b", "")}}})}}))
	require.Nil(t, err)
	parts := r.PromptParts()
	require.Len(t, parts, 3)
	assert.Equal(t, "f\n{}", parts[1].Text)
	assert.Equal(t, "a\n\nb", parts[2].Text)
	assert.Equal(t, ImageTokens, parts[2].Tokens)
	assert.True(t, parts[2].Breakpoint, "a breakpoint inside a tool result marks the result")
}

// The quick key of a plain text block is the one canonical makes of it,
// whatever the text holds, so both spellings share cached prefixes.
func TestTextKeyIsTheCanonicalKey(t *testing.T) {
	for _, text := range []string{"", "plain", `quote " and \ backslash`, "<b>&amp;</b>", "tab\tnewline\n", "é 日本 \u2028", "\x00\x01"} {
		raw, err := json.Marshal(map[string]any{"type": "text", "text": text, "cache_control": map[string]string{"type": "ephemeral"}})
		require.NoError(t, err)
		assert.Equal(t, canonical(raw), textKey(text), "text %q", text)
	}
}
