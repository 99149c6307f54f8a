package openaiwire_test

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	. "github.com/llmtestserver/llmtestserver/internal/openai"
	oai "github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/packages/ssestream"
	goai "github.com/sashabaranov/go-openai"
)

func ptr(s string) *string { return &s }

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

// words splits after each space, as a stand-in tokenizer.
func words(s string) []string { return strings.SplitAfter(s, " ") }

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

// openaiGoStream decodes a stream body with openai-go's own SSE decoder.
func openaiGoStream(body []byte) *ssestream.Stream[oai.ChatCompletionChunk] {
	res := &http.Response{StatusCode: 200, Header: http.Header{"Content-Type": {"text/event-stream"}}, Body: io.NopCloser(bytes.NewReader(body))}
	return ssestream.NewStream[oai.ChatCompletionChunk](ssestream.NewDecoder(res), nil)
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

func goOpenAIClient(url string) *goai.Client {
	cfg := goai.DefaultConfig("sk-test")
	cfg.BaseURL = url + "/v1"
	return goai.NewClientWithConfig(cfg)
}

// go-openai's stream reader reads the same bytes; merging fragments by index
// as its callers do rebuilds the calls, and the usage chunk decodes.
func TestStreamGoOpenAI(t *testing.T) {
	a := *toolAnswer
	a.Text = "Let me check."
	srv := serve(t, render(a.Stream(words, 2, true)).Body)
	stream, err := goOpenAIClient(srv.URL).CreateChatCompletionStream(context.Background(), goai.ChatCompletionRequest{
		Model: "gpt-4.1", Messages: []goai.ChatCompletionMessage{{Role: "user", Content: "x"}}, StreamOptions: &goai.StreamOptions{IncludeUsage: true}})
	if err != nil {
		t.Fatal(err)
	}
	defer stream.Close()
	var text strings.Builder
	var calls []goai.ToolCall
	var usage *goai.Usage
	finish := ""
	for {
		r, err := stream.Recv()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		if r.Usage != nil {
			usage = r.Usage
		}
		for _, c := range r.Choices {
			text.WriteString(c.Delta.Content)
			if c.FinishReason != "" {
				finish = string(c.FinishReason)
			}
			for _, tc := range c.Delta.ToolCalls {
				i := *tc.Index
				if i == len(calls) {
					calls = append(calls, goai.ToolCall{ID: tc.ID, Type: tc.Type, Function: goai.FunctionCall{Name: tc.Function.Name}})
				}
				calls[i].Function.Arguments += tc.Function.Arguments
			}
		}
	}
	if text.String() != a.Text || finish != "tool_calls" || usage == nil || usage.TotalTokens != 32 || len(calls) != 2 {
		t.Fatalf("text %q finish %q usage %+v calls %+v", text.String(), finish, usage, calls)
	}
	for i, c := range calls {
		want := a.ToolCalls[i]
		if c.ID != want.ID || c.Type != "function" || c.Function.Name != want.Name || c.Function.Arguments != want.Arguments {
			t.Errorf("call %d = %+v, want %+v", i, c, want)
		}
	}
}

// A mid-stream error event fails both SDKs' readers with the message.
func TestErrorEvent(t *testing.T) {
	e := Resolve(&Error{Status: 500}) // the real API's type and message for a 500
	ev := ErrorEvent(e)
	if !bytes.HasPrefix(ev, []byte(`data: {"error":{"message":`)) || !bytes.HasSuffix(ev, []byte("}}\n\n")) {
		t.Fatalf("error event %q", ev)
	}
	s := render((&ChatAnswer{ID: "c", Text: "partial answer"}).Stream(words, 1, false))
	body := append(bytes.Clone(s.Event(0)), s.Event(1)...)
	body = append(body, ev...)

	stream := openaiGoStream(body)
	n := 0
	for stream.Next() {
		n++
	}
	var se *ssestream.StreamError
	if !errors.As(stream.Err(), &se) || n != 2 {
		t.Errorf("openai-go: %d chunks then %v, want 2 then a StreamError", n, stream.Err())
	}

	srv := serve(t, body)
	gs, err := goOpenAIClient(srv.URL).CreateChatCompletionStream(context.Background(), goai.ChatCompletionRequest{Model: "m"})
	if err != nil {
		t.Fatal(err)
	}
	defer gs.Close()
	for n = 0; ; n++ {
		if _, err = gs.Recv(); err != nil {
			break
		}
	}
	var apiErr *goai.APIError
	if n != 2 || !errors.As(err, &apiErr) || apiErr.Message != e.Message {
		t.Errorf("go-openai: %d chunks then %v, want 2 then the API error", n, err)
	}
}
