package llmtest_test

import (
	"context"
	"errors"
	"fmt"
	"log"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"

	"github.com/llmtestserver/llmtestserver/llmtest"
	"github.com/llmtestserver/llmtestserver/scenario"
	"github.com/llmtestserver/llmtestserver/session"
)

// One call gives openai-go the session's base URL, transport and provider
// key; options passed after the session win over those.
func ExampleOpenAIClient() {
	srv, err := llmtest.New()
	if err != nil {
		log.Fatal(err)
	}
	defer srv.Close()
	sess, err := srv.OpenSession(session.RequireAPIKey("provider-key"))
	if err != nil {
		log.Fatal(err)
	}
	defer sess.Close()
	sess.Chat("greeting").Responds("Hello from this test")

	client := llmtest.OpenAIClient(sess) // sends "provider-key"
	resp, err := client.Chat.Completions.New(context.Background(), openai.ChatCompletionNewParams{
		Model:    "gpt-4.1-mini",
		Messages: []openai.ChatCompletionMessageParamUnion{openai.UserMessage("Hi")},
	})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(resp.Choices[0].Message.Content)

	wrong := llmtest.OpenAIClient(sess, option.WithAPIKey("not-the-key"))
	_, err = wrong.Chat.Completions.New(context.Background(), openai.ChatCompletionNewParams{
		Model:    "gpt-4.1-mini",
		Messages: []openai.ChatCompletionMessageParamUnion{openai.UserMessage("Hi")},
	})
	var apiErr *openai.Error
	if errors.As(err, &apiErr) {
		fmt.Println(apiErr.StatusCode, apiErr.Code)
	}
	// Output:
	// Hello from this test
	// 401 invalid_api_key
}

// The journal answers what an agent test asks: the prompt_cache_key of
// every turn, how often a request was retried, and the tokens spent.
func ExampleOpenAIClient_agentQuestions() {
	srv, _ := llmtest.New()
	defer srv.Close()
	sess, _ := srv.OpenSession()
	defer sess.Close()
	sess.Chat("busy").When(scenario.Turn(1)).Reply(scenario.RateLimited()).Responds("Paris.")
	sess.Chat("followup").When(scenario.Turn(2)).Responds("About two million.")

	client := llmtest.OpenAIClient(sess, option.WithHTTPClient(sess.Conversation("agent-1").HTTPClient()))
	history := []openai.ChatCompletionMessageParamUnion{
		openai.SystemMessage("You are a geography agent."),
		openai.UserMessage("Capital of France?"),
	}
	ask := func() {
		resp, err := client.Chat.Completions.New(context.Background(), openai.ChatCompletionNewParams{
			Model: "gpt-4.1-mini", Messages: history, PromptCacheKey: openai.String("geo-agent"),
		})
		if err != nil {
			log.Fatal(err)
		}
		fmt.Println(resp.Choices[0].Message.Content)
		history = append(history, resp.Choices[0].Message.ToParam())
	}
	ask() // rate limited once: openai-go retries by itself
	history = append(history, openai.UserMessage("How many people live there?"))
	ask()

	j := sess.Journal()
	fmt.Println("prompt_cache_keys:", j.PromptCacheKeys("agent-1"))
	fmt.Println("most retries of one request:", j.MaxRetries())
	fmt.Println("tokens in, out:", j.TotalTokens().Input, j.TotalTokens().Output)
	// Output:
	// Paris.
	// About two million.
	// prompt_cache_keys: [geo-agent geo-agent geo-agent]
	// most retries of one request: 1
	// tokens in, out: 58 6
}
