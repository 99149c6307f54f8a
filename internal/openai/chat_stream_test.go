package openai

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"unicode/utf8"

	oai "github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
	"github.com/openai/openai-go/v3/packages/ssestream"

	"github.com/llmtestserver/llmtestserver/scenario"
)

// words splits after each space, as a stand-in tokenizer.
func words(s string) []string { return strings.SplitAfter(s, " ") }

// bytewise splits s into single bytes, splitting every multi-byte character.
func bytewise(s string) []string {
	out := make([]string, len(s))
	for i := range len(s) {
		out[i] = s[i : i+1]
	}
	return out
}

// render writes every event of s into an SSE, as a server would write
// them one after the other.
func render(s *ChatStream) *SSE {
	var out SSE
	var buf bytes.Buffer
	for i := range s.Len() {
		if err := s.WriteEvent(&buf, i); err != nil {
			panic(err) // a bytes.Buffer does not fail
		}
		out.Body = append(out.Body, buf.Bytes()...)
		out.Ends = append(out.Ends, len(out.Body))
		buf.Reset()
	}
	return &out
}

// events returns the data of each event, checking the framing.
func events(t *testing.T, s *SSE) []string {
	t.Helper()
	if !bytes.HasSuffix(s.Body, []byte("data: [DONE]\n\n")) || len(s.Ends) == 0 || s.Ends[len(s.Ends)-1] != len(s.Body) {
		t.Fatalf("stream does not end with [DONE] and a blank line: %q", s.Body)
	}
	var out []string
	for i := range s.Len() {
		ev := string(s.Event(i))
		data, ok := strings.CutPrefix(ev, "data: ")
		data, ok2 := strings.CutSuffix(data, "\n\n")
		if !ok || !ok2 || strings.Contains(data, "\n") {
			t.Fatalf("event %d is not one data line and a blank line: %q", i, ev)
		}
		out = append(out, data)
	}
	return out
}

// The stream's shape: one id throughout, no top-level error key, an
// opening role chunk, an empty delta on the finishing chunk, and the usage
// in exactly one chunk with empty choices, every other chunk carrying
// "usage": null as the real API's do with include_usage.
func TestStreamShape(t *testing.T) {
	a := &ChatAnswer{ID: "chatcmpl-1", Created: 1700000000, Model: "gpt-4.1-mini", Text: "Hi there", Usage: NewUsage(5, 2)}
	evs := events(t, render(a.Stream(words, 1, true)))
	if len(evs) != 6 {
		t.Fatalf("got %d events, want opening, 2 content, finish, usage, [DONE]: %q", len(evs), evs)
	}
	wantDeltas := []string{`{"role":"assistant","content":"","refusal":null}`, `{"content":"Hi "}`, `{"content":"there"}`, `{}`}
	for i, data := range evs[:5] {
		var c map[string]json.RawMessage
		if err := json.Unmarshal([]byte(data), &c); err != nil {
			t.Fatal(err)
		}
		if _, has := c["error"]; has {
			t.Errorf("event %d has a top-level error key", i)
		}
		if string(c["id"]) != `"chatcmpl-1"` || string(c["created"]) != "1700000000" || string(c["object"]) != `"chat.completion.chunk"` ||
			string(c["system_fingerprint"]) != `"`+SystemFingerprint("gpt-4.1-mini")+`"` || string(c["service_tier"]) != `"default"` || string(c["model"]) != `"gpt-4.1-mini"` {
			t.Errorf("event %d: %s", i, data)
		}
		var choices []map[string]json.RawMessage
		json.Unmarshal(c["choices"], &choices)
		_, hasUsage := c["usage"]
		if i == 4 {
			if !hasUsage || len(choices) != 0 {
				t.Errorf("usage chunk %s", data)
			}
			continue
		}
		if !hasUsage || string(c["usage"]) != "null" || len(choices) != 1 {
			t.Fatalf("event %d: %s", i, data)
		}
		if string(choices[0]["delta"]) != wantDeltas[i] || string(choices[0]["logprobs"]) != "null" {
			t.Errorf("event %d delta %s, want %s", i, choices[0]["delta"], wantDeltas[i])
		}
		if finish := string(choices[0]["finish_reason"]); (i == 3) != (finish == `"stop"`) || i != 3 && finish != "null" {
			t.Errorf("event %d finish_reason %s", i, finish)
		}
	}
	if bytes.Contains(render(a.Stream(words, 1, false)).Body, []byte(`"usage"`)) {
		t.Error("usage sent without include_usage")
	}
}

