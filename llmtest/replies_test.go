package llmtest_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/llmtestserver/llmtestserver/internal/e2e"
	"github.com/llmtestserver/llmtestserver/journal"
	"github.com/llmtestserver/llmtestserver/llmtest"
	"github.com/llmtestserver/llmtestserver/scenario"
	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
)

// recordingTB is an llmtest.TB that records failures instead of failing, so
// a test can check what CheckAssertions reports.
type recordingTB struct {
	mu     sync.Mutex
	errors []string
}

func (r *recordingTB) Helper()        {}
func (r *recordingTB) Cleanup(func()) {}
func (r *recordingTB) Logf(string, ...any) {
}

func (r *recordingTB) Errorf(format string, args ...any) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.errors = append(r.errors, fmt.Sprintf(format, args...))
}

func (r *recordingTB) Fatalf(format string, args ...any) { r.Errorf(format, args...) }

func (r *recordingTB) FailNow() { r.Errorf("FailNow") }

func (r *recordingTB) Name() string { return "TestRecordingTB" }

func (r *recordingTB) Failed() bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.errors) > 0
}

func (r *recordingTB) messages() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]string(nil), r.errors...)
}

// A refusal streamed through openai-go is reported by JustFinishedRefusal.
func TestStreamedRefusalFinishes(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t, llmtest.WithStrict())
	sess := srv.NewSession(t)
	sess.Chat("refuse").Refuses("No, sorry.")
	client := e2e.ClientFor(sess, "k")
	s := client.Chat.Completions.NewStreaming(t.Context(), e2e.UserTurn(e2e.ReplyModel, "Do it"))
	defer s.Close()
	var acc openai.ChatCompletionAccumulator
	var finished []string
	for s.Next() {
		acc.AddChunk(s.Current())
		if r, ok := acc.JustFinishedRefusal(); ok {
			finished = append(finished, r)
		}
		if _, ok := acc.JustFinishedContent(); ok {
			t.Error("a refusal finished as content")
		}
	}
	if err := s.Err(); err != nil {
		t.Fatal(err)
	}
	if len(finished) != 1 || finished[0] != "No, sorry." {
		t.Errorf("JustFinishedRefusal reported %q, want once %q", finished, "No, sorry.")
	}
}

// A JSON reply is checked against the request's json_schema: a conforming
// one passes, a non-conforming one is still served but recorded, and
// CheckAssertions reports it.
func TestStructuredOutputIsCheckedAgainstTheSchema(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t)
	sess := srv.NewSession(t)
	type weather struct {
		City  string  `json:"city"`
		Temp  float64 `json:"temp"`
		Sunny bool    `json:"sunny"`
	}
	sess.Chat("weather").RespondsJSON(weather{City: "Paris", Temp: 21.5, Sunny: true})
	client := e2e.ClientFor(sess, "k")
	ctx := t.Context()

	resp, err := client.Chat.Completions.New(ctx, e2e.StructuredParams("Weather in Paris?"))
	if err != nil {
		t.Fatal(err)
	}
	var got weather
	if err := json.Unmarshal([]byte(resp.Choices[0].Message.Content), &got); err != nil || got != (weather{"Paris", 21.5, true}) {
		t.Errorf("content %q decodes to %+v (%v), want the scripted weather", resp.Choices[0].Message.Content, got, err)
	}
	if r := sess.Assertions(); r.SchemaMismatchTotal != 0 {
		t.Fatalf("a conforming reply counts as a mismatch: %+v", r)
	}
	clean := &recordingTB{}
	if !llmtest.CheckAssertions(clean, sess) || len(clean.messages()) != 0 {
		t.Errorf("CheckAssertions on a clean session reported %q", clean.messages())
	}

	sess.Chat("weather").RespondsJSON(map[string]any{"city": "Paris", "temp": "warm"})

	resp, err = client.Chat.Completions.New(ctx, e2e.StructuredParams("Weather in Paris again?"))
	if err != nil {
		t.Fatal(err)
	}
	if c := resp.Choices[0].Message.Content; c != `{"city":"Paris","temp":"warm"}` {
		t.Errorf("the non-conforming reply was changed: %s", c)
	}
	entries := e2e.JournalOf(t, sess, 2)
	if len(entries[0].SchemaErrors) != 0 || len(entries[1].SchemaErrors) == 0 {
		t.Errorf("schema errors = %q then %q, want none then some", entries[0].SchemaErrors, entries[1].SchemaErrors)
	}
	r := sess.Assertions()
	if r.SchemaMismatchTotal != 1 || len(r.SchemaMismatches) != 1 || r.SchemaMismatches[0].Seq != entries[1].Seq {
		t.Errorf("report = %+v, want one schema mismatch, the second request", r)
	}
	rec := &recordingTB{}
	if llmtest.CheckAssertions(rec, sess) {
		t.Error("CheckAssertions passed a session with a schema mismatch")
	}
	if msgs := rec.messages(); len(msgs) != 1 || !strings.Contains(msgs[0], "schema") || !strings.Contains(msgs[0], `"weather"`) {
		t.Errorf("CheckAssertions reported %q, want one error about the weather scenario's schema", msgs)
	}
}

