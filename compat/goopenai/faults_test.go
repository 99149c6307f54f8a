package goopenai_test

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"testing"

	"github.com/llmtestserver/llmtestserver/internal/e2e"
	"github.com/llmtestserver/llmtestserver/llmtest"
	"github.com/llmtestserver/llmtestserver/scenario"
	"github.com/openai/openai-go/v3"
	goopenai "github.com/sashabaranov/go-openai"
)

// A stream that fails after its 200 reaches each SDK the way the real API's
// mid-stream errors do: openai-go's stream ends with an error, go-openai's
// Recv returns an *APIError. The journal keeps the 200 and the error code.
func TestChatStreamFailsInStream(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t)
	sess := srv.NewSession(t)
	sess.Chat("broken").Reply(scenario.FailStream("server_error", "The stream broke.")).Times(3)

	client := e2e.ClientFor(sess, "k")
	stream := client.Chat.Completions.NewStreaming(context.Background(), e2e.UserTurn("gpt-4.1-mini", "Hi"))
	for stream.Next() {
		t.Errorf("got a chunk from a failed stream: %s", stream.Current().RawJSON())
	}
	if err := stream.Err(); err == nil || !strings.Contains(err.Error(), "The stream broke.") {
		t.Errorf("openai-go stream error = %v, want the scripted message", err)
	}

	cfg := goopenai.DefaultConfig("k")
	cfg.BaseURL, cfg.HTTPClient = sess.BaseURL(), sess.HTTPClient()
	goStream, err := goopenai.NewClientWithConfig(cfg).CreateChatCompletionStream(context.Background(), goopenai.ChatCompletionRequest{
		Model: "gpt-4.1-mini", Messages: []goopenai.ChatCompletionMessage{{Role: "user", Content: "Hi"}},
	})
	if err != nil {
		t.Fatal(err)
	}
	defer goStream.Close()
	_, err = goStream.Recv()
	var apiErr *goopenai.APIError
	if !errors.As(err, &apiErr) || apiErr.Message != "The stream broke." {
		t.Errorf("go-openai Recv error = %#v, want an APIError with the scripted message", err)
	}

	// A request that does not stream gets the HTTP error.
	_, err = client.Chat.Completions.New(context.Background(), e2e.UserTurn("gpt-4.1-mini", "Hi"))
	var oaErr *openai.Error
	if !errors.As(err, &oaErr) || oaErr.StatusCode != http.StatusInternalServerError || oaErr.Code != "server_error" {
		t.Errorf("non-streaming: err = %v, want 500 server_error", err)
	}
	entries := sess.Journal().Entries()
	if len(entries) != 3 || entries[0].Status != 200 || entries[0].ErrorCode != "server_error" || entries[2].Status != 500 {
		t.Errorf("journal = %+v, want 200/server_error twice, then 500", entries)
	}
}
