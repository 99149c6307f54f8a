package anthropic

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"runtime"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/llmtestserver/llmtestserver/internal/apierr"
	"github.com/llmtestserver/llmtestserver/internal/provider"
	"github.com/llmtestserver/llmtestserver/scenario"
)

// splitEvery is a stand-in tokenizer: pieces of n bytes (at rune
// boundaries).
func splitEvery(n int) func(string) []string {
	return func(s string) []string {
		var out []string
		for len(s) > 0 {
			k := min(n, len(s))
			for k < len(s) && !utf8Start(s[k]) {
				k++
			}
			out = append(out, s[:k])
			s = s[k:]
		}
		return out
	}
}

func utf8Start(b byte) bool { return b&0xC0 != 0x80 }

type sseEvent struct {
	name string
	data map[string]any
	raw  string
}

// parseSSE reads events as the SDK's decoder does: "event:" and "data:"
// lines, a blank line ends an event.
func parseSSE(t *testing.T, text string) []sseEvent {
	t.Helper()
	var out []sseEvent
	var cur sseEvent
	sc := bufio.NewScanner(strings.NewReader(text))
	sc.Buffer(nil, 1<<26)
	for sc.Scan() {
		line := sc.Text()
		switch {
		case line == "":
			require.NotEmpty(t, cur.name, "every event has an event line")
			require.NoError(t, json.Unmarshal([]byte(cur.raw), &cur.data), cur.raw)
			assert.Equal(t, cur.name, cur.data["type"])
			out = append(out, cur)
			cur = sseEvent{}
		case strings.HasPrefix(line, "event: "):
			cur.name = strings.TrimPrefix(line, "event: ")
		case strings.HasPrefix(line, "data: "):
			require.Empty(t, cur.raw, "one data line per event")
			cur.raw = strings.TrimPrefix(line, "data: ")
		default:
			t.Fatalf("unexpected line %q", line)
		}
	}
	require.Empty(t, cur.name, "the stream ends with a blank line")
	return out
}

func writeAll(t *testing.T, s provider.EventStream) string {
	t.Helper()
	var b bytes.Buffer
	for i := range s.Len() {
		require.NoError(t, s.WriteEvent(&b, i))
	}
	return b.String()
}

// accumulate rebuilds the message by Message.Accumulate's rules:
// message_start replaces it; block starts come in index order; an input
// of exactly {} is replaced by the first non-empty chunk; message_delta
// overwrites stop_reason and the cumulative output_tokens.
func accumulate(t *testing.T, events []sseEvent) map[string]any {
	t.Helper()
	var msg map[string]any
	var content []map[string]any
	for _, e := range events {
		switch e.name {
		case "message_start":
			msg = e.data["message"].(map[string]any)
			require.Equal(t, []any{}, msg["content"])
			require.Nil(t, msg["stop_reason"])
			content = nil
		case "content_block_start":
			require.Equal(t, float64(len(content)), e.data["index"], "blocks start in index order")
			content = append(content, e.data["content_block"].(map[string]any))
		case "content_block_delta":
			i := int(e.data["index"].(float64))
			require.Less(t, i, len(content))
			cb, d := content[i], e.data["delta"].(map[string]any)
			switch d["type"] {
			case "text_delta":
				cb["text"] = cb["text"].(string) + d["text"].(string)
			case "thinking_delta":
				cb["thinking"] = cb["thinking"].(string) + d["thinking"].(string)
			case "signature_delta":
				cb["signature"] = cb["signature"].(string) + d["signature"].(string)
			case "input_json_delta":
				p := d["partial_json"].(string)
				if p == "" {
					continue
				}
				if s, ok := cb["input"].(string); ok {
					cb["input"] = s + p
				} else {
					require.Equal(t, map[string]any{}, cb["input"], "tool_use starts with input {}")
					cb["input"] = p
				}
			default:
				t.Fatalf("unknown delta %v", d["type"])
			}
		case "content_block_stop":
			require.Less(t, int(e.data["index"].(float64)), len(content))
		case "message_delta":
			d := e.data["delta"].(map[string]any)
			msg["stop_reason"], msg["stop_sequence"] = d["stop_reason"], d["stop_sequence"]
			msg["stop_details"], msg["container"] = d["stop_details"], d["container"]
			// diagnostics come with message_start only, as the SDK's
			// Accumulate keeps them.
			delete(msg, "diagnostics")
			u := e.data["usage"].(map[string]any)
			mu := msg["usage"].(map[string]any)
			for k, v := range u {
				mu[k] = v
			}
		}
	}
	for _, cb := range content {
		if s, ok := cb["input"].(string); ok {
			var v any
			require.NoError(t, json.Unmarshal([]byte(s), &v), "the input chunks make JSON")
			cb["input"] = v
		}
	}
	out := make([]any, len(content))
	for i := range content {
		out[i] = content[i]
	}
	msg["content"] = out
	return msg
}