func TestReplyOverrides(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t, llmtest.WithStrict())
	sess := srv.NewSession(t)
	sess.Chat("overrides").Reply(
		scenario.Reply{Text: "cut sh", FinishReason: "length"},
		scenario.Reply{Text: "counted", Usage: &scenario.Usage{Input: 1234, Output: 56}},
		scenario.Reply{Text: "pinned", Model: "gpt-4o-2024-08-06"},
		scenario.Reply{Text: "counted", Usage: &scenario.Usage{Input: 1234, Output: 56}},
		scenario.Reply{Text: "cut sh", FinishReason: "length"},
	)
	client := e2e.ClientFor(sess, "k")
	ctx := t.Context()
	newCall := func() *openai.ChatCompletion {
		t.Helper()
		resp, err := client.Chat.Completions.New(ctx, e2e.UserTurn(e2e.ReplyModel, "Hi"))
		if err != nil {
			t.Fatal(err)
		}
		return resp
	}

	if r := newCall(); r.Choices[0].FinishReason != "length" || r.Choices[0].Message.Content != "cut sh" {
		t.Errorf("finish_reason = %q content %q, want length", r.Choices[0].FinishReason, r.Choices[0].Message.Content)
	}
	if u := newCall().Usage; u.PromptTokens != 1234 || u.CompletionTokens != 56 || u.TotalTokens != 1290 {
		t.Errorf("usage = %d+%d=%d, want 1234+56=1290", u.PromptTokens, u.CompletionTokens, u.TotalTokens)
	}
	if r := newCall(); r.Model != "gpt-4o-2024-08-06" {
		t.Errorf("model = %q, want the override", r.Model)
	}

	params := e2e.UserTurn(e2e.ReplyModel, "Hi")
	params.StreamOptions = openai.ChatCompletionStreamOptionsParam{IncludeUsage: openai.Bool(true)}
	acc, _ := e2e.ReadChatStream(t, client.Chat.Completions.NewStreaming(ctx, params))
	if u := acc.Usage; u.PromptTokens != 1234 || u.CompletionTokens != 56 || u.TotalTokens != 1290 {
		t.Errorf("streamed usage = %d+%d=%d, want 1234+56=1290", u.PromptTokens, u.CompletionTokens, u.TotalTokens)
	}
	acc, _ = e2e.ReadChatStream(t, client.Chat.Completions.NewStreaming(ctx, params))
	if acc.Choices[0].FinishReason != "length" {
		t.Errorf("streamed finish_reason = %q, want length", acc.Choices[0].FinishReason)
	}
}