// Tool-call streams follow wire.md §8.2: the opening chunk carries the first
// call's first fragment, id/type/name only in first fragments, arguments
// split by the splitter.
func TestStreamToolCallShape(t *testing.T) {
	evs := events(t, render(toolAnswer.Stream(func(s string) []string { return strings.SplitAfter(s, ",") }, 1, false)))
	var deltas []string
	for _, data := range evs[:len(evs)-1] {
		var c struct {
			Choices []struct{ Delta json.RawMessage }
		}
		json.Unmarshal([]byte(data), &c)
		deltas = append(deltas, string(c.Choices[0].Delta))
	}
	want := []string{
		`{"role":"assistant","content":null,"tool_calls":[{"index":0,"id":"call_A","type":"function","function":{"name":"get_weather","arguments":""}}],"refusal":null}`,
		`{"tool_calls":[{"index":0,"function":{"arguments":"{\"city\":\"Paris\","}}]}`,
		`{"tool_calls":[{"index":0,"function":{"arguments":"\"unit\":\"celsius\"}"}}]}`,
		`{"tool_calls":[{"index":1,"id":"call_B","type":"function","function":{"name":"get_time","arguments":""}}]}`,
		`{"tool_calls":[{"index":1,"function":{"arguments":"{\"tz\":\"Europe/Rome\"}"}}]}`,
		`{}`,
	}
	equal(t, "deltas", deltas, want)
}

// openaiGoStream decodes a stream body with openai-go's own SSE decoder.
func openaiGoStream(body []byte) *ssestream.Stream[oai.ChatCompletionChunk] {
	res := &http.Response{StatusCode: 200, Header: http.Header{"Content-Type": {"text/event-stream"}}, Body: io.NopCloser(bytes.NewReader(body))}
	return ssestream.NewStream[oai.ChatCompletionChunk](ssestream.NewDecoder(res), nil)
}

// openai-go's accumulator reassembles two parallel calls exactly and fires
// JustFinishedToolCall once for each; text and refusal finish too.
func TestStreamOpenAIGoAccumulator(t *testing.T) {
	withText := *toolAnswer
	withText.Text = "Checking both."
	for _, tt := range []struct {
		a   *ChatAnswer
		per int
	}{{toolAnswer, 1}, {toolAnswer, 3}, {&withText, 2}} {
		per := tt.per
		var acc oai.ChatCompletionAccumulator
		var finished []oai.FinishedChatCompletionToolCall
		content := ""
		stream := openaiGoStream(render(tt.a.Stream(bytewise, per, true)).Body)
		for stream.Next() {
			if !acc.AddChunk(stream.Current()) {
				t.Fatalf("accumulator refused chunk %s", stream.Current().RawJSON())
			}
			if call, ok := acc.JustFinishedToolCall(); ok {
				finished = append(finished, call)
			}
			if s, ok := acc.JustFinishedContent(); ok {
				content = s
			}
		}
		if content != tt.a.Text || acc.Choices[0].Message.Content != tt.a.Text {
			t.Errorf("per %d: finished content %q, accumulated %q", per, content, acc.Choices[0].Message.Content)
		}
		if err := stream.Err(); err != nil {
			t.Fatal(err)
		}
		if len(finished) != 2 {
			t.Fatalf("per %d: JustFinishedToolCall fired %d times, want 2", per, len(finished))
		}
		for i, f := range finished {
			c := toolAnswer.ToolCalls[i]
			if f.Index != i || f.ID != c.ID || f.Name != c.Name || f.Arguments != c.Arguments {
				t.Errorf("finished call %d = %+v, want %+v", i, f, c)
			}
		}
		m := acc.Choices[0].Message
		if len(m.ToolCalls) != 2 || m.ToolCalls[0].Function.Name != "get_weather" || m.ToolCalls[1].Function.Arguments != toolAnswer.ToolCalls[1].Arguments ||
			acc.Choices[0].FinishReason != "tool_calls" || acc.Usage.TotalTokens != 32 || acc.ID != "chatcmpl-t" {
			t.Errorf("accumulated %+v usage %+v", m, acc.Usage)
		}
	}

	for _, a := range []*ChatAnswer{
		{ID: "c", Text: "héllo wörld ✓", N: 2, Usage: NewUsage(3, 4)},
		{ID: "c", Refusal: "I can’t do that."},
	} {
		var acc oai.ChatCompletionAccumulator
		var content, refusal string
		stream := openaiGoStream(render(a.Stream(bytewise, 2, true)).Body)
		for stream.Next() {
			if !acc.AddChunk(stream.Current()) {
				t.Fatalf("accumulator refused chunk %s", stream.Current().RawJSON())
			}
			if s, ok := acc.JustFinishedContent(); ok {
				content = s
			}
			if s, ok := acc.JustFinishedRefusal(); ok {
				refusal = s
			}
		}
		if err := stream.Err(); err != nil {
			t.Fatal(err)
		}
		if content != a.Text || refusal != a.Refusal || len(acc.Choices) != max(a.N, 1) || acc.Choices[len(acc.Choices)-1].Message.Content != a.Text ||
			acc.Choices[0].Message.Refusal != a.Refusal || int(acc.Usage.TotalTokens) != a.Usage.TotalTokens {
			t.Errorf("finished content %q refusal %q, accumulated %+v", content, refusal, acc.Choices)
		}
	}
}

