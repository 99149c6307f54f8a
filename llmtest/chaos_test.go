package llmtest_test

import (
	"errors"
	"fmt"
	"net/http"
	"testing"

	"github.com/openai/openai-go/v3"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/llmtestserver/llmtestserver/internal/e2e"
	"github.com/llmtestserver/llmtestserver/llmtest"
	"github.com/llmtestserver/llmtestserver/scenario"
	"github.com/llmtestserver/llmtestserver/session"
)

// chaosRun sends n chat requests to a fresh session with rules and returns
// each outcome: the reply's text, or the status of the error.
func chaosRun(t *testing.T, srv *llmtest.Server, n int, seed uint64, rules ...session.ChaosRule) ([]string, *session.Session) {
	t.Helper()
	sess := srv.NewSession(t, session.WithChaos(seed, rules...))
	for i := range n {
		sess.Chat("script").Responds(fmt.Sprintf("r%d", i+1))
	}
	client := e2e.ClientFor(sess, "k")
	out := make([]string, n)
	for i := range out {
		c, err := client.Chat.Completions.New(t.Context(), e2e.UserTurn("gpt-4o", "hi"))
		var apiErr *openai.Error
		switch {
		case errors.As(err, &apiErr):
			out[i] = fmt.Sprint(apiErr.StatusCode)
		case err != nil:
			t.Fatalf("request %d: %v", i+1, err)
		default:
			out[i] = c.Choices[0].Message.Content
		}
	}
	return out, sess
}

// TestChaosEveryThirdRequestFails: "every 3rd request fails with 500" over
// nine requests gives the same outcomes on two fresh sessions, the
// scripted replies go in order to the requests that were not faulted, and
// the journal names the rule.
func TestChaosEveryThirdRequestFails(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t)
	flaky := session.ChaosRule{Name: "flaky", Every: 3, Reply: scenario.Fail(http.StatusInternalServerError, "", "")}
	first, sess := chaosRun(t, srv, 9, 42, flaky)
	assert.Equal(t, []string{"r1", "r2", "500", "r3", "r4", "500", "r5", "r6", "500"}, first)
	assert.Equal(t, 3, sess.Pending(), "faulted requests take no scripted reply")
	entries := sess.Journal().Entries()
	require.Len(t, entries, 9)
	assert.Equal(t, "chaos:flaky", entries[2].Scenario)
	assert.Equal(t, http.StatusInternalServerError, entries[2].Status)
	assert.Equal(t, "script", entries[3].Scenario)

	second, _ := chaosRun(t, srv, 9, 42, flaky)
	assert.Equal(t, first, second, "the same rules give the same outcomes on a fresh session")

	sess.Reset()
	client := e2e.ClientFor(sess, "k")
	for i, want := range []string{"r1", "r2"} {
		c, err := client.Chat.Completions.New(t.Context(), e2e.UserTurn("gpt-4o", "hi"))
		require.NoError(t, err, "request %d after Reset", i+1)
		assert.Equal(t, want, c.Choices[0].Message.Content)
	}
	_, err := client.Chat.Completions.New(t.Context(), e2e.UserTurn("gpt-4o", "hi"))
	require.Error(t, err, "Reset restarts the rule's count")
}

// TestChaosProbabilityFollowsTheSeed: a rule that fires with a probability
// gives the same outcomes on every session with the same seed, and others
// with another seed; a rule scoped to another model never fires.
func TestChaosProbabilityFollowsTheSeed(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t)
	rules := []session.ChaosRule{
		{Name: "elsewhere", Every: 1, Models: []string{"gpt-4o-mini"}, Reply: scenario.Fail(http.StatusBadGateway, "", "")},
		{Name: "sometimes", Probability: 0.4, Endpoints: []scenario.Endpoint{scenario.EndpointChatCompletions},
			Reply: scenario.Reply{Error: &scenario.Error{Kind: scenario.ErrorOverloaded}}},
	}
	first, sess := chaosRun(t, srv, 20, 7, rules...)
	again, _ := chaosRun(t, srv, 20, 7, rules...)
	other, _ := chaosRun(t, srv, 20, 8, rules...)
	assert.Equal(t, first, again)
	assert.NotEqual(t, first, other, "another seed draws otherwise")
	faulted := 0
	for _, o := range first {
		assert.NotEqual(t, "502", o, "the rule for another model fired")
		if o == "503" {
			faulted++
		}
	}
	assert.Equal(t, faulted, sess.Pending(), "each fault left its scripted reply unused")
	assert.Positive(t, faulted)
}

