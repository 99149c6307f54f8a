package llmtest_test

import (
	"encoding/json"
	"errors"
	"net/http"
	"reflect"
	"strings"
	"testing"

	"github.com/llmtestserver/llmtestserver/internal/e2e"
	"github.com/llmtestserver/llmtestserver/journal"
	"github.com/llmtestserver/llmtestserver/llmtest"
	"github.com/llmtestserver/llmtestserver/scenario"
	"github.com/llmtestserver/llmtestserver/session"
	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
)

// adminScenarios is a script in the admin API's JSON: a tool call and its
// follow-up, a structured output, an error then a recovery, a
// per-conversation queue and a repeating fallback.
const adminScenarios = `{"scenarios":[
 {"name":"weather","match":{"all":[{"tool_offered":"get_weather"},{"not":{"tool_result":"get_weather"}}]},
  "replies":[{"tool_calls":[{"name":"get_weather","arguments":"{\"city\":\"Paris\"}"}]}]},
 {"name":"weather-answer","match":{"tool_result":"get_weather"},"replies":[{"text":"Sunny in Paris."}]},
 {"name":"structured","match":{"user_contains":"as JSON"},"replies":[{"json":{"city":"Paris","temp":21.5,"sunny":true}}]},
 {"name":"flaky","match":{"user_contains":"flaky"},
  "replies":[{"error":{"status":429,"code":"rate_limit_exceeded","headers":{"Retry-After":"0"}}},{"text":"recovered"}]},
 {"name":"story","match":{"user_contains":"story"},"per_conversation":true,"replies":[{"text":"chapter 1"},{"text":"chapter 2"}]},
 {"name":"fallback","match":{"endpoint":"chat.completions"},"repeat":true,"replies":[{"text":"fallback"}]}
]}`

// listedScenario is one element of GET /admin-api/scenarios.
type listedScenario struct {
	Name                    string         `json:"name"`
	Remaining               int            `json:"remaining"`
	RemainingByConversation map[string]int `json:"remaining_by_conversation"`
}

// postScenarios adds scenarios to sess over HTTP.
func postScenarios(t *testing.T, sess *session.Session, body string) e2e.Reply {
	t.Helper()
	return e2e.Call(t, sess.HTTPClient(), http.MethodPost, sess.Endpoint()+"/admin-api/scenarios", body, e2e.SelectorOf(sess)...)
}

// listScenarios returns the raw body of GET /admin-api/scenarios and its
// scenarios.
func listScenarios(t *testing.T, sess *session.Session) ([]byte, []listedScenario) {
	t.Helper()
	r := e2e.Call(t, sess.HTTPClient(), http.MethodGet, sess.Endpoint()+"/admin-api/scenarios", "", e2e.SelectorOf(sess)...)
	if r.Status != http.StatusOK {
		t.Fatalf("GET /admin-api/scenarios: %d %s", r.Status, r.Body)
	}
	var list struct {
		Object    string           `json:"object"`
		Scenarios []listedScenario `json:"scenarios"`
	}
	if err := json.Unmarshal(r.Body, &list); err != nil || list.Object != "list" {
		t.Fatalf("GET /admin-api/scenarios body %q: object %q, %v", r.Body, list.Object, err)
	}
	return r.Body, list.Scenarios
}

// remaining maps scenario names to their remaining replies.
func remaining(list []listedScenario) map[string]int {
	out := make(map[string]int, len(list))
	for _, s := range list {
		out[s.Name] = s.Remaining
	}
	return out
}

