package llmtest_test

import (
	"context"
	"errors"
	"fmt"
	"log"
	"time"

	"github.com/llmtestserver/llmtestserver/llmtest"
	"github.com/llmtestserver/llmtestserver/session"
	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
)

// In a test, llmtest.NewServer(t) and srv.NewSession(t) close themselves at
// cleanup; outside one, New and OpenSession leave closing to the caller.
func Example() {
	srv, err := llmtest.New()
	if err != nil {
		log.Fatal(err)
	}
	defer srv.Close()
	sess, err := srv.OpenSession(session.RequireAPIKey("provider-key"), session.OnlyModels("gpt-4.1-mini"))
	if err != nil {
		log.Fatal(err)
	}
	defer sess.Close()
	sess.Chat("greeting").Responds("Hello from this test")

	client := openai.NewClient(
		option.WithBaseURL(sess.BaseURL()),
		option.WithAPIKey("provider-key"),
		option.WithHTTPClient(sess.HTTPClient()))
	resp, err := client.Chat.Completions.New(context.Background(), openai.ChatCompletionNewParams{
		Model:    "gpt-4.1-mini",
		Messages: []openai.ChatCompletionMessageParamUnion{openai.UserMessage("Hi there")},
	})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(resp.Choices[0].Message.Content)

	last, _ := sess.Journal().Last()
	fmt.Println(last.Status, last.Model, last.UserText, "->", last.ReplyText)
	// Output:
	// Hello from this test
	// 200 gpt-4.1-mini Hi there -> Hello from this test
}

// Replies are used once each, in order; a request nothing answers gets an
// error that names the request and the scenarios tried.
func ExampleServer_NewSession_script() {
	srv, _ := llmtest.New()
	defer srv.Close()
	sess, _ := srv.OpenSession()
	defer sess.Close()
	sess.Chat("counting").Responds("one").Responds("two")

	client := openai.NewClient(option.WithBaseURL(sess.BaseURL()), option.WithAPIKey("any"),
		option.WithHTTPClient(sess.HTTPClient()), option.WithMaxRetries(0))
	ask := func() {
		resp, err := client.Chat.Completions.New(context.Background(), openai.ChatCompletionNewParams{
			Model:    "gpt-4.1-mini",
			Messages: []openai.ChatCompletionMessageParamUnion{openai.UserMessage("Count")},
		})
		var apiErr *openai.Error
		if errors.As(err, &apiErr) {
			fmt.Println(apiErr.StatusCode, apiErr.Code)
			return
		}
		fmt.Println(resp.Choices[0].Message.Content)
	}
	ask()
	ask()
	ask()
	// Output:
	// one
	// two
	// 400 llm_test_server_no_scenario
}

// A streamed answer arrives token by token; the accumulator rebuilds it.
func ExampleServer_NewSession_streaming() {
	srv, _ := llmtest.New()
	defer srv.Close()
	sess, _ := srv.OpenSession()
	defer sess.Close()
	sess.Chat("story").Responds("Once upon a time, a test passed.")

	client := openai.NewClient(option.WithBaseURL(sess.BaseURL()), option.WithAPIKey("any"),
		option.WithHTTPClient(sess.HTTPClient()))
	stream := client.Chat.Completions.NewStreaming(context.Background(), openai.ChatCompletionNewParams{
		Model:         "gpt-4.1-mini",
		Messages:      []openai.ChatCompletionMessageParamUnion{openai.UserMessage("Tell me a story")},
		StreamOptions: openai.ChatCompletionStreamOptionsParam{IncludeUsage: openai.Bool(true)},
	})
	var acc openai.ChatCompletionAccumulator
	chunks := 0
	for stream.Next() {
		acc.AddChunk(stream.Current())
		chunks++
	}
	if err := stream.Err(); err != nil {
		log.Fatal(err)
	}
	fmt.Println(acc.Choices[0].Message.Content)
	fmt.Println("completion tokens:", acc.Usage.CompletionTokens, "chunks:", chunks)
	// Output:
	// Once upon a time, a test passed.
	// completion tokens: 9 chunks: 12
}

// A reply can be held back before the response starts. The wait ends early
// if the client gives up (the reply then goes back to its queue) or the
// session is deleted (the request then ends with 409
// llm_test_server_request_superseded).
func ExampleServer_NewSession_delay() {
	srv, _ := llmtest.New()
	defer srv.Close()
	sess, _ := srv.OpenSession()
	defer sess.Close()
	sess.Chat("slow").RespondsAfter(20*time.Millisecond, "worth the wait")

	client := openai.NewClient(option.WithBaseURL(sess.BaseURL()), option.WithAPIKey("any"),
		option.WithHTTPClient(sess.HTTPClient()))
	start := time.Now()
	resp, err := client.Chat.Completions.New(context.Background(), openai.ChatCompletionNewParams{
		Model:    "gpt-4.1-mini",
		Messages: []openai.ChatCompletionMessageParamUnion{openai.UserMessage("Hi")},
	})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(resp.Choices[0].Message.Content, time.Since(start) >= 20*time.Millisecond)
	// Output:
	// worth the wait true
}
