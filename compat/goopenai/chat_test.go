package goopenai_test

import (
	"context"
	"errors"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/llmtestserver/llmtestserver/internal/e2e"
	"github.com/llmtestserver/llmtestserver/llmtest"
	"github.com/llmtestserver/llmtestserver/session"
	"github.com/openai/openai-go/v3"
	goopenai "github.com/sashabaranov/go-openai"
)

const longReply = "Streaming works token by token, so a UI sees the answer grow — even with accents (café) and emoji 🎉."

func TestStreamingThroughTheSessionTransport(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t)
	sess := srv.NewSession(t, session.RequireAPIKey("provider-key"))
	sess.Chat("stream").Responds(longReply).Responds(longReply)
	client := e2e.ClientFor(sess, "provider-key")

	params := e2e.UserTurn("gpt-4.1-mini", "Tell me")
	params.StreamOptions = openai.ChatCompletionStreamOptionsParam{IncludeUsage: openai.Bool(true)}
	stream := client.Chat.Completions.NewStreaming(context.Background(), params)
	var acc openai.ChatCompletionAccumulator
	chunks, contentChunks := 0, 0
	finishedContent := false
	for stream.Next() {
		chunk := stream.Current()
		if !acc.AddChunk(chunk) {
			t.Fatalf("accumulator refused chunk %d: %s", chunks, chunk.RawJSON())
		}
		if _, ok := acc.JustFinishedContent(); ok {
			finishedContent = true
		}
		if len(chunk.Choices) > 0 && chunk.Choices[0].Delta.Content != "" {
			contentChunks++
		}
		chunks++
	}
	if err := stream.Err(); err != nil {
		t.Fatal(err)
	}
	if got := acc.Choices[0].Message.Content; got != longReply {
		t.Errorf("accumulated content = %q, want %q", got, longReply)
	}
	if contentChunks < 10 {
		t.Errorf("reply came in %d content chunks, want one per token", contentChunks)
	}
	if !finishedContent {
		t.Error("the accumulator never saw the content finish")
	}
	if acc.Choices[0].FinishReason != "stop" {
		t.Errorf("finish_reason = %q, want stop", acc.Choices[0].FinishReason)
	}
	if acc.Usage.CompletionTokens < 10 || acc.Usage.PromptTokens == 0 || acc.Usage.TotalTokens != acc.Usage.PromptTokens+acc.Usage.CompletionTokens {
		t.Errorf("usage = %+v, want token counts from the stream's usage chunk", acc.Usage)
	}

	// go-openai reads the same stream through the same session client.
	cfg := goopenai.DefaultConfig("provider-key")
	cfg.BaseURL = sess.BaseURL()
	cfg.HTTPClient = sess.HTTPClient()
	goClient := goopenai.NewClientWithConfig(cfg)
	goStream, err := goClient.CreateChatCompletionStream(context.Background(), goopenai.ChatCompletionRequest{
		Model:    "gpt-4.1-mini",
		Messages: []goopenai.ChatCompletionMessage{{Role: "user", Content: "Tell me"}},
	})
	if err != nil {
		t.Fatal(err)
	}
	defer goStream.Close()
	var text strings.Builder
	for {
		resp, err := goStream.Recv()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		if len(resp.Choices) > 0 {
			text.WriteString(resp.Choices[0].Delta.Content)
		}
	}
	if text.String() != longReply {
		t.Errorf("go-openai stream = %q, want %q", text.String(), longReply)
	}
	entries := sess.Journal().Entries()
	if len(entries) != 2 || !entries[0].Stream || entries[0].ReplyText != longReply {
		t.Errorf("journal = %+v, want two streamed entries", entries)
	}
}

func TestChatCompletionWithGoOpenAI(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t)
	sess := srv.NewSession(t, session.RequireAPIKey("provider-key"), session.OnlyModels("gpt-4.1-mini"))
	sess.Chat("greeting").Responds("Hello from go-openai")
	cfg := goopenai.DefaultConfig("provider-key")
	cfg.BaseURL = sess.BaseURL()
	cfg.HTTPClient = sess.HTTPClient()
	client := goopenai.NewClientWithConfig(cfg)
	req := goopenai.ChatCompletionRequest{
		Model: "gpt-4.1-mini",
		Messages: []goopenai.ChatCompletionMessage{
			{Role: "system", Content: "Be brief."},
			{Role: "user", Content: "Hello"},
		},
	}
	resp, err := client.CreateChatCompletion(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	if resp.Choices[0].Message.Content != "Hello from go-openai" || resp.Choices[0].FinishReason != "stop" {
		t.Errorf("reply = %+v", resp.Choices[0])
	}
	if resp.Usage.PromptTokens == 0 || resp.Usage.CompletionTokens != 5 { // Hello| from| go|-|openai
		t.Errorf("usage = %+v, want real token counts", resp.Usage)
	}
	if resp.Header().Get("X-Request-Id") == "" {
		t.Error("no x-request-id header")
	}

	// Errors parse into go-openai's error type.
	_, err = client.CreateChatCompletion(context.Background(), req)
	var apiErr *goopenai.APIError
	if !errors.As(err, &apiErr) || apiErr.HTTPStatusCode != http.StatusBadRequest || apiErr.Code != "llm_test_server_no_scenario" {
		t.Fatalf("exhausted script: err = %#v, want APIError 400 llm_test_server_no_scenario", err)
	}
	for _, want := range []string{"chat.completions", "gpt-4.1-mini", "Hello", `"greeting" (all 1 replies used)`} {
		if !strings.Contains(apiErr.Message, want) {
			t.Errorf("no-scenario message %q does not mention %q", apiErr.Message, want)
		}
	}
	req.Model = "gpt-4o"
	_, err = client.CreateChatCompletion(context.Background(), req)
	if !errors.As(err, &apiErr) || apiErr.HTTPStatusCode != http.StatusNotFound || apiErr.Code != "model_not_found" {
		t.Fatalf("unserved model: err = %#v, want APIError 404 model_not_found", err)
	}
	bad := goopenai.NewClientWithConfig(func() goopenai.ClientConfig {
		c := goopenai.DefaultConfig("wrong-key")
		c.BaseURL, c.HTTPClient = sess.BaseURL(), sess.HTTPClient()
		return c
	}())
	_, err = bad.CreateChatCompletion(context.Background(), req)
	if !errors.As(err, &apiErr) || apiErr.HTTPStatusCode != http.StatusUnauthorized || apiErr.Code != "invalid_api_key" {
		t.Fatalf("wrong key: err = %#v, want APIError 401 invalid_api_key", err)
	}
}