// serve answers every request with body as an event stream.
func serve(t *testing.T, body []byte) *httptest.Server {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		w.Write(body)
	}))
	t.Cleanup(srv.Close)
	return srv
}

// openai-go through a real client and server: the Content-Type and framing
// are what NewStreaming expects.
func TestStreamOpenAIGoClient(t *testing.T) {
	srv := serve(t, render((&ChatAnswer{ID: "c", Model: "gpt-4.1", Text: "one two three"}).Stream(words, 1, false)).Body)
	client := oai.NewClient(option.WithBaseURL(srv.URL+"/v1"), option.WithAPIKey("sk-test"), option.WithMaxRetries(0))
	stream := client.Chat.Completions.NewStreaming(context.Background(), oai.ChatCompletionNewParams{Model: "gpt-4.1", Messages: []oai.ChatCompletionMessageParamUnion{oai.UserMessage("x")}})
	var acc oai.ChatCompletionAccumulator
	for stream.Next() {
		acc.AddChunk(stream.Current())
	}
	if stream.Err() != nil || acc.Choices[0].Message.Content != "one two three" {
		t.Errorf("err %v content %q", stream.Err(), acc.Choices[0].Message.Content)
	}
}

// tokensPerChunk groups that many tokens per content chunk, and the same for
// argument fragments.
func TestStreamTokensPerChunk(t *testing.T) {
	count := func(s *SSE, key string) int {
		n := 0
		for i := range s.Len() {
			if bytes.Contains(s.Event(i), []byte(key)) {
				n++
			}
		}
		return n
	}
	a := &ChatAnswer{ID: "c", Text: "a b c d e f g"} // 7 words
	for per, want := range map[int]int{0: 7, 1: 7, 2: 4, 3: 3, 7: 1, 100: 1} {
		if got := count(render(a.Stream(words, per, false)), `{"content":"`); got != want {
			t.Errorf("tokensPerChunk %d: %d content chunks, want %d", per, got, want)
		}
	}
	call := &ChatAnswer{ID: "c", ToolCalls: []scenario.ToolCall{{ID: "x", Name: "f", Arguments: `{"a":1}`}}}
	if got := count(render(call.Stream(bytewise, 3, false)), `"function":{"arguments":"`); got != 3 { // 7 bytes in 3 groups
		t.Errorf("%d argument fragments, want 3", got)
	}
	// A splitter whose tokens do not rebuild the text is not trusted.
	if got := count(render(a.Stream(func(string) []string { return []string{"x"} }, 1, false)), `{"content":"`); got != 1 {
		t.Errorf("%d content chunks from a lossy splitter, want the whole text in 1", got)
	}
	if got := count(render(a.Stream(nil, 1, false)), `{"content":"`); got != 1 {
		t.Errorf("%d content chunks without a splitter, want 1", got)
	}
}

// A splitter that cuts characters apart never yields a chunk ending inside
// a UTF-8 sequence, and the text survives exactly.
func TestStreamUTF8Safety(t *testing.T) {
	text := "naïve café — 日本語 🎉!"
	a := &ChatAnswer{ID: "c", Text: text, ToolCalls: []scenario.ToolCall{{ID: "x", Name: "f", Arguments: `{"q":"日本"}`}}}
	for _, per := range []int{1, 2, 5} {
		var content, args strings.Builder
		s := render(a.Stream(bytewise, per, false))
		if !utf8.Valid(s.Body) || bytes.Contains(s.Body, []byte("\\ufffd")) || bytes.ContainsRune(s.Body, utf8.RuneError) {
			t.Fatalf("per %d: stream has broken characters", per)
		}
		for _, data := range events(t, s)[:s.Len()-1] {
			var c oai.ChatCompletionChunk
			if err := json.Unmarshal([]byte(data), &c); err != nil {
				t.Fatal(err)
			}
			content.WriteString(c.Choices[0].Delta.Content)
			for _, tc := range c.Choices[0].Delta.ToolCalls {
				args.WriteString(tc.Function.Arguments)
			}
		}
		if content.String() != text || args.String() != a.ToolCalls[0].Arguments {
			t.Errorf("per %d: content %q args %q", per, content.String(), args.String())
		}
	}
}