func TestTimesAndRepeat(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t)
	sess := srv.NewSession(t)
	sess.Chat("counted").When(scenario.UserContains("count")).Responds("again").Times(3).Then("last")
	sess.Chat("forever").When(scenario.UserContains("loop")).Responds("first").Then("always").Repeat()
	client := e2e.ClientFor(sess, "k")
	ask := func(user string) (string, error) {
		t.Helper()
		resp, err := client.Chat.Completions.New(t.Context(), e2e.UserTurn(e2e.ReplyModel, user))
		if err != nil {
			return "", err
		}
		return resp.Choices[0].Message.Content, nil
	}
	if got := sess.Pending(); got != 6 {
		t.Errorf("Pending = %d, want 6 (4 counted, 2 forever)", got)
	}
	var got []string
	for range 4 {
		text, err := ask("count")
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, text)
	}
	if strings.Join(got, ",") != "again,again,again,last" {
		t.Errorf("Times(3) then Then: %q", got)
	}
	_, err := ask("count")
	if apiErr := e2e.OpenAIError(t, err); apiErr.StatusCode != 400 || apiErr.Code != journal.NoScenarioCode {
		t.Errorf("fifth request: %d %q, want 400 %s", apiErr.StatusCode, apiErr.Code, journal.NoScenarioCode)
	}

	got = nil
	for range 5 {
		text, err := ask("loop")
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, text)
	}
	if strings.Join(got, ",") != "first,always,always,always,always" {
		t.Errorf("Repeat: %q", got)
	}
	if got := sess.Pending(); got != 1 {
		t.Errorf("Pending = %d, want 1: the repeating reply stays", got)
	}
	if r := sess.Assertions(); len(r.UnusedReplies) != 0 {
		t.Errorf("unused replies = %v: a used repeating reply is not unused", r.UnusedReplies)
	}
}

func TestWhenMatchers(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t)
	sess := srv.NewSession(t)
	sess.Chat("order").When(scenario.UserRegex(`^order #\d+$`)).Responds("order found").Repeat()
	sess.Chat("pirate").When(scenario.SystemContains("pirate")).Responds("Arr!").Repeat()
	sess.Chat("follow-up").When(scenario.All(scenario.Turn(2), scenario.Not(scenario.UserContains("bye")))).Responds("turn two").Repeat()
	sess.Chat("farewell").When(scenario.Any(scenario.UserContains("bye"), scenario.UserEquals("ciao"))).Responds("goodbye").Repeat()
	client := e2e.ClientFor(sess, "k")

	tests := []struct {
		name     string
		messages []openai.ChatCompletionMessageParamUnion
		scenario string // "" for no match
		reply    string
	}{
		{"regex", []openai.ChatCompletionMessageParamUnion{openai.UserMessage("order #42")}, "order", "order found"},
		{"regex is anchored", []openai.ChatCompletionMessageParamUnion{openai.UserMessage("order #42 please")}, "", ""},
		{"system prompt", []openai.ChatCompletionMessageParamUnion{openai.SystemMessage("Talk like a pirate."), openai.UserMessage("Hello")}, "pirate", "Arr!"},
		{"developer prompt", []openai.ChatCompletionMessageParamUnion{openai.DeveloperMessage("You are a pirate."), openai.UserMessage("Hello")}, "pirate", "Arr!"},
		{"second turn", []openai.ChatCompletionMessageParamUnion{openai.UserMessage("Hi"), openai.AssistantMessage("Hello"), openai.UserMessage("What now?")}, "follow-up", "turn two"},
		{"not excludes", []openai.ChatCompletionMessageParamUnion{openai.UserMessage("Hi"), openai.AssistantMessage("Hello"), openai.UserMessage("bye then")}, "farewell", "goodbye"},
		{"any, second alternative", []openai.ChatCompletionMessageParamUnion{openai.UserMessage("ciao")}, "farewell", "goodbye"},
		{"first turn matches no turn matcher", []openai.ChatCompletionMessageParamUnion{openai.UserMessage("What now?")}, "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			resp, err := client.Chat.Completions.New(t.Context(), openai.ChatCompletionNewParams{Model: e2e.ReplyModel, Messages: tt.messages})
			if tt.scenario == "" {
				if apiErr := e2e.OpenAIError(t, err); apiErr.Code != journal.NoScenarioCode {
					t.Errorf("code = %q, want %s", apiErr.Code, journal.NoScenarioCode)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := resp.Choices[0].Message.Content; got != tt.reply {
				t.Errorf("reply = %q, want %q", got, tt.reply)
			}
			last, _ := sess.Journal().Last()
			if last.Scenario != tt.scenario {
				t.Errorf("answered by %q, want %q", last.Scenario, tt.scenario)
			}
		})
	}
}