// runAdminScript drives the adminScenarios script with openai-go and returns
// the answers, in order.
func runAdminScript(t *testing.T, sess *session.Session) []string {
	t.Helper()
	ctx := t.Context()
	client := openai.NewClient(option.WithBaseURL(sess.BaseURL()), option.WithAPIKey("k"),
		option.WithHTTPClient(sess.HTTPClient())) // default retries, for "flaky"
	var answers []string

	weather := openai.ChatCompletionNewParams{Model: e2e.ReplyModel,
		Messages: []openai.ChatCompletionMessageParamUnion{openai.UserMessage("Weather in Paris?")},
		Tools:    []openai.ChatCompletionToolUnionParam{e2e.ChatTool("get_weather")}}
	resp, err := client.Chat.Completions.New(ctx, weather)
	if err != nil {
		t.Fatal(err)
	}
	calls := resp.Choices[0].Message.ToolCalls
	if len(calls) != 1 || calls[0].Function.Name != "get_weather" || calls[0].Function.Arguments != `{"city":"Paris"}` {
		t.Fatalf("tool calls = %+v, want get_weather for Paris", calls)
	}
	answers = append(answers, "call "+calls[0].Function.Name)
	weather.Messages = append(weather.Messages, resp.Choices[0].Message.ToParam(), openai.ToolMessage("sunny", calls[0].ID))
	if resp, err = client.Chat.Completions.New(ctx, weather); err != nil {
		t.Fatal(err)
	}
	answers = append(answers, resp.Choices[0].Message.Content)

	if resp, err = client.Chat.Completions.New(ctx, e2e.StructuredParams("Weather as JSON")); err != nil {
		t.Fatal(err)
	}
	answers = append(answers, resp.Choices[0].Message.Content)

	if resp, err = client.Chat.Completions.New(ctx, e2e.UserTurn(e2e.ReplyModel, "Are you flaky?")); err != nil {
		t.Fatalf("the retry after the scripted 429 failed: %v", err)
	}
	answers = append(answers, resp.Choices[0].Message.Content)

	for _, name := range []string{"alice", "bob"} {
		c := conversationClient(sess, sess.Conversation(name))
		answers = append(answers, chatTurns(ctx, t, c, openai.ChatCompletionNewParams{Model: e2e.ReplyModel}, "Tell me a story")...)
	}
	alice := conversationClient(sess, sess.Conversation("alice"))
	answers = append(answers, chatTurns(ctx, t, alice, openai.ChatCompletionNewParams{Model: e2e.ReplyModel,
		Messages: []openai.ChatCompletionMessageParamUnion{openai.UserMessage("Tell me a story"), openai.AssistantMessage("chapter 1")}},
		"Go on with the story")...)

	answers = append(answers, chatTurns(ctx, t, client, openai.ChatCompletionNewParams{Model: e2e.ReplyModel}, "Anything else?", "Really?")...)
	return answers
}

var adminScriptAnswers = []string{
	"call get_weather", "Sunny in Paris.", `{"city":"Paris","temp":21.5,"sunny":true}`, "recovered",
	"chapter 1", "chapter 1", "chapter 2", "fallback", "fallback",
}