func TestStreamRebuildsMessage(t *testing.T) {
	a := &provider.Answer{ID: "msg_1", Model: "claude-sonnet-5-5",
		Text: "Hello <world> & «you»", Thinking: "Let me think about it.", ThinkingSignature: "sig==",
		Finish:    scenario.FinishToolCalls,
		ToolCalls: []scenario.ToolCall{{ID: "toolu_1", Name: "f", Arguments: `{"city": "Paris", "days": [1,2,3]}`}, {ID: "toolu_2", Name: "g"}},
		Usage:     provider.Usage{Input: 100, CacheRead: 30, CacheWrite: 50, CacheWrite1h: 20, Output: 42}}
	s := NewStream(a, "", splitEvery(3), 2)
	text := writeAll(t, s)
	assert.NotContains(t, text, `\u003c`, "HTML characters stay literal")
	assert.Contains(t, text, "<world")
	events := parseSSE(t, text)
	require.Len(t, events, s.Len())
	assert.Equal(t, "message_start", events[0].name)
	assert.Equal(t, "content_block_start", events[1].name)
	assert.Equal(t, "ping", events[2].name, "ping follows the first content_block_start")
	assert.Equal(t, "message_delta", events[len(events)-2].name)
	assert.Equal(t, "message_stop", events[len(events)-1].name)
	start := events[0].data["message"].(map[string]any)["usage"].(map[string]any)
	assert.Equal(t, float64(1), start["output_tokens"])
	assert.Equal(t, float64(20), start["input_tokens"])

	deltas := map[string]int{}
	for _, e := range events {
		if e.name == "content_block_delta" {
			deltas[e.data["delta"].(map[string]any)["type"].(string)]++
		}
	}
	assert.Greater(t, deltas["text_delta"], 1)
	assert.Greater(t, deltas["thinking_delta"], 1)
	assert.Equal(t, 1, deltas["signature_delta"])
	assert.Greater(t, deltas["input_json_delta"], 2, "tool input arrives in several chunks")

	got := accumulate(t, events)
	want := map[string]any{}
	require.NoError(t, json.Unmarshal([]byte(marshal(t, NewMessage(a, ""))), &want))
	assert.Equal(t, want, got, "the stream rebuilds the non-streamed message")
}

func TestStreamShapes(t *testing.T) {
	for name, a := range map[string]*provider.Answer{
		"empty":      {Finish: scenario.FinishStop},
		"refusal":    {Refusal: "No.", Finish: scenario.FinishRefusal},
		"text only":  {Text: "ok", Finish: scenario.FinishLength, Usage: provider.Usage{Input: 3, Output: 1}},
		"no output":  {Text: "", Usage: provider.Usage{Input: 3}, Finish: scenario.FinishStop},
		"tool no in": {ToolCalls: []scenario.ToolCall{{ID: "t", Name: "f", Arguments: "{}"}}, Finish: scenario.FinishToolCalls},
	} {
		t.Run(name, func(t *testing.T) {
			s := NewStream(a, "", splitEvery(1), 1)
			events := parseSSE(t, writeAll(t, s))
			require.Len(t, events, s.Len())
			want := map[string]any{}
			require.NoError(t, json.Unmarshal([]byte(marshal(t, NewMessage(a, ""))), &want))
			assert.Equal(t, want, accumulate(t, events))
		})
	}
	s := NewStream(&provider.Answer{Text: "x", Finish: scenario.FinishStop, StopSequence: "END"}, "", splitEvery(1), 1)
	events := parseSSE(t, writeAll(t, s))
	d := events[len(events)-2].data["delta"].(map[string]any)
	assert.Equal(t, "stop_sequence", d["stop_reason"])
	assert.Equal(t, "END", d["stop_sequence"])
}

