package llmtest_test

import (
	"encoding/json"
	"errors"
	"net/http"
	"testing"

	"github.com/openai/openai-go/v3"

	"github.com/llmtestserver/llmtestserver/internal/e2e"
	"github.com/llmtestserver/llmtestserver/llmtest"
	"github.com/llmtestserver/llmtestserver/scenario"
	"github.com/llmtestserver/llmtestserver/session"
)

// otherModel is a catalog model other than e2e.ReplyModel.
const otherModel = "gpt-4.1-nano"

// ask sends one user message for model and returns the answer, or "" and
// the API error code when the server answers with an error.
func ask(t *testing.T, client openai.Client, model, text string) (answer, code string) {
	t.Helper()
	resp, err := client.Chat.Completions.New(t.Context(), e2e.UserTurn(model, text))
	var apiErr *openai.Error
	switch {
	case errors.As(err, &apiErr):
		return "", apiErr.Code
	case err != nil:
		t.Fatalf("%s %q: %v", model, text, err)
	}
	return resp.Choices[0].Message.Content, ""
}

// Every When narrows: the scenario answers only requests that satisfy all
// the conditions given, not just the last one.
func TestWhenNarrowsTheMatch(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t)
	sess := srv.NewSession(t)
	sess.Chat("narrow").
		When(scenario.UserContains("alpha")).
		When(scenario.Model(e2e.ReplyModel)).
		Responds("narrowed").Repeat()
	client := e2e.ClientFor(sess, "")

	if got, code := ask(t, client, e2e.ReplyModel, "alpha and beta"); got != "narrowed" {
		t.Errorf("both conditions hold: got %q (%s), want the narrowed answer", got, code)
	}
	if got, code := ask(t, client, e2e.ReplyModel, "beta only"); code != "llm_test_server_no_scenario" {
		t.Errorf("the first condition fails: got %q (%s), want llm_test_server_no_scenario", got, code)
	}
	if got, code := ask(t, client, otherModel, "alpha"); code != "llm_test_server_no_scenario" {
		t.Errorf("the second condition fails: got %q (%s), want llm_test_server_no_scenario", got, code)
	}

	// The embeddings builder's endpoint holds under every When as well.
	sess.Embeddings("vectors").When(scenario.UserContains("fixed")).When(scenario.Model(e2e.EmbeddingModel)).
		Reply(scenario.Vectors([]float32{1, 0})).Repeat()
	emb, err := client.Embeddings.New(t.Context(), openai.EmbeddingNewParams{Model: e2e.EmbeddingModel,
		Input: openai.EmbeddingNewParamsInputUnion{OfString: openai.String("fixed input")}})
	if err != nil {
		t.Fatal(err)
	}
	if v := emb.Data[0].Embedding; len(v) != 2 || v[0] != 1 {
		t.Errorf("embedding of the scripted input = %v, want the scripted [1 0]", v)
	}
	if got, code := ask(t, client, e2e.ReplyModel, "fixed"); code != "llm_test_server_no_scenario" {
		t.Errorf("a chat request to the embeddings scenario: got %q (%s), want llm_test_server_no_scenario", got, code)
	}
}

// A second builder for a name already scripted continues that scenario: its
// replies queue after those left and, without When, the match stays; its
// When replaces the match with the new builder's own conditions.
func TestRescriptingANameContinuesTheScenario(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t)
	sess := srv.NewSession(t)
	client := e2e.ClientFor(sess, "")

	sess.Chat("x").When(scenario.UserContains("a")).Responds("one")
	sess.Chat("x").Responds("two")
	if n := len(sess.Scenarios()); n != 1 {
		t.Fatalf("%d scenarios after scripting one name twice, want 1", n)
	}
	if got, code := ask(t, client, e2e.ReplyModel, "b"); code != "llm_test_server_no_scenario" {
		t.Errorf("the match was kept: got %q (%s) for a request without %q", got, code, "a")
	}
	for _, want := range []string{"one", "two"} {
		if got, code := ask(t, client, e2e.ReplyModel, "a"); got != want {
			t.Errorf("got %q (%s), want %q", got, code, want)
		}
	}

	sess.Chat("x").When(scenario.UserContains("b")).Responds("three")
	if got, code := ask(t, client, e2e.ReplyModel, "a"); code != "llm_test_server_no_scenario" {
		t.Errorf("When replaced the match: got %q (%s) for the old condition", got, code)
	}
	if got, code := ask(t, client, e2e.ReplyModel, "b"); got != "three" {
		t.Errorf("got %q (%s), want three under the new match", got, code)
	}
}

// When, Repeat and PerConversation before any reply script nothing until the
// reply comes, and then apply with it: the session's own configuration
// always applies again, in Go and over HTTP.
func TestSettingsBeforeTheFirstReplyKeepTheConfigurationValid(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t)
	sess := srv.NewSession(t)

	// Chains left without a reply.
	sess.Chat("when-first").When(scenario.UserContains("w"))
	sess.Chat("repeat-first").Repeat()
	sess.Chat("per-conversation-first").PerConversation()
	reapply(t, srv, sess)
	if n := len(sess.Scenarios()); n != 0 {
		t.Errorf("%d scenarios before any reply, want none", n)
	}

	// The same chains with their replies: what was asked first applies.
	sess.Chat("when-first").When(scenario.UserContains("w")).Responds("when")
	sess.Chat("repeat-first").Repeat().When(scenario.UserContains("r")).Responds("repeat")
	reapply(t, srv, sess)

	client := e2e.ClientFor(sess, "")
	if got, code := ask(t, client, e2e.ReplyModel, "z"); code != "llm_test_server_no_scenario" {
		t.Errorf("When before the reply was lost: got %q (%s) for a request neither matches", got, code)
	}
	if got, code := ask(t, client, e2e.ReplyModel, "w"); got != "when" {
		t.Errorf("when-first: got %q (%s), want when", got, code)
	}
	for range 2 {
		if got, code := ask(t, client, e2e.ReplyModel, "r"); got != "repeat" {
			t.Errorf("repeat-first: got %q (%s), want the repeating reply", got, code)
		}
	}
}

// reapply checks that sess's own configuration applies again: in Go, by
// Configure(WithConfig(Config())); over HTTP, by posting the scenarios GET
// /admin-api/scenarios lists to a new session, and by putting the
// configuration as JSON to PUT /admin-api/config.
func reapply(t *testing.T, srv *llmtest.Server, sess *session.Session) {
	t.Helper()
	cfg, err := sess.Config()
	if err != nil {
		t.Fatal(err)
	}
	listed, _ := listScenarios(t, sess)
	to := srv.NewSession(t)
	if r := postScenarios(t, to, string(listed)); r.Status != http.StatusNoContent {
		t.Errorf("re-POST of GET /admin-api/scenarios: %d %s", r.Status, r.Body)
	}
	doc, err := json.Marshal(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if r := e2e.Call(t, srv.Client(), http.MethodPut, to.Endpoint()+"/admin-api/config", string(doc), e2e.SelectorOf(to)...); r.Status != http.StatusNoContent {
		t.Errorf("PUT /admin-api/config of the session's configuration: %d %s", r.Status, r.Body)
	}
	if err := sess.Configure(session.WithConfig(cfg)); err != nil {
		t.Errorf("re-applying the session's own configuration: %v", err)
	}
}