// Scenarios posted as JSON drive chat calls like scenarios scripted in Go,
// and GET /admin-api/scenarios shows what each has left.
func TestAdminScenariosDriveChat(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t)
	sess := srv.NewSession(t, session.OnlyModels(e2e.ReplyModel))
	if r := postScenarios(t, sess, adminScenarios); r.Status != http.StatusNoContent {
		t.Fatalf("POST /admin-api/scenarios: %d %s", r.Status, r.Body)
	}
	_, before := listScenarios(t, sess)
	wantBefore := map[string]int{"weather": 1, "weather-answer": 1, "structured": 1, "flaky": 2, "story": 2, "fallback": 1}
	if got := remaining(before); !reflect.DeepEqual(got, wantBefore) {
		t.Errorf("remaining before = %v, want %v", got, wantBefore)
	}
	var names []string
	for _, s := range before {
		names = append(names, s.Name)
	}
	if strings.Join(names, ",") != "weather,weather-answer,structured,flaky,story,fallback" {
		t.Errorf("scenarios listed as %v, want the posted order", names)
	}

	if got := runAdminScript(t, sess); !reflect.DeepEqual(got, adminScriptAnswers) {
		t.Errorf("answers = %q, want %q", got, adminScriptAnswers)
	}

	_, after := listScenarios(t, sess)
	wantAfter := map[string]int{"weather": 0, "weather-answer": 0, "structured": 0, "flaky": 0, "story": 2, "fallback": 1}
	if got := remaining(after); !reflect.DeepEqual(got, wantAfter) {
		t.Errorf("remaining after = %v, want %v", got, wantAfter)
	}
	for _, s := range after {
		if s.Name != "story" {
			if len(s.RemainingByConversation) != 0 {
				t.Errorf("%s lists conversations %v", s.Name, s.RemainingByConversation)
			}
			continue
		}
		left := map[string]int{}
		for conv, n := range s.RemainingByConversation {
			left[strings.SplitN(conv, "#", 2)[0]] = n
		}
		if want := map[string]int{"alice": 0, "bob": 1}; !reflect.DeepEqual(left, want) || len(s.RemainingByConversation) != 2 {
			t.Errorf("story remaining by conversation = %v, want alice 0 and bob 1", s.RemainingByConversation)
		}
	}
	entries := e2e.JournalOf(t, sess, len(adminScriptAnswers)+1)
	if e := entries[3]; e.Status != 429 || e.Scenario != "flaky" || e.ErrorCode != "rate_limit_exceeded" {
		t.Errorf("entry 4 = %d %q %q, want the scripted 429 from flaky", e.Status, e.Scenario, e.ErrorCode)
	}
	if r := sess.Assertions(); !r.Clean() {
		t.Errorf("assertions = %+v, want clean", r)
	}
}

// The scenarios GET lists, posted to another session, script it the same
// way.
func TestAdminScenariosRoundTrip(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t)
	from := srv.NewSession(t, session.OnlyModels(e2e.ReplyModel))
	if r := postScenarios(t, from, adminScenarios); r.Status != http.StatusNoContent {
		t.Fatalf("POST: %d %s", r.Status, r.Body)
	}
	// Scenarios scripted in Go list the same way.
	from.Chat("go-scripted").When(scenario.UserRegex(`^never$`)).Responds("x").Then("y").Repeat()
	listed, _ := listScenarios(t, from)

	to := srv.NewSession(t, session.OnlyModels(e2e.ReplyModel))
	if r := postScenarios(t, to, stripListing(t, listed)); r.Status != http.StatusNoContent {
		t.Fatalf("re-POST of the listed scenarios: %d %s", r.Status, r.Body)
	}
	relisted, _ := listScenarios(t, to)
	if string(relisted) != string(listed) {
		t.Errorf("listing after the round trip:\n%s\nwant\n%s", relisted, listed)
	}
	fromAnswers := runAdminScript(t, from)
	toAnswers := runAdminScript(t, to)
	if !reflect.DeepEqual(fromAnswers, toAnswers) || !reflect.DeepEqual(toAnswers, adminScriptAnswers) {
		t.Errorf("answers differ: original %q, round-tripped %q", fromAnswers, toAnswers)
	}
}

// stripListing removes the counts a listing adds to each scenario, leaving
// the document POST accepts.
func stripListing(t *testing.T, listed []byte) string {
	t.Helper()
	var list struct {
		Scenarios []map[string]json.RawMessage `json:"scenarios"`
	}
	if err := json.Unmarshal(listed, &list); err != nil {
		t.Fatal(err)
	}
	for _, s := range list.Scenarios {
		delete(s, "remaining")
		delete(s, "remaining_by_conversation")
	}
	b, err := json.Marshal(list)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// The listing itself should post back as it is. Until it does, the test
// skips when the server refuses the listing's own fields.
func TestAdminScenariosListingPostsBackVerbatim(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t)
	from := srv.NewSession(t)
	if r := postScenarios(t, from, adminScenarios); r.Status != http.StatusNoContent {
		t.Fatalf("POST: %d %s", r.Status, r.Body)
	}
	listed, _ := listScenarios(t, from)
	to := srv.NewSession(t)
	r := postScenarios(t, to, string(listed))
	if r.Status != http.StatusNoContent {
		t.Fatalf("re-POST of the listing: %d %s", r.Status, r.Body)
	}
	if relisted, _ := listScenarios(t, to); string(relisted) != string(listed) {
		t.Errorf("listing after the round trip:\n%s\nwant\n%s", relisted, listed)
	}
}

