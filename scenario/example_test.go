package scenario_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log"
	"strings"

	"github.com/openai/openai-go/v3"

	"github.com/llmtestserver/llmtestserver/llmtest"
	"github.com/llmtestserver/llmtestserver/scenario"
)

// weatherParams is a request that offers the get_weather tool.
func weatherParams(messages ...openai.ChatCompletionMessageParamUnion) openai.ChatCompletionNewParams {
	return openai.ChatCompletionNewParams{
		Model:    "gpt-4.1-mini",
		Messages: messages,
		Tools: []openai.ChatCompletionToolUnionParam{
			openai.ChatCompletionFunctionTool(openai.FunctionDefinitionParam{Name: "get_weather"}),
		},
	}
}

// The Go form: a builder scripts a scenario that asks for a tool, then
// answers once the tool's result comes back. The scenario is plain data,
// whose JSON is what the admin API takes.
func Example() {
	srv, err := llmtest.New()
	if err != nil {
		log.Fatal(err)
	}
	defer srv.Close()
	sess, err := srv.OpenSession()
	if err != nil {
		log.Fatal(err)
	}
	defer sess.Close()
	sess.Chat("weather").
		When(scenario.ToolOffered("get_weather")).
		CallsTool("get_weather", `{"city":"Paris"}`).
		Then("It is sunny in Paris.")

	client := llmtest.OpenAIClient(sess)
	ctx := context.Background()
	history := []openai.ChatCompletionMessageParamUnion{openai.UserMessage("Weather in Paris?")}
	first, err := client.Chat.Completions.New(ctx, weatherParams(history...))
	if err != nil {
		log.Fatal(err)
	}
	call := first.Choices[0].Message.ToolCalls[0]
	fmt.Println("tool call:", call.Function.Name, call.Function.Arguments)

	history = append(history, first.Choices[0].Message.ToParam(), openai.ToolMessage("sunny, 24°C", call.ID))
	second, err := client.Chat.Completions.New(ctx, weatherParams(history...))
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("answer:", second.Choices[0].Message.Content)

	doc, err := json.Marshal(sess.Scenarios()[0].Scenario)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(string(doc))
	// Output:
	// tool call: get_weather {"city":"Paris"}
	// answer: It is sunny in Paris.
	// {"name":"weather","match":{"tool_offered":"get_weather"},"replies":[{"tool_calls":[{"name":"get_weather","arguments":"{\"city\":\"Paris\"}"}]},{"text":"It is sunny in Paris."}]}
}

// The JSON form, posted to the session's POST /admin-api/scenarios, as a
// test in another language would: a 429 with Retry-After 0 that the SDK
// retries, then an answer. A misspelt field is refused, naming it.
func Example_json() {
	srv, _ := llmtest.New()
	defer srv.Close()
	sess, _ := srv.OpenSession()
	defer sess.Close()

	post := func(doc string) {
		// The session's client adds the headers that select the session.
		resp, err := sess.HTTPClient().Post(sess.Endpoint()+"/admin-api/scenarios", "application/json", strings.NewReader(doc))
		if err != nil {
			log.Fatal(err)
		}
		defer resp.Body.Close()
		var refused struct {
			Error struct{ Message, Code string } `json:"error"`
		}
		if err := json.NewDecoder(resp.Body).Decode(&refused); err != nil && err != io.EOF {
			log.Fatal(err)
		}
		fmt.Println(strings.TrimSpace(fmt.Sprintln(resp.StatusCode, refused.Error.Code, refused.Error.Message)))
	}
	post(`{"scenarios": [{"name": "flaky", "match": {"user_contains": "Paris"},
		"replies": [{"error": {"status": 429, "code": "rate_limit_exceeded", "headers": {"Retry-After": "0"}}},
		            {"text": "Paris is the capital of France."}]}]}`)
	post(`{"scenarios": [{"name": "typo", "replies": [{"txt": "hello"}]}]}`)

	client := llmtest.OpenAIClient(sess)
	resp, err := client.Chat.Completions.New(context.Background(), openai.ChatCompletionNewParams{
		Model:    "gpt-4.1-mini",
		Messages: []openai.ChatCompletionMessageParamUnion{openai.UserMessage("Tell me about Paris")},
	})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(resp.Choices[0].Message.Content)
	for _, e := range sess.Journal().Entries() {
		fmt.Println(strings.TrimSpace(fmt.Sprintln(e.Status, e.Scenario, e.ErrorCode)))
	}
	// Output:
	// 204
	// 400 invalid_configuration Invalid configuration: json: unknown field "txt"
	// Paris is the capital of France.
	// 429 flaky rate_limit_exceeded
	// 200 flaky
}

// A Go responder computes its reply from the request; it works in
// process only, since a function has no JSON form.
func ExampleRespond() {
	srv, _ := llmtest.New()
	defer srv.Close()
	sess, _ := srv.OpenSession()
	defer sess.Close()
	sess.Chat("echo").Reply(scenario.Respond(func(r *scenario.Request) scenario.Reply {
		return scenario.Text("You said: " + r.LastUserText())
	})).Repeat()

	client := llmtest.OpenAIClient(sess)
	for _, text := range []string{"ping", "pong"} {
		resp, err := client.Chat.Completions.New(context.Background(), openai.ChatCompletionNewParams{
			Model:    "gpt-4.1-mini",
			Messages: []openai.ChatCompletionMessageParamUnion{openai.UserMessage(text)},
		})
		if err != nil {
			log.Fatal(err)
		}
		fmt.Println(resp.Choices[0].Message.Content)
	}
	_, err := json.Marshal(sess.Scenarios()[0].Scenario)
	fmt.Println(err != nil)
	// Output:
	// You said: ping
	// You said: pong
	// true
}
