package openai

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

func TestErrorEnvelope(t *testing.T) {
	b, err := json.Marshal(MissingAPIKey())
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), `"param":null,"code":null`) {
		t.Errorf("envelope %s: want null param and code", b)
	}
	b, _ = json.Marshal(ModelNotFound("x"))
	if !strings.HasPrefix(string(b), `{"error":{"message":"The model `+"`x`"+` does not exist`) || !strings.Contains(string(b), `"code":"model_not_found"`) {
		t.Errorf("envelope %s", b)
	}
}

func TestInvalidAPIKeyMasksTheKey(t *testing.T) {
	for key, want := range map[string]string{
		"short-key":                  "***",
		"sk-abcdefghijklmnopqrstuvw": "sk-***tuvw",
	} {
		if msg := InvalidAPIKey(key).Message; !strings.Contains(msg, want) || strings.Contains(msg, key) {
			t.Errorf("message for %q = %q, want it masked as %q", key, msg, want)
		}
	}
}

func TestValidConversationsPass(t *testing.T) {
	for name, body := range map[string]string{
		"content parts": `{"model":"m","messages":[{"role":"user","content":[{"type":"text","text":"a"},{"type":"image_url","image_url":{"url":"x"}},{"type":"text","text":"b"}]}]}`,
		"tool loop": `{"model":"m","messages":[{"role":"developer","content":"d"},{"role":"user","content":"u"},
			{"role":"assistant","content":null,"tool_calls":[{"id":"c1","type":"function","function":{"name":"f","arguments":"{}"}},{"id":"c2","type":"function","function":{"name":"g","arguments":"{}"}}]},
			{"role":"tool","tool_call_id":"c2","content":"2"},{"role":"tool","tool_call_id":"c1","content":[{"type":"text","text":"1"}]},
			{"role":"assistant","content":"done"},{"role":"user","content":"thanks"}]}`,
		"unknown fields": `{"model":"m","messages":[{"role":"user","content":"u"}],"temperature":0.2,"seed":1,"metadata":{"a":"b"},"future_field":{"x":1}}`,
	} {
		t.Run(name, func(t *testing.T) {
			req, err := DecodeChatRequest([]byte(body))
			if err != nil {
				t.Fatalf("refused: %v", err)
			}
			n := req.Normalize()
			if name == "content parts" && n.LastUserText() != "a\nb" {
				t.Errorf("text parts joined as %q, want a\\nb", n.LastUserText())
			}
			if name == "tool loop" && (n.System != "d" || n.LastUserText() != "thanks" || len(n.Messages) != 6) {
				t.Errorf("normalized = %+v", n)
			}
		})
	}
}

// The stream satisfies both SDKs' decoders: one data line per event, a
// blank line after every event including [DONE], one id throughout, no
// top-level error key, an empty delta on the finishing chunk, and usage in
// exactly one chunk with empty choices.
func TestSSEShape(t *testing.T) {
	a := &ChatAnswer{ID: "chatcmpl-1", Created: 1700000000, Model: "gpt-4.1-mini", Text: "Hi there", Usage: NewUsage(5, 2)}
	body := a.SSE([]string{"Hi", " there"}, true)
	if !bytes.HasSuffix(body, []byte("data: [DONE]\n\n")) {
		t.Fatalf("stream does not end with [DONE] and a blank line: %q", body)
	}
	events := strings.Split(strings.TrimSuffix(string(body), "\n\n"), "\n\n")
	if len(events) != 6 {
		t.Fatalf("got %d events, want opening, 2 content, finish, usage, [DONE]: %q", len(events), body)
	}
	var text strings.Builder
	usageChunks := 0
	for i, ev := range events[:5] {
		data, ok := strings.CutPrefix(ev, "data: ")
		if !ok || strings.Contains(data, "\n") {
			t.Fatalf("event %d is not one data line: %q", i, ev)
		}
		var c map[string]json.RawMessage
		if err := json.Unmarshal([]byte(data), &c); err != nil {
			t.Fatal(err)
		}
		if _, has := c["error"]; has {
			t.Errorf("event %d has a top-level error key", i)
		}
		if string(c["id"]) != `"chatcmpl-1"` || string(c["created"]) != "1700000000" {
			t.Errorf("event %d id %s created %s", i, c["id"], c["created"])
		}
		var choices []struct {
			Delta        map[string]any `json:"delta"`
			FinishReason *string        `json:"finish_reason"`
		}
		json.Unmarshal(c["choices"], &choices)
		if _, has := c["usage"]; has {
			usageChunks++
			if len(choices) != 0 {
				t.Errorf("usage chunk has choices")
			}
			continue
		}
		if s, ok := choices[0].Delta["content"].(string); ok {
			text.WriteString(s)
		}
		if i == 3 && (len(choices[0].Delta) != 0 || choices[0].FinishReason == nil || *choices[0].FinishReason != "stop") {
			t.Errorf("finishing chunk %s, want delta {} and finish_reason stop", data)
		}
	}
	if text.String() != "Hi there" || usageChunks != 1 {
		t.Errorf("content %q, %d usage chunks", text.String(), usageChunks)
	}
	if bytes.Contains(a.SSE([]string{"x"}, false), []byte(`"usage"`)) {
		t.Error("usage sent without include_usage")
	}
}

func TestJoinValidUTF8(t *testing.T) {
	e := "é" // two bytes
	got := JoinValidUTF8([]string{"a", e[:1], e[1:] + "b", "c"})
	if strings.Join(got, "|") != "a|éb|c" {
		t.Errorf("JoinValidUTF8 = %q", got)
	}
}