// An invalid document is refused with invalid_configuration naming the
// offending scenario, and nothing of it is added.
func TestAdminScenariosRefuseInvalidDocuments(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t)
	const ok = `{"name":"ok","match":{},"replies":[{"text":"fine"}]}`
	tests := []struct {
		name, body, param, message string
	}{
		{"bad regex", `{"scenarios":[` + ok + `,{"name":"re","match":{"user_regex":"("},"replies":[{"text":"x"}]}]}`, "scenarios[1]", "user_regex"},
		{"no replies", `{"scenarios":[` + ok + `,{"name":"empty","match":{},"replies":[]}]}`, "scenarios[1]", "replies"},
		{"no name", `{"scenarios":[{"match":{},"replies":[{"text":"x"}]}]}`, "scenarios[0]", "name"},
		{"arguments not JSON", `{"scenarios":[{"name":"t","match":{},"replies":[{"tool_calls":[{"name":"f","arguments":"{x"}]}]}]}`, "scenarios[0]", "arguments"},
		{"error status below 400", `{"scenarios":[{"name":"e","match":{},"replies":[{"error":{"status":200}}]}]}`, "scenarios[0]", "status"},
		{"text and refusal", `{"scenarios":[{"name":"k","match":{},"replies":[{"text":"a","refusal":"b"}]}]}`, "scenarios[0]", "kind"},
		{"bad finish reason", `{"scenarios":[{"name":"f","match":{},"replies":[{"text":"a","finish_reason":"done"}]}]}`, "scenarios[0]", "finish_reason"},
		{"negative turn", `{"scenarios":[{"name":"n","match":{"turn":-1},"replies":[{"text":"a"}]}]}`, "scenarios[0]", "turn"},
		{"named twice", `{"scenarios":[` + ok + `,` + ok + `]}`, "scenarios[1].name", "twice"},
		{"misspelt condition", `{"scenarios":[{"name":"m","match":{"user_contians":"x"},"replies":[{"text":"a"}]}]}`, "scenarios", "user_contians"},
		{"misspelt reply field", `{"scenarios":[{"name":"m","match":{},"replies":[{"txt":"a"}]}]}`, "scenarios", "txt"},
		{"not JSON", `{"scenarios":[`, "scenarios", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			sess := srv.NewSession(t)
			sess.Chat("existing").Responds("kept")
			r := postScenarios(t, sess, tt.body)
			code, typ, param, msg := r.APIError(t)
			if r.Status != http.StatusBadRequest || code != "invalid_configuration" || typ != "invalid_request_error" ||
				!strings.HasPrefix(param, tt.param) || !strings.Contains(msg, tt.message) {
				t.Errorf("got %d %s %s param %q message %q; want 400 invalid_configuration param %s… mentioning %q",
					r.Status, typ, code, param, msg, tt.param, tt.message)
			}
			if _, list := listScenarios(t, sess); len(list) != 1 || list[0].Name != "existing" || list[0].Remaining != 1 {
				t.Errorf("scenarios after a refused POST = %+v, want only existing", list)
			}
		})
	}
}

