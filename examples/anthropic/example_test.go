package anthropic_test

import (
	"context"
	"fmt"
	"log"

	"github.com/anthropics/anthropic-sdk-go/v2"
	"github.com/anthropics/anthropic-sdk-go/v2/option"
	"github.com/llmtestserver/llmtestserver/llmtest"
	"github.com/llmtestserver/llmtestserver/session"
)

// A message from Anthropic's SDK, answered by a scripted reply, then a
// look at the session's journal. Examples cannot take a *testing.T, so this
// one uses llmtest.New and Server.OpenSession and closes what it opens; a
// test would call llmtest.NewServer(t) and srv.NewSession(t).
func Example() {
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

	client := anthropic.NewClient(
		option.WithBaseURL(sess.AnthropicBaseURL()), // the SDK appends /v1 itself
		option.WithAPIKey("provider-key"),
		option.WithHTTPClient(sess.HTTPClient())) // adds the session headers
	message, err := client.Messages.New(context.Background(), anthropic.MessageNewParams{
		Model:     anthropic.ModelClaudeSonnet5_5,
		MaxTokens: 1024,
		Messages:  []anthropic.MessageParam{anthropic.NewUserMessage(anthropic.NewTextBlock("Hello"))},
	})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("reply:", message.Content[0].Text)
	fmt.Println("stop reason:", message.StopReason)

	last, _ := sess.Journal().Last()
	fmt.Printf("journal: %s %s %s %d, scenario %q\n", last.Provider, last.Method, last.Path, last.Status, last.Scenario)
	// Output:
	// reply: Hello from this test
	// stop reason: end_turn
	// journal: anthropic POST /v1/messages 200, scenario "greeting"
}
