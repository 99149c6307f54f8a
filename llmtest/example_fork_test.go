package llmtest_test

import (
	"context"
	"fmt"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"

	"github.com/llmtestserver/llmtestserver/llmtest"
	"github.com/llmtestserver/llmtestserver/session"
)

// Build a base session once and fork it for each case: a fork starts with
// what its base has left, and from then on each changes only itself. In a
// test, srv.Fork(t, base) also closes the fork at cleanup.
func Example_fork() {
	srv, _ := llmtest.New()
	defer srv.Close()
	base, _ := srv.OpenSession()
	defer base.Close()
	base.Chat("greeting").Responds("Hello").Then("Hello again")

	ask := func(sess *session.Session) string {
		client := llmtest.OpenAIClient(sess, option.WithMaxRetries(0))
		resp, err := client.Chat.Completions.New(context.Background(), openai.ChatCompletionNewParams{
			Model:    "gpt-4.1-mini",
			Messages: []openai.ChatCompletionMessageParamUnion{openai.UserMessage("Hi")},
		})
		if err != nil {
			return err.Error()
		}
		return resp.Choices[0].Message.Content
	}
	fmt.Println("base:", ask(base))

	same, _ := base.Fork()
	defer same.Close()
	french, _ := base.Fork()
	defer french.Close()
	french.Chat("greeting").Clear().Responds("Bonjour")

	fmt.Println("fork:", ask(same))
	fmt.Println("base:", ask(base))
	fmt.Println("french fork:", ask(french))
	fmt.Println("journals:", base.Journal().Len(), same.Journal().Len(), french.Journal().Len())
	// Output:
	// base: Hello
	// fork: Hello again
	// base: Hello again
	// french fork: Bonjour
	// journals: 2 1 1
}
