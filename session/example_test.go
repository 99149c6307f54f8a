package session_test

import (
	"context"
	"errors"
	"fmt"
	"log"
	"net/http"
	"time"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"

	"github.com/llmtestserver/llmtestserver/llmtest"
	"github.com/llmtestserver/llmtestserver/scenario"
	"github.com/llmtestserver/llmtestserver/session"
)

// ask sends one chat completion and prints its answer, or the status and
// code of the error.
func ask(client openai.Client, model, text string) {
	resp, err := client.Chat.Completions.New(context.Background(), openai.ChatCompletionNewParams{
		Model:    model,
		Messages: []openai.ChatCompletionMessageParamUnion{openai.UserMessage(text)},
	})
	var apiErr *openai.Error
	switch {
	case errors.As(err, &apiErr):
		fmt.Println(apiErr.StatusCode, apiErr.Code)
	case err != nil:
		log.Fatal(err)
	default:
		fmt.Println(resp.Choices[0].Message.Content)
	}
}

// Configure swaps the whole configuration, scripted scenarios included,
// or changes nothing when the new one is invalid.
func ExampleSession_Configure() {
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
	sess.Chat("any").Responds("hello").Repeat()
	client := llmtest.OpenAIClient(sess, option.WithMaxRetries(0))

	ask(client, "gpt-4.1-mini", "Hi")
	ask(client, "gpt-4o", "Hi") // not among the session's models

	err = sess.Configure(session.OnlyModels("gpt-4o"),
		session.WithScenario(scenario.Scenario{Name: "any", Replies: []scenario.Reply{scenario.Text("hello from gpt-4o")}}))
	fmt.Println("configured:", err)
	ask(client, "gpt-4o", "Hi")
	ask(client, "gpt-4.1-mini", "Hi")

	err = sess.Configure(session.WithHistory(-1))
	fmt.Println("refused:", err != nil)
	ask(client, "gpt-4o", "Hi") // the scenario's one reply is used: the configuration stayed
	// Output:
	// hello
	// 404 model_not_found
	// configured: <nil>
	// hello from gpt-4o
	// 404 model_not_found
	// refused: true
	// 400 llm_test_server_no_scenario
}

// Reset empties the journal and makes every scripted reply available
// again; the configuration stays.
func ExampleSession_Reset() {
	srv, _ := llmtest.New()
	defer srv.Close()
	sess, _ := srv.OpenSession()
	defer sess.Close()
	sess.Chat("once").Responds("the only answer")
	client := llmtest.OpenAIClient(sess, option.WithMaxRetries(0))

	ask(client, "gpt-4.1-mini", "Hi")
	ask(client, "gpt-4.1-mini", "Hi")
	fmt.Println("journal:", sess.Journal().Len(), "pending:", sess.Pending())

	sess.Reset()
	fmt.Println("journal:", sess.Journal().Len(), "pending:", sess.Pending())
	ask(client, "gpt-4.1-mini", "Hi")
	// Output:
	// the only answer
	// 400 llm_test_server_no_scenario
	// journal: 2 pending: 0
	// journal: 0 pending: 1
	// the only answer
}

// Conversations keep parallel users of one session apart: each declared
// conversation gets its own copy of a per-conversation scenario, and the
// journal files each request under its conversation.
func ExampleSession_Conversation() {
	srv, _ := llmtest.New()
	defer srv.Close()
	sess, _ := srv.OpenSession()
	defer sess.Close()
	sess.Chat("story").PerConversation().Responds("chapter 1").Responds("chapter 2")

	alice := llmtest.OpenAIClient(sess, option.WithHTTPClient(sess.Conversation("alice").HTTPClient()))
	bob := llmtest.OpenAIClient(sess, option.WithHTTPClient(sess.Conversation("bob").HTTPClient()))
	ask(alice, "gpt-4.1-mini", "Tell me a story")
	ask(bob, "gpt-4.1-mini", "Tell me a story")
	ask(alice, "gpt-4.1-mini", "Tell me a story")

	for _, e := range sess.Journal().Entries() {
		fmt.Println(e.Conversation, e.ReplyText)
	}
	// Output:
	// chapter 1
	// chapter 1
	// chapter 2
	// alice chapter 1
	// bob chapter 1
	// alice chapter 2
}

// WrapClient adds the session headers to a client of the caller's, which
// stays as it was; a client without a transport of its own goes over the
// server's.
func ExampleSession_WrapClient() {
	srv, _ := llmtest.New()
	defer srv.Close()
	sess, _ := srv.OpenSession()
	defer sess.Close()
	sess.Chat("greeting").Responds("Hello")

	mine := &http.Client{Timeout: time.Minute}
	client := llmtest.OpenAIClient(sess, option.WithHTTPClient(sess.WrapClient(mine)))
	ask(client, "gpt-4.1-mini", "Hi")
	fmt.Println("mine unchanged:", mine.Transport == nil)
	// Output:
	// Hello
	// mine unchanged: true
}

// WithIDSeed makes the IDs a session generates reproducible, for golden
// files: two sessions with the same seed answer with the same IDs.
func ExampleWithIDSeed() {
	srv, _ := llmtest.New()
	defer srv.Close()
	for range 2 {
		sess, _ := srv.OpenSession(session.WithIDSeed(7))
		sess.Chat("greeting").Responds("Hello")
		client := llmtest.OpenAIClient(sess)
		resp, err := client.Chat.Completions.New(context.Background(), openai.ChatCompletionNewParams{
			Model:    "gpt-4.1-mini",
			Messages: []openai.ChatCompletionMessageParamUnion{openai.UserMessage("Hi")},
		})
		if err != nil {
			log.Fatal(err)
		}
		fmt.Println(resp.ID)
		sess.Close()
	}
	// Output:
	// chatcmpl-ggyY168z4rjsEamQ8WPMxoPxOqOaJ
	// chatcmpl-ggyY168z4rjsEamQ8WPMxoPxOqOaJ
}