// TestChaosAndRateLimitsOverTheAdminAPI: both travel as JSON in the
// session configuration; a misspelt or invalid rule is a 400 naming the
// field.
func TestChaosAndRateLimitsOverTheAdminAPI(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t)
	c := e2e.CreateOverHTTP(t, srv, `{"scenarios":[{"name":"g","match":{},"replies":[{"text":"one"},{"text":"two"},{"text":"three"}]}],
		"rate_limits":{"requests_per_minute":100},
		"chaos":{"seed":1,"rules":[{"name":"flaky","every":2,"reply":{"error":{"status":503}}}]}}`)
	sel := []string{session.HeaderSession, c.ID, session.HeaderSessionKey, c.Key}
	chat := func() e2e.Reply {
		return e2e.Call(t, srv.Client(), http.MethodPost, srv.URL()+"/v1/chat/completions", e2e.ChatBody("gpt-4o", "hi"), e2e.Join(sel, e2e.Bearer("k"))...)
	}
	r := chat()
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	assert.Equal(t, "99", r.Header.Get("x-ratelimit-remaining-requests"))
	r = chat()
	r.WantError(t, http.StatusServiceUnavailable, "")
	assert.Equal(t, "98", r.Header.Get("x-ratelimit-remaining-requests"), "a faulted request counts against the limits")
	r = chat()
	require.Equal(t, http.StatusOK, r.Status)
	assert.Contains(t, string(r.Body), `"two"`, "the fault took no scripted reply")
	r = e2e.Call(t, srv.Client(), http.MethodPost, srv.URL()+"/v1/chat/completions",
		`{"model":"gpt-4o","stream":true,"messages":[{"role":"user","content":"hi"}]}`, e2e.Join(sel, e2e.Bearer("k"))...)
	r.WantError(t, http.StatusServiceUnavailable, "")
	assert.Equal(t, "96", r.Header.Get("x-ratelimit-remaining-requests"))
	r = e2e.Call(t, srv.Client(), http.MethodPost, srv.URL()+"/v1/chat/completions",
		`{"model":"gpt-4o","stream":true,"messages":[{"role":"user","content":"hi"}]}`, e2e.Join(sel, e2e.Bearer("k"))...)
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	assert.Contains(t, string(r.Body), `"three"`)
	assert.Equal(t, "95", r.Header.Get("x-ratelimit-remaining-requests"), "a stream carries the headers too")

	for body, field := range map[string]string{
		`{"chaos":{"rules":[{"every":2}]}}`:                                                    "chaos.rules[0].reply",
		`{"chaos":{"rules":[{"probability":2,"reply":{"text":"x"}}]}}`:                         "chaos.rules[0].probability",
		`{"rate_limits":{"requests_per_minut":1}}`:                                             "requests_per_minut",
		`{"rate_limits":{"models":{"gpt-4o":{"tokens_per_minute":-1}}}}`:                       "rate_limits.models[gpt-4o].tokens_per_minute",
		`{"chaos":{"rules":[{"every":1,"reply":{"error":{"status":500}},"endpoints":["x"]}]}}`: "chaos.rules[0].endpoints[0]",
	} {
		r := e2e.Call(t, srv.Client(), http.MethodPost, srv.URL()+"/admin-api/sessions", body, e2e.Bearer(srv.ManagementKey())...)
		assert.Equal(t, http.StatusBadRequest, r.Status, "%s: %s", body, r.Body)
		assert.Contains(t, string(r.Body), field, body)
	}
}