// TestStreamLargeTextIsLazy streams 1 MiB in one-token chunks: building
// the stream keeps offsets only, and writing an event allocates a little
// for that event alone.
func TestStreamLargeTextIsLazy(t *testing.T) {
	text := strings.Repeat("abcd", 1<<18) // 1 MiB
	pieces := splitEvery(4)(text)         // 262144 "tokens"
	split := func(string) []string { return pieces }
	a := &provider.Answer{Text: text, Finish: scenario.FinishStop, Usage: provider.Usage{Output: len(pieces)}}

	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	s := NewStream(a, "", split, 1)
	runtime.ReadMemStats(&after)
	require.Equal(t, len(pieces)+6, s.Len())
	built := after.TotalAlloc - before.TotalAlloc
	assert.Less(t, built, uint64(4<<20), "building holds offsets, not %d rendered events", s.Len())

	i := 1000
	per := testing.AllocsPerRun(100, func() {
		_ = s.WriteEvent(io.Discard, i)
		i++
	})
	assert.LessOrEqual(t, per, 12.0)

	// The live heap, after a collection, so that the garbage the writes
	// leave (and what other goroutines allocate meanwhile) is not counted:
	// what matters is that writing keeps nothing.
	runtime.GC()
	runtime.ReadMemStats(&before)
	for i := range s.Len() {
		require.NoError(t, s.WriteEvent(io.Discard, i))
	}
	runtime.GC()
	runtime.ReadMemStats(&after)
	assert.Less(t, after.HeapAlloc, before.HeapAlloc+8<<20, "writing every event keeps the heap flat")
	runtime.KeepAlive(s)
}

// A failure inside a stream is one error event, before message_start when
// nothing came yet (Opening 0).
func TestErrorEvent(t *testing.T) {
	s := NewStream(&provider.Answer{Text: "x", Finish: scenario.FinishStop}, "", splitEvery(1), 1).(provider.FailingStream)
	require.Zero(t, s.Opening())
	var b strings.Builder
	require.NoError(t, s.WriteErrorEvent(&b, 0, Codec{}.Resolve(&apierr.Error{Kind: scenario.ErrorOverloaded})))
	text := b.String()
	assert.Equal(t, "event: error\ndata: {\"type\":\"error\",\"error\":{\"type\":\"overloaded_error\",\"message\":\"Overloaded\"}}\n\n", text)
}

func ExampleNewStream() {
	s := NewStream(&provider.Answer{ID: "msg_1", Model: "claude-haiku-4-5", Text: "Hi!", Finish: scenario.FinishStop,
		Usage: provider.Usage{Input: 5, Output: 2}}, "", func(s string) []string { return []string{s} }, 4)
	var b strings.Builder
	for i := range s.Len() {
		_ = s.WriteEvent(&b, i)
	}
	fmt.Print(b.String())
	// Output:
	// event: message_start
	// data: {"type":"message_start","message":{"model":"claude-haiku-4-5","id":"msg_1","type":"message","role":"assistant","content":[],"container":null,"stop_reason":null,"stop_sequence":null,"stop_details":null,"diagnostics":null,"usage":{"input_tokens":5,"cache_creation_input_tokens":0,"cache_read_input_tokens":0,"cache_creation":{"ephemeral_5m_input_tokens":0,"ephemeral_1h_input_tokens":0},"output_tokens":1,"service_tier":"standard","inference_geo":"global"}}}
	//
	// event: content_block_start
	// data: {"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}
	//
	// event: ping
	// data: {"type":"ping"}
	//
	// event: content_block_delta
	// data: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"Hi!"}}
	//
	// event: content_block_stop
	// data: {"type":"content_block_stop","index":0}
	//
	// event: message_delta
	// data: {"type":"message_delta","delta":{"stop_reason":"end_turn","stop_sequence":null,"stop_details":null,"container":null},"usage":{"input_tokens":5,"cache_creation_input_tokens":0,"cache_read_input_tokens":0,"output_tokens":2}}
	//
	// event: message_stop
	// data: {"type":"message_stop"}
}

// TestStreamToolInputStartsEmpty: a tool_use with arguments streams a first
// input_json_delta of "" before its JSON, as the API does; one
// without arguments streams that "" alone.
func TestStreamToolInputStartsEmpty(t *testing.T) {
	a := &provider.Answer{Finish: scenario.FinishToolCalls,
		ToolCalls: []scenario.ToolCall{{ID: "toolu_1", Name: "f", Arguments: `{"a":1}`}, {ID: "toolu_2", Name: "g", Arguments: "{}"}}}
	events := parseSSE(t, writeAll(t, NewStream(a, "", splitEvery(1), 1)))
	var partial [2][]string
	for _, e := range events {
		if e.name == "content_block_delta" {
			i := int(e.data["index"].(float64))
			partial[i] = append(partial[i], e.data["delta"].(map[string]any)["partial_json"].(string))
		}
	}
	require.NotEmpty(t, partial[0])
	assert.Equal(t, "", partial[0][0], "the first input_json_delta is empty")
	assert.Greater(t, len(partial[0]), 1, "the JSON follows")
	assert.Equal(t, []string{""}, partial[1])
}
