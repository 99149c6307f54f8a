package llmtest_test

import (
	"context"
	"testing"

	"github.com/llmtestserver/llmtestserver/llmtest"
	"github.com/llmtestserver/llmtestserver/session"
	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
)

func TestSmoke(t *testing.T) {
	srv := llmtest.NewServer(t)
	sess := srv.NewSession(t, session.RequireBearerToken("provider-key"), session.UseModel("gpt-4.1-mini"))
	sess.Chat("greeting").Responds("Hello from this test")
	client := openai.NewClient(option.WithBaseURL(sess.BaseURL()), option.WithAPIKey("provider-key"), option.WithHTTPClient(sess.HTTPClient()))
	resp, err := client.Chat.Completions.New(context.Background(), openai.ChatCompletionNewParams{
		Model:    "gpt-4.1-mini",
		Messages: []openai.ChatCompletionMessageParamUnion{openai.UserMessage("Hi")},
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%s %+v", resp.Choices[0].Message.Content, resp.Usage)
	stream := client.Chat.Completions.NewStreaming(context.Background(), openai.ChatCompletionNewParams{
		Model:    "gpt-4.1-mini",
		Messages: []openai.ChatCompletionMessageParamUnion{openai.UserMessage("Hi")},
	})
	for stream.Next() {
		t.Logf("chunk %+v", stream.Current().Choices)
	}
	t.Log(stream.Err())
	t.Log(sess.Journal().Entries())
}
