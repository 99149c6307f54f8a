package anthropic

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/llmtestserver/llmtestserver/scenario"
)

// TestNormalizeMatchesOpenAI checks that a Messages agent loop normalizes
// to what the same conversation in Chat Completions normalizes to (as
// internal/openai builds it), endpoint aside.
func TestNormalizeMatchesOpenAI(t *testing.T) {
	r, err := DecodeMessages(context.Background(), []byte(`{
	  "model": "claude-sonnet-5-5", "max_tokens": 100, "stream": true,
	  "system": [{"type":"text","text":"You are terse."},{"type":"text","text":"Answer in French."}],
	  "metadata": {"user_id": "user-7"},
	  "tools": [{"name":"get_weather","description":"Weather by city","input_schema":{"type":"object","properties":{"city":{"type":"string"}}}}],
	  "tool_choice": {"type":"any"},
	  "messages": [
	    {"role":"user","content":"Weather in Paris and Rome?"},
	    {"role":"assistant","content":[
	      {"type":"thinking","thinking":"two calls","signature":"2Y/fB95YWT5rzYz4AJ5sGH2K0a8uvoZ0Q50YL04ijzfZj98H3lhZPmvNjPgAnmwYfYrRry6+hnRDnRgvTiKPNw=="},
	      {"type":"text","text":"Checking."},
	      {"type":"tool_use","id":"toolu_1","name":"get_weather","input":{"city": "Paris"}},
	      {"type":"tool_use","id":"toolu_2","name":"get_weather","input":{"city":"Rome"}}]},
	    {"role":"user","content":[
	      {"type":"tool_result","tool_use_id":"toolu_1","content":"sunny"},
	      {"type":"tool_result","tool_use_id":"toolu_2","content":[{"type":"text","text":"rain"},{"type":"text","text":"cold"}]}]},
	    {"role":"assistant","content":"Paris sunny, Rome rainy."},
	    {"role":"user","content":[
	      {"type":"text","text":"And"},{"type":"image","source":{"type":"url","url":"https://x/y.png"}},{"type":"text","text":"tomorrow?"}]}
	  ]}`))
	require.Nil(t, err)
	want := &scenario.Request{
		Endpoint: scenario.EndpointMessages,
		Model:    "claude-sonnet-5-5",
		System:   "You are terse.\nAnswer in French.",
		Messages: []scenario.Message{
			{Role: "user", Content: "Weather in Paris and Rome?"},
			{Role: "assistant", Content: "Checking.", ToolCalls: []scenario.ToolCall{
				{ID: "toolu_1", Name: "get_weather", Arguments: `{"city":"Paris"}`},
				{ID: "toolu_2", Name: "get_weather", Arguments: `{"city":"Rome"}`}}},
			{Role: "tool", ToolCallID: "toolu_1", Content: "sunny"},
			{Role: "tool", ToolCallID: "toolu_2", Content: "rain\ncold"},
			{Role: "assistant", Content: "Paris sunny, Rome rainy."},
			{Role: "user", Content: "And\ntomorrow?"},
		},
		Tools: []scenario.Tool{{Name: "get_weather", Description: "Weather by city",
			Parameters: json.RawMessage(`{"type":"object","properties":{"city":{"type":"string"}}}`)}},
		ToolChoice:      "required",
		Stream:          true,
		MaxOutputTokens: 100,
		User:            "user-7",
		Metadata:        map[string]string{"user_id": "user-7"},
	}
	got := r.Normalize()
	assert.Equal(t, want, got)
	assert.Equal(t, 2, got.UserTurns(), "tool results are not user turns")
	assert.Equal(t, []scenario.ToolResult{
		{CallID: "toolu_1", Name: "get_weather", Content: "sunny"},
		{CallID: "toolu_2", Name: "get_weather", Content: "rain\ncold"}}, got.ToolResults())
}

func TestNormalizeDetails(t *testing.T) {
	r, err := DecodeMessages(context.Background(), []byte(`{"model":"m","max_tokens":5,"system":"S1",
	  "messages":[{"role":"system","content":[{"type":"text","text":"S2"}]},
	    {"role":"user","content":"q"},
	    {"role":"assistant","content":[{"type":"tool_use","id":"t","name":"f","input":{}}]},
	    {"role":"user","content":[{"type":"tool_result","tool_use_id":"t","content":"r"},{"type":"text","text":"next"}]}],
	  "tools":[{"type":"web_search_20250305","name":"web_search"}],
	  "tool_choice":{"type":"tool","name":"web_search"},
	  "output_config":{"format":{"type":"json_schema","schema":{"type":"object"}}}}`))
	require.Nil(t, err)
	n := r.Normalize()
	assert.Equal(t, "S1\nS2", n.System, "a system-role message joins the system prompt")
	assert.Equal(t, []scenario.Message{
		{Role: "user", Content: "q"},
		{Role: "assistant", ToolCalls: []scenario.ToolCall{{ID: "t", Name: "f", Arguments: "{}"}}},
		{Role: "tool", ToolCallID: "t", Content: "r"},
		{Role: "user", Content: "next"},
	}, n.Messages, "tool results come before the rest of their user message")
	assert.Equal(t, []scenario.Tool{{Name: "web_search"}}, n.Tools)
	assert.Equal(t, "web_search", n.ToolChoice)
	require.NotNil(t, n.ResponseFormat)
	assert.Equal(t, "json_schema", n.ResponseFormat.Type)
	assert.JSONEq(t, `{"type":"object"}`, string(n.ResponseFormat.Schema))
	assert.Empty(t, n.User)
	assert.Nil(t, n.Metadata)

	for choice, want := range map[string]string{"auto": "auto", "none": "none", "any": "required"} {
		r, err := DecodeMessages(context.Background(), body(t, map[string]any{"tool_choice": map[string]any{"type": choice}, "tools": []any{map[string]any{"name": "f", "input_schema": map[string]any{}}}}))
		require.Nil(t, err)
		assert.Equal(t, want, r.Normalize().ToolChoice)
	}
	r, err = DecodeMessages(context.Background(), body(t, nil))
	require.Nil(t, err)
	assert.Empty(t, r.Normalize().ToolChoice)
}
