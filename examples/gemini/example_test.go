package gemini_test

import (
	"context"
	"fmt"
	"log"

	"github.com/llmtestserver/llmtestserver/llmtest"
	"github.com/llmtestserver/llmtestserver/scenario"
	"github.com/llmtestserver/llmtestserver/session"
	"google.golang.org/genai"
)

// model is the Gemini model the examples ask for; the session's catalog
// serves it.
const model = "gemini-2.5-flash"

// newClient is a Gemini API client of sess. A client with its own
// HTTPClient needs no Google credentials, and the session's HTTPClient adds
// the headers that select the session.
func newClient(sess *session.Session) *genai.Client {
	client, err := genai.NewClient(context.Background(), &genai.ClientConfig{
		APIKey:      "provider-key",
		Backend:     genai.BackendGeminiAPI,
		HTTPClient:  sess.HTTPClient(),
		HTTPOptions: genai.HTTPOptions{BaseURL: sess.GeminiBaseURL()}, // genai appends /v1
	})
	if err != nil {
		log.Fatal(err)
	}
	return client
}

// A generateContent call from genai, answered by a scripted reply, then a
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

	resp, err := newClient(sess).Models.GenerateContent(context.Background(), model, genai.Text("Hello"), nil)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("reply:", resp.Text())
	fmt.Println("finish:", resp.Candidates[0].FinishReason)

	last, _ := sess.Journal().Last()
	fmt.Printf("journal: %s %s %s %d, scenario %q\n", last.Provider, last.Method, last.Path, last.Status, last.Scenario)
	// Output:
	// reply: Hello from this test
	// finish: STOP
	// journal: gemini POST /v1/models/gemini-2.5-flash:generateContent 200, scenario "greeting"
}

// The loop of an agent with tools: the scripted model calls a function,
// the code under test answers with a functionResponse, and the next reply
// sees it. The journal records the call and its result as it does on every
// provider's route.
func Example_functionCall() {
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
		Reply(scenario.CallTool("get_weather", `{"city":"Paris"}`)).
		Then("Sunny in Paris.")

	client := newClient(sess)
	config := &genai.GenerateContentConfig{Tools: []*genai.Tool{{FunctionDeclarations: []*genai.FunctionDeclaration{{
		Name:                 "get_weather",
		ParametersJsonSchema: map[string]any{"type": "object", "properties": map[string]any{"city": map[string]any{"type": "string"}}},
	}}}}}
	history := genai.Text("What is the weather in Paris?")
	for {
		resp, err := client.Models.GenerateContent(context.Background(), model, history, config)
		if err != nil {
			log.Fatal(err)
		}
		calls := resp.FunctionCalls()
		if len(calls) == 0 {
			fmt.Println("answer:", resp.Text())
			break
		}
		fmt.Println("call:", calls[0].Name, calls[0].Args["city"])
		history = append(history, resp.Candidates[0].Content, genai.NewContentFromParts([]*genai.Part{
			genai.NewPartFromFunctionResponse(calls[0].Name, map[string]any{"output": "sunny"}),
		}, genai.RoleUser))
	}

	last, _ := sess.Journal().Last()
	fmt.Println("tool result seen:", last.ToolResults[0].Name, last.ToolResults[0].Content)
	// Output:
	// call: get_weather Paris
	// answer: Sunny in Paris.
	// tool result seen: get_weather {"output":"sunny"}
}

// A streamed answer arrives in chunks, each carrying the usage so far; the
// finish reason comes on the last.
func Example_stream() {
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
	sess.Chat("story").Responds("Once upon a time, a test passed.")

	text, chunks := "", 0
	var finish genai.FinishReason
	for resp, err := range newClient(sess).Models.GenerateContentStream(context.Background(), model, genai.Text("A story?"), nil) {
		if err != nil {
			log.Fatal(err)
		}
		chunks++
		text += resp.Text()
		if c := resp.Candidates[0]; c.FinishReason != "" {
			finish = c.FinishReason
		}
	}
	fmt.Println("text:", text)
	fmt.Println("more than one chunk:", chunks > 1)
	fmt.Println("finish:", finish)
	// Output:
	// text: Once upon a time, a test passed.
	// more than one chunk: true
	// finish: STOP
}
