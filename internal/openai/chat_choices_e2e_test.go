package openai_test

import (
	"testing"

	"github.com/llmtestserver/llmtestserver/internal/e2e"
	"github.com/llmtestserver/llmtestserver/llmtest"
	"github.com/openai/openai-go/v3"
)

// n asks for several choices; every choice carries the answer and usage
// counts the completion tokens of all of them.
func TestMultipleChoices(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t)
	sess := srv.NewSession(t)
	const text = "Two answers for the price of one."
	sess.Chat("n").Responds(text).Repeat()
	client := e2e.ClientFor(sess, "k")
	one, err := client.Chat.Completions.New(t.Context(), e2e.UserTurn(e2e.ReplyModel, "Hi"))
	if err != nil {
		t.Fatal(err)
	}
	params := e2e.UserTurn(e2e.ReplyModel, "Hi")
	params.N = openai.Int(2)
	two, err := client.Chat.Completions.New(t.Context(), params)
	if err != nil {
		t.Fatal(err)
	}
	if len(two.Choices) != 2 {
		t.Fatalf("%d choices, want 2", len(two.Choices))
	}
	for i, c := range two.Choices {
		if c.Index != int64(i) || c.Message.Content != text || c.FinishReason != "stop" {
			t.Errorf("choice %d = index %d %q %q", i, c.Index, c.Message.Content, c.FinishReason)
		}
	}
	if two.Usage.CompletionTokens != 2*one.Usage.CompletionTokens || two.Usage.PromptTokens != one.Usage.PromptTokens {
		t.Errorf("usage with n=2 = %+v, with n=1 = %+v; want twice the completion tokens", two.Usage, one.Usage)
	}

	params.StreamOptions = openai.ChatCompletionStreamOptionsParam{IncludeUsage: openai.Bool(true)}
	acc, _ := e2e.ReadChatStream(t, client.Chat.Completions.NewStreaming(t.Context(), params))
	if len(acc.Choices) != 2 || acc.Choices[0].Message.Content != text || acc.Choices[1].Message.Content != text {
		t.Errorf("streamed choices = %+v, want two with the text", acc.Choices)
	}
	if acc.Usage.CompletionTokens != two.Usage.CompletionTokens {
		t.Errorf("streamed completion tokens = %d, want %d", acc.Usage.CompletionTokens, two.Usage.CompletionTokens)
	}
}