// A scenario holding a Go function works in-process but has no JSON form.
func TestGoFunctionScenariosAreInProcessOnly(t *testing.T) {
	t.Parallel()
	for name, s := range map[string]scenario.Scenario{
		"predicate": {Name: "p", Match: scenario.All(scenario.Turn(1), scenario.Func(func(*scenario.Request) bool { return true })),
			Replies: []scenario.Reply{scenario.Text("x")}},
		"responder": {Name: "r", Replies: []scenario.Reply{scenario.Text("x"),
			scenario.Respond(func(*scenario.Request) scenario.Reply { return scenario.Text("y") })}},
	} {
		if _, err := json.Marshal(s); !errors.Is(err, scenario.ErrInProcessOnly) {
			t.Errorf("%s: Marshal err = %v, want ErrInProcessOnly", name, err)
		}
	}

	srv := llmtest.NewServer(t)
	sess := srv.NewSession(t)
	sess.Chat("go").When(scenario.Func(func(r *scenario.Request) bool { return r.Turn == 1 })).Responds("from Go")
	client := e2e.ClientFor(sess, "k")
	resp, err := client.Chat.Completions.New(t.Context(), e2e.UserTurn(e2e.ReplyModel, "Hi"))
	if err != nil || resp.Choices[0].Message.Content != "from Go" {
		t.Fatalf("in-process Go matcher: %v, %v", resp, err)
	}
	cfg, err := sess.Config()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := json.Marshal(cfg); !errors.Is(err, scenario.ErrInProcessOnly) {
		t.Errorf("marshaling the configuration: err = %v, want ErrInProcessOnly", err)
	}

	// Listing such a session over HTTP names the scenario and marks it
	// in-process only; posting that listing back is refused.
	r := e2e.Call(t, srv.Client(), http.MethodGet, sess.Endpoint()+"/admin-api/scenarios", "", e2e.SelectorOf(sess)...)
	if r.Status != http.StatusOK || !json.Valid(r.Body) || !strings.Contains(string(r.Body), `"name":"go","in_process_only":true`) {
		t.Fatalf("listing = %d %s, want a JSON document naming the scenario as in-process only", r.Status, r.Body)
	}
	other := srv.NewSession(t)
	if r := postScenarios(t, other, string(r.Body)); r.Status != http.StatusBadRequest || !strings.Contains(string(r.Body), "in-process") {
		t.Errorf("posting an in-process-only listing: %d %s, want 400 naming the reason", r.Status, r.Body)
	}
}

