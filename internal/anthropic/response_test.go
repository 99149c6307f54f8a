package anthropic

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/llmtestserver/llmtestserver/internal/provider"
	"github.com/llmtestserver/llmtestserver/scenario"
)

func marshal(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	require.NoError(t, err)
	return string(b)
}

func TestNewMessage(t *testing.T) {
	a := &provider.Answer{ID: "msg_1", Model: "claude-sonnet-5-5", Created: time.Unix(1, 0),
		Text: "Hi", Thinking: "think", ThinkingSignature: "sig", Finish: scenario.FinishToolCalls,
		ToolCalls: []scenario.ToolCall{{ID: "toolu_1", Name: "f", Arguments: `{"a": 1}`}, {ID: "toolu_2", Name: "g"}},
		Usage:     provider.Usage{Input: 100, CacheRead: 30, CacheWrite: 50, CacheWrite1h: 20, Output: 7}}
	got := marshal(t, NewMessage(a, ""))
	assert.JSONEq(t, `{"id":"msg_1","type":"message","role":"assistant","model":"claude-sonnet-5-5",
	  "content":[{"type":"thinking","thinking":"think","signature":"sig"},{"type":"text","text":"Hi"},
	    {"type":"tool_use","id":"toolu_1","name":"f","input":{"a":1},"caller":{"type":"direct"}},
	    {"type":"tool_use","id":"toolu_2","name":"g","input":{},"caller":{"type":"direct"}}],
	  "container":null,"stop_reason":"tool_use","stop_sequence":null,"stop_details":null,
	  "usage":{"input_tokens":20,"cache_creation_input_tokens":50,"cache_read_input_tokens":30,
	    "cache_creation":{"ephemeral_5m_input_tokens":30,"ephemeral_1h_input_tokens":20},"output_tokens":7,
	    "service_tier":"standard","inference_geo":"global"}}`, got)
	assert.True(t, strings.HasPrefix(got, `{"model":"claude-sonnet-5-5","id":"msg_1",`), "the body opens as the API's does: %s", got)

	a.Usage.Reasoning = 3
	assert.Contains(t, marshal(t, NewMessage(a, "")), `"output_tokens":7,"output_tokens_details":{"thinking_tokens":3},`)
	refused := &provider.Answer{Refusal: "I can't help with that.", Finish: scenario.FinishRefusal}
	assert.Contains(t, marshal(t, NewMessage(refused, "cyber")),
		`"content":[],"container":null,"stop_reason":"refusal","stop_sequence":null,"stop_details":{"type":"refusal","category":"cyber","explanation":"I can't help with that."}`)
	assert.Contains(t, marshal(t, NewMessage(refused, "")), `"stop_details":{"type":"refusal","category":null,`)
}

func TestNewMessageStops(t *testing.T) {
	tests := []struct {
		name   string
		a      provider.Answer
		seq    string
		reason string
		body   string
	}{
		{"stop", provider.Answer{Text: "x", Finish: scenario.FinishStop}, "", "end_turn", `[{"type":"text","text":"x"}]`},
		{"length", provider.Answer{Text: "x", Finish: scenario.FinishLength}, "", "max_tokens", `[{"type":"text","text":"x"}]`},
		{"stop sequence", provider.Answer{Text: "x", Finish: scenario.FinishStop}, "END", "stop_sequence", `[{"type":"text","text":"x"}]`},
		{"refusal", provider.Answer{Refusal: "I can't.", Finish: scenario.FinishRefusal, ToolCalls: []scenario.ToolCall{{ID: "t", Name: "f"}}}, "", "refusal", `[]`},
		{"content filter", provider.Answer{Finish: scenario.FinishContentFilter}, "", "refusal", `[]`},
		{"empty", provider.Answer{Finish: scenario.FinishStop}, "", "end_turn", `[]`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got struct {
				Content      json.RawMessage `json:"content"`
				StopReason   string          `json:"stop_reason"`
				StopSequence *string         `json:"stop_sequence"`
			}
			a := tt.a
			a.StopSequence = tt.seq
			require.NoError(t, json.Unmarshal([]byte(marshal(t, NewMessage(&a, ""))), &got))
			assert.Equal(t, tt.reason, got.StopReason)
			assert.JSONEq(t, tt.body, string(got.Content))
			if tt.reason == "stop_sequence" {
				require.NotNil(t, got.StopSequence)
				assert.Equal(t, tt.seq, *got.StopSequence)
			} else {
				assert.Nil(t, got.StopSequence)
			}
		})
	}
}
