package examples_test

import (
	"context"
	"fmt"
	"log"
	"testing"

	"github.com/llmtestserver/llmtestserver/llmtest"
	"github.com/llmtestserver/llmtestserver/session"
	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
)

// newClient returns an official SDK client that talks to sess.
func newClient(sess *session.Session, apiKey string) openai.Client {
	return openai.NewClient(
		option.WithBaseURL(sess.BaseURL()),
		option.WithAPIKey(apiKey),
		option.WithHTTPClient(sess.HTTPClient()), // adds the session headers
	)
}

// A non-streamed chat completion with the official SDK, then a look at the
// session's journal.
func Example_chatCompletion() {
	srv, err := llmtest.New()
	if err != nil {
		log.Fatal(err)
	}
	defer srv.Close()
	sess, err := srv.OpenSession(
		session.RequireAPIKey("provider-key"),
		session.OnlyModels("gpt-4.1-mini"))
	if err != nil {
		log.Fatal(err)
	}
	defer sess.Close()
	sess.Chat("greeting").Responds("Hello from this test")

	client := newClient(sess, "provider-key")
	completion, err := client.Chat.Completions.New(context.Background(), openai.ChatCompletionNewParams{
		Model:    "gpt-4.1-mini",
		Messages: []openai.ChatCompletionMessageParamUnion{openai.UserMessage("Hello")},
	})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("reply:", completion.Choices[0].Message.Content)

	last, _ := sess.Journal().Last()
	fmt.Println("journal entries:", sess.Journal().Len())
	fmt.Printf("last: %s %s %d, user %q, scenario %q, reply %q\n",
		last.Method, last.Path, last.Status, last.UserText, last.Scenario, last.ReplyText)
	// Output:
	// reply: Hello from this test
	// journal entries: 1
	// last: POST /v1/chat/completions 200, user "Hello", scenario "greeting", reply "Hello from this test"
}

// A streamed chat completion, reassembled by the SDK's accumulator. Replies
// are used once each, in order.
func Example_streaming() {
	srv, err := llmtest.New()
	if err != nil {
		log.Fatal(err)
	}
	defer srv.Close()
	sess, err := srv.OpenSession(session.OnlyModels("gpt-4.1-mini"))
	if err != nil {
		log.Fatal(err)
	}
	defer sess.Close()
	sess.Chat("story").
		Responds("Once upon a time, a test ran in parallel.").
		Responds("The end.")

	client := newClient(sess, "any-key") // the session requires no API key
	for range 2 {
		stream := client.Chat.Completions.NewStreaming(context.Background(), openai.ChatCompletionNewParams{
			Model:         "gpt-4.1-mini",
			Messages:      []openai.ChatCompletionMessageParamUnion{openai.UserMessage("Tell me a story")},
			StreamOptions: openai.ChatCompletionStreamOptionsParam{IncludeUsage: openai.Bool(true)},
		})
		var acc openai.ChatCompletionAccumulator
		for stream.Next() {
			acc.AddChunk(stream.Current())
		}
		if err := stream.Err(); err != nil {
			log.Fatal(err)
		}
		stream.Close()
		fmt.Printf("streamed: %s (usage reported: %t)\n",
			acc.Choices[0].Message.Content, acc.Usage.CompletionTokens > 0)
	}

	last, _ := sess.Journal().Last()
	fmt.Println("journal entries:", sess.Journal().Len())
	fmt.Printf("last: stream %t, reply %q\n", last.Stream, last.ReplyText)
	// Output:
	// streamed: Once upon a time, a test ran in parallel. (usage reported: true)
	// streamed: The end. (usage reported: true)
	// journal entries: 2
	// last: stream true, reply "The end."
}

// TestParallelSessions shows the usual shape of a test: one server, and an
// isolated session per parallel subtest. The subtests send the same prompt
// and each gets its own scripted reply and its own journal.
func TestParallelSessions(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t)
	for _, name := range []string{"alpha", "beta", "gamma", "delta"} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			sess := srv.NewSession(t,
				session.RequireAPIKey("provider-key-"+name),
				session.OnlyModels("gpt-4.1-mini"))
			want := "Hello from " + name
			sess.Chat("greeting").Responds(want)

			client := newClient(sess, "provider-key-"+name)
			completion, err := client.Chat.Completions.New(t.Context(), openai.ChatCompletionNewParams{
				Model:    "gpt-4.1-mini",
				Messages: []openai.ChatCompletionMessageParamUnion{openai.UserMessage("Hello")},
			})
			if err != nil {
				t.Fatal(err)
			}
			if got := completion.Choices[0].Message.Content; got != want {
				t.Errorf("reply = %q, want %q", got, want)
			}

			entries := sess.Journal().Entries()
			if len(entries) != 1 {
				t.Fatalf("journal holds %d entries, want 1: %+v", len(entries), entries)
			}
			if got := entries[0]; got.Status != 200 || got.Scenario != "greeting" || got.ReplyText != want {
				t.Errorf("journal entry = %+v, want status 200 from scenario %q replying %q", got, "greeting", want)
			}
		})
	}
}