// GET /admin-api/assertions reports unmatched requests, schema mismatches
// and unused replies with the same totals as Session.Assertions.
func TestAdminAssertionsShape(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t)
	sess := srv.NewSession(t)
	if r := postScenarios(t, sess, `{"scenarios":[
		{"name":"bad-json","match":{"user_contains":"as JSON"},"replies":[{"json":{"city":3}}]},
		{"name":"spare","match":{"user_contains":"never"},"replies":[{"text":"a"},{"text":"b"}]}]}`); r.Status != http.StatusNoContent {
		t.Fatalf("POST: %d %s", r.Status, r.Body)
	}
	r := e2e.Call(t, srv.Client(), http.MethodGet, sess.Endpoint()+"/admin-api/assertions", "", e2e.SelectorOf(sess)...)
	want := `{"unmatched":[],"unmatched_total":0,"schema_mismatches":[],"schema_mismatch_total":0,"contradictions":[],"contradiction_total":0,"unused_replies":{"bad-json":1,"spare":2},"unused":[{"scenario":"bad-json","index":0},{"scenario":"spare","index":0},{"scenario":"spare","index":1}],"faults":{}`
	fresh := sess.Assertions()
	explanation, _ := json.Marshal(fresh.Explanation(sess.ID()))
	want += `,"explanation":` + string(explanation) + `}`
	if r.Status != http.StatusOK || string(r.Body) != want {
		t.Errorf("fresh assertions: %d %s, want %s", r.Status, r.Body, want)
	}

	client := e2e.ClientFor(sess, "k")
	if _, err := client.Chat.Completions.New(t.Context(), e2e.StructuredParams("Weather as JSON")); err != nil {
		t.Fatal(err)
	}
	_, err := client.Chat.Completions.New(t.Context(), e2e.UserTurn(e2e.ReplyModel, "Hello?"))
	if apiErr := e2e.OpenAIError(t, err); apiErr.Code != journal.NoScenarioCode {
		t.Fatalf("code = %q, want %s", apiErr.Code, journal.NoScenarioCode)
	}

	r = e2e.Call(t, srv.Client(), http.MethodGet, sess.Endpoint()+"/admin-api/assertions", "", e2e.SelectorOf(sess)...)
	var body struct {
		Unmatched           []journal.Entry       `json:"unmatched"`
		UnmatchedTotal      int                   `json:"unmatched_total"`
		SchemaMismatches    []journal.Entry       `json:"schema_mismatches"`
		SchemaMismatchTotal int                   `json:"schema_mismatch_total"`
		Contradictions      []journal.Entry       `json:"contradictions"`
		ContradictionTotal  int                   `json:"contradiction_total"`
		UnusedReplies       map[string]int        `json:"unused_replies"`
		Unused              []journal.UnusedReply `json:"unused"`
		Faults              map[string]int        `json:"faults"`
		Explanation         string                `json:"explanation"`
	}
	dec := json.NewDecoder(strings.NewReader(string(r.Body)))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&body); err != nil || r.Status != http.StatusOK {
		t.Fatalf("assertions: %d %s: %v", r.Status, r.Body, err)
	}
	if body.UnmatchedTotal != 1 || len(body.Unmatched) != 1 || body.Unmatched[0].UserText != "Hello?" ||
		body.Unmatched[0].Status != 400 || body.Unmatched[0].ErrorCode != journal.NoScenarioCode {
		t.Errorf("unmatched = %d %+v, want the Hello? request", body.UnmatchedTotal, body.Unmatched)
	}
	if body.SchemaMismatchTotal != 1 || len(body.SchemaMismatches) != 1 || body.SchemaMismatches[0].Scenario != "bad-json" ||
		len(body.SchemaMismatches[0].SchemaErrors) == 0 {
		t.Errorf("schema mismatches = %d %+v, want bad-json's reply with its errors", body.SchemaMismatchTotal, body.SchemaMismatches)
	}
	if want := map[string]int{"spare": 2}; !reflect.DeepEqual(body.UnusedReplies, want) {
		t.Errorf("unused replies = %v, want %v", body.UnusedReplies, want)
	}
	if a := sess.Assertions(); a.UnmatchedTotal != body.UnmatchedTotal || a.SchemaMismatchTotal != body.SchemaMismatchTotal ||
		!reflect.DeepEqual(a.UnusedReplies, body.UnusedReplies) {
		t.Errorf("Session.Assertions = %+v, differs from the HTTP report", a)
	}
	// The explanation is the text CheckAssertions prints.
	if a := sess.Assertions(); body.Explanation != a.Explanation(sess.ID()) ||
		!strings.Contains(body.Explanation, "1 request(s) matched no scenario") {
		t.Errorf("explanation = %q, want CheckAssertions' text", body.Explanation)
	}
}

// The control routes are guarded by the session's provider key.
func TestAdminScenariosNeedTheSessionsKey(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t)
	sess := srv.NewSession(t, session.RequireAPIKey("provider-key"))
	body := `{"scenarios":[{"name":"a","match":{},"replies":[{"text":"x"}]}]}`
	r := postScenarios(t, sess, body)
	if r.Status != http.StatusUnauthorized {
		t.Errorf("POST without the key: %d %s, want 401", r.Status, r.Body)
	}
	r = e2e.Call(t, srv.Client(), http.MethodPost, sess.Endpoint()+"/admin-api/scenarios", body, e2e.Join(e2e.SelectorOf(sess), e2e.Bearer("provider-key"))...)
	if r.Status != http.StatusNoContent {
		t.Fatalf("POST with the key: %d %s", r.Status, r.Body)
	}
	if got := sess.Pending(); got != 1 {
		t.Errorf("Pending = %d, want 1", got)
	}
}
