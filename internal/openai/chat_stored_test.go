package openai

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/llmtestserver/llmtestserver/scenario"
)

// storedChatOf stores the answer to body as serveChat would.
func storedChatOf(t *testing.T, body string, a *ChatAnswer) *StoredChat {
	t.Helper()
	req, err := DecodeChatRequest([]byte(body))
	require.Nil(t, err)
	return newStoredChat(req, a)
}

// A stored completion's Size counts every byte it retains: each message's
// text, parts, name and tool calls, the metadata and the answer.
func TestStoredChatSizeCountsWhatItKeeps(t *testing.T) {
	a := &ChatAnswer{ID: "chatcmpl-1", Model: "gpt-4.1-mini", Text: "ok"}
	base := storedChatOf(t, `{"model":"gpt-4.1-mini","messages":[{"role":"user","content":"x"}]}`, a).Size()
	big := strings.Repeat("y", 10000)
	for name, body := range map[string]string{
		"text":      `{"model":"gpt-4.1-mini","messages":[{"role":"user","content":"` + big + `"}]}`,
		"part":      `{"model":"gpt-4.1-mini","messages":[{"role":"user","content":[{"type":"text","text":"` + big + `"}]}]}`,
		"image":     `{"model":"gpt-4.1-mini","messages":[{"role":"user","content":[{"type":"image_url","image_url":{"url":"https://example.com/` + big + `"}}]}]}`,
		"name":      `{"model":"gpt-4.1-mini","messages":[{"role":"user","content":"x","name":"` + big[:60] + `"}]}`,
		"tool call": `{"model":"gpt-4.1-mini","messages":[{"role":"user","content":"x"},{"role":"assistant","content":null,"tool_calls":[{"id":"call_1","type":"function","function":{"name":"f","arguments":"\"` + big + `\""}}]},{"role":"tool","tool_call_id":"call_1","content":"r"}]}`,
		"metadata":  `{"model":"gpt-4.1-mini","store":true,"metadata":{"k":"` + big[:512] + `"},"messages":[{"role":"user","content":"x"}]}`,
	} {
		want := int64(10000)
		switch name {
		case "name":
			want = 60
		case "metadata":
			want = 512
		}
		assert.GreaterOrEqual(t, storedChatOf(t, body, a).Size()-base, want-1, name) // less the base message's "x"
	}
	long := &ChatAnswer{ID: "chatcmpl-1", Model: "gpt-4.1-mini", Text: big,
		ToolCalls: []scenario.ToolCall{{ID: "call_1", Name: "f", Arguments: big}}}
	assert.GreaterOrEqual(t, storedChatOf(t, `{"model":"gpt-4.1-mini","messages":[{"role":"user","content":"x"}]}`, long).Size()-base,
		int64(20000), "the answer")
}

// The stored object is the completion as answered, with its metadata.
func TestStoredChatObjectAddsMetadata(t *testing.T) {
	a := &ChatAnswer{ID: "chatcmpl-1", Created: 7, Model: "gpt-4.1-mini", N: 2, Text: "ok", Usage: NewUsage(5, 1)}
	c := storedChatOf(t, `{"model":"gpt-4.1-mini","n":2,"store":true,"metadata":{"a":"b"},"messages":[{"role":"user","content":"x"}]}`, a)
	b, err := json.Marshal(c.Object(t.Context()))
	require.NoError(t, err)
	want, err := json.Marshal(a.Completion())
	require.NoError(t, err)
	var got, completion map[string]any
	require.NoError(t, json.Unmarshal(b, &got))
	require.NoError(t, json.Unmarshal(want, &completion))
	assert.Equal(t, map[string]any{"a": "b"}, got["metadata"])
	delete(got, "metadata")
	assert.Equal(t, completion, got)
	b, err = json.Marshal(c.withMetadata(nil).Object(t.Context()))
	require.NoError(t, err)
	assert.Contains(t, string(b), `"metadata":{}`)
}

// A stored completion keeps nothing of its request: not the split of the
// answer into tokens, which holds the request's context and would split
// nothing once the request ended. A retrieval splits anew, within its own
// context.
func TestStoredChatSplitsWithoutTheRequest(t *testing.T) {
	calls := 0
	a := &ChatAnswer{ID: "chatcmpl-1", Model: "gpt-4.1-mini", Text: "hello world", Logprobs: &Logprobs{Top: 2},
		Split: func(s string) []string { calls++; return []string{s} }}
	c := storedChatOf(t, `{"model":"gpt-4.1-mini","messages":[{"role":"user","content":"x"}]}`, a)
	assert.Nil(t, c.Answer.Split, "the stored answer keeps the request's split")
	b, err := json.Marshal(c.Object(t.Context()))
	require.NoError(t, err)
	assert.Contains(t, string(b), `"token":" world"`, "the retrieval cuts the text into its tokens")
	assert.Zero(t, calls, "the stored answer calls the request's split")
	a.Logprobs.Top = 5
	assert.Equal(t, 2, c.Answer.Logprobs.Top, "the stored answer shares the request's logprobs")

	// A text no other test cut, so that no cache of the tokenizer's has it.
	a.Text = "a retrieval whose client left cuts nothing more"
	c = storedChatOf(t, `{"model":"gpt-4.1-mini","messages":[{"role":"user","content":"x"}]}`, a)
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	b, err = json.Marshal(c.Object(ctx))
	require.NoError(t, err)
	assert.NotContains(t, string(b), `"token":" client"`, "a retrieval whose client left cuts nothing more")
}
