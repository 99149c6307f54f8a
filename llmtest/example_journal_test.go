package llmtest_test

import (
	"context"
	"errors"
	"fmt"
	"log"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"

	"github.com/llmtestserver/llmtestserver/journal"
	"github.com/llmtestserver/llmtestserver/llmtest"
	"github.com/llmtestserver/llmtestserver/scenario"
)

// The journal answers queries: entries by scenario or status, one
// conversation in turn order, and the explanation of a request nothing
// answered, nearest scenario first; the session's assertions list what a
// strict test fails on.
func Example_journalQueries() {
	srv, _ := llmtest.New()
	defer srv.Close()
	sess, _ := srv.OpenSession()
	defer sess.Close()
	sess.Chat("plan").When(scenario.UserContains("trip")).PerConversation().
		Responds("Day 1: Rome.").Then("Day 2: Florence.")
	sess.Chat("weather").When(scenario.UserContains("weather")).Responds("Sunny.")

	// talk sends the conversation's history and the next user message.
	talk := func(name string, history *[]openai.ChatCompletionMessageParamUnion, text string) {
		client := llmtest.OpenAIClient(sess, option.WithHTTPClient(sess.Conversation(name).HTTPClient()),
			option.WithMaxRetries(0))
		*history = append(*history, openai.UserMessage(text))
		resp, err := client.Chat.Completions.New(context.Background(), openai.ChatCompletionNewParams{
			Model: "gpt-4.1-mini", Messages: *history})
		var apiErr *openai.Error
		switch {
		case errors.As(err, &apiErr):
			return
		case err != nil:
			log.Fatal(err)
		}
		*history = append(*history, resp.Choices[0].Message.ToParam())
	}
	var alice, bob []openai.ChatCompletionMessageParamUnion
	talk("alice", &alice, "Plan a trip to Italy")
	talk("bob", &bob, "Plan a trip to Italy")
	talk("alice", &alice, "And then? The trip goes on")
	talk("bob", &bob, "What about the weekend?")

	j := sess.Journal()
	fmt.Println("answered by plan:", j.Count(journal.Query{Scenario: "plan"}))
	fmt.Println("refused:", j.Count(journal.Query{StatusClass: 4}))
	for _, e := range j.Conversation("alice") {
		fmt.Printf("alice turn %d: %s\n", e.Turn, e.ReplyText)
	}
	miss := j.Find(journal.Query{ErrorCode: journal.NoScenarioCode})[0]
	fmt.Println(miss.String())
	for _, tried := range miss.Tried {
		fmt.Printf("  %s: %s\n", tried.Scenario, tried.Why)
	}

	// What llmtest.CheckAssertions and strict mode would fail the test on.
	report := sess.Assertions()
	fmt.Println("unmatched:", report.UnmatchedTotal)
	for _, u := range report.Unused {
		fmt.Printf("unused: %s replies[%d], scripted at %s\n", u.Scenario, u.Index, u.ScriptedAt)
	}
	// Output:
	// answered by plan: 3
	// refused: 1
	// alice turn 1: Day 1: Rome.
	// alice turn 2: Day 2: Florence.
	// #4 POST /v1/chat/completions -> 400 model=gpt-4.1-mini conversation=bob/1 turn=2 user="What about the weekend?" error=llm_test_server_no_scenario
	//   plan: does not match user message containing "trip" (got "What about the weekend?")
	//   weather: does not match user message containing "weather" (got "What about the weekend?")
	// unmatched: 1
	// unused: weather replies[0], scripted at example_journal_test.go:28
}