// A Go responder computes its reply from the normalized request.
func TestGoResponderComputesFromTheRequest(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t, llmtest.WithStrict())
	sess := srv.NewSession(t)
	sess.Chat("echo").Reply(scenario.Respond(func(r *scenario.Request) scenario.Reply {
		var tools []string
		for _, tool := range r.Tools {
			tools = append(tools, tool.Name)
		}
		return scenario.Reply{
			Text: fmt.Sprintf("model=%s system=%q user=%q turn=%d tools=%v stream=%t",
				r.Model, r.System, r.LastUserText(), r.Turn, tools, r.Stream),
			Usage: &scenario.Usage{Input: len(r.Messages), Output: 1},
		}
	})).Times(2)
	client := e2e.ClientFor(sess, "k")
	params := openai.ChatCompletionNewParams{
		Model: e2e.ReplyModel,
		Messages: []openai.ChatCompletionMessageParamUnion{openai.SystemMessage("Be brief."), openai.UserMessage("one"),
			openai.AssistantMessage("1"), openai.UserMessage("two")},
		Tools: []openai.ChatCompletionToolUnionParam{openai.ChatCompletionFunctionTool(openai.FunctionDefinitionParam{Name: "lookup"})},
	}
	resp, err := client.Chat.Completions.New(t.Context(), params)
	if err != nil {
		t.Fatal(err)
	}
	const want = `model=gpt-4.1-mini system="Be brief." user="two" turn=2 tools=[lookup] stream=false`
	if got := resp.Choices[0].Message.Content; got != want {
		t.Errorf("reply = %q, want %q", got, want)
	}
	if resp.Usage.PromptTokens != 3 {
		t.Errorf("prompt tokens = %d, want the responder's 3", resp.Usage.PromptTokens)
	}
	acc, _ := e2e.ReadChatStream(t, client.Chat.Completions.NewStreaming(t.Context(), params))
	if got := acc.Choices[0].Message.Content; got != strings.Replace(want, "stream=false", "stream=true", 1) {
		t.Errorf("streamed reply = %q", got)
	}
}

// A responder that panics answers 500 llm_test_server_responder_failed
// naming the scenario and the panic; the server stays up.
func TestPanickingResponder(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t)
	sess := srv.NewSession(t)
	sess.Chat("broken").Reply(scenario.Respond(func(*scenario.Request) scenario.Reply { panic("index out of range in test") }))
	sess.Chat("fine").Responds("still serving")
	client := e2e.ClientFor(sess, "k") // no retries: the 500 would be retried
	_, err := client.Chat.Completions.New(t.Context(), e2e.UserTurn(e2e.ReplyModel, "Hi"))
	apiErr := e2e.OpenAIError(t, err)
	if apiErr.StatusCode != 500 || apiErr.Code != "llm_test_server_responder_failed" || apiErr.Type != "server_error" ||
		!strings.Contains(apiErr.Message, `"broken"`) || !strings.Contains(apiErr.Message, "index out of range in test") {
		t.Errorf("error = %d %q %q %q, want 500 llm_test_server_responder_failed naming the scenario and the panic",
			apiErr.StatusCode, apiErr.Code, apiErr.Type, apiErr.Message)
	}
	resp, err := client.Chat.Completions.New(t.Context(), e2e.UserTurn(e2e.ReplyModel, "Hi"))
	if err != nil || resp.Choices[0].Message.Content != "still serving" {
		t.Errorf("next request: %v, %v", resp, err)
	}
	e2e.CheckStatuses(t, sess, []int{500, 200}, []string{"llm_test_server_responder_failed", ""})
}

// A request no scenario answers gets a 400 that SDKs do not retry, naming
// the request and why each scenario passed; it is counted as unmatched.
func TestNoMatchNamesTheScenariosTried(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t)
	sess := srv.NewSession(t)
	sess.Chat("greeting").When(scenario.UserContains("hello")).Responds("Hi!")
	sess.Chat("once").Responds("used up")
	client := openai.NewClient(option.WithBaseURL(sess.BaseURL()), option.WithAPIKey("k"),
		option.WithHTTPClient(sess.HTTPClient())) // default retries: a 400 is not retried
	if _, err := client.Chat.Completions.New(t.Context(), e2e.UserTurn(e2e.ReplyModel, "first")); err != nil {
		t.Fatal(err)
	}
	_, err := client.Chat.Completions.New(t.Context(), e2e.UserTurn(e2e.ReplyModel, "What's the weather?"))
	apiErr := e2e.OpenAIError(t, err)
	if apiErr.StatusCode != 400 || apiErr.Code != journal.NoScenarioCode || apiErr.Type != "invalid_request_error" {
		t.Fatalf("error = %d %q %q, want 400 invalid_request_error %s", apiErr.StatusCode, apiErr.Type, apiErr.Code, journal.NoScenarioCode)
	}
	for _, want := range []string{`"What's the weather?"`, e2e.ReplyModel, `"greeting"`, `containing "hello"`, `"once"`, "all 1 replies used"} {
		if !strings.Contains(apiErr.Message, want) {
			t.Errorf("message %q does not mention %s", apiErr.Message, want)
		}
	}
	r := sess.Assertions()
	if r.UnmatchedTotal != 1 || len(r.Unmatched) != 1 || r.Unmatched[0].UserText != "What's the weather?" {
		t.Errorf("report = %+v, want one unmatched request", r)
	}
	if n := sess.Journal().Len(); n != 2 {
		t.Errorf("journal holds %d entries, want 2: the miss was retried", n)
	}
	rec := &recordingTB{}
	if llmtest.CheckAssertions(rec, sess) {
		t.Error("CheckAssertions passed a session with an unmatched request")
	}
	if msgs := rec.messages(); len(msgs) != 2 || !strings.Contains(strings.Join(msgs, "\n"), "What's the weather?") {
		t.Errorf("CheckAssertions reported %q, want the unmatched request and greeting's unused reply", msgs)
	}
}

func TestUnusedRepliesAreReported(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t)
	sess := srv.NewSession(t)
	sess.Chat("script").Responds("a").Then("b").Then("c")
	sess.Chat("spare").When(scenario.UserContains("never")).Responds("x")
	sess.Chat("looping").When(scenario.UserContains("never")).Responds("y").Repeat()
	client := e2e.ClientFor(sess, "k")
	if _, err := client.Chat.Completions.New(t.Context(), e2e.UserTurn(e2e.ReplyModel, "Hi")); err != nil {
		t.Fatal(err)
	}
	r := sess.Assertions()
	want := map[string]int{"script": 2, "spare": 1}
	if fmt.Sprint(r.UnusedReplies) != fmt.Sprint(want) {
		t.Errorf("UnusedReplies = %v, want %v (a repeating reply is never unused)", r.UnusedReplies, want)
	}
	rec := &recordingTB{}
	if llmtest.CheckAssertions(rec, sess) {
		t.Error("CheckAssertions passed with unused replies")
	}
	msgs := rec.messages()
	if len(msgs) != 1 || !strings.Contains(msgs[0], `"script": 2`) || !strings.Contains(msgs[0], `"spare": 1`) {
		t.Errorf("CheckAssertions reported %q", msgs)
	}
}
