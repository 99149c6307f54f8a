package llmtest_test

import (
	"errors"
	"fmt"
	"net/http"
	"testing"

	"github.com/openai/openai-go/v3"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

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
	client := clientFor(sess, "k")
	out := make([]string, n)
	for i := range out {
		c, err := client.Chat.Completions.New(t.Context(), userTurn("gpt-4o", "hi"))
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
	client := clientFor(sess, "k")
	for i, want := range []string{"r1", "r2"} {
		c, err := client.Chat.Completions.New(t.Context(), userTurn("gpt-4o", "hi"))
		require.NoError(t, err, "request %d after Reset", i+1)
		assert.Equal(t, want, c.Choices[0].Message.Content)
	}
	_, err := client.Chat.Completions.New(t.Context(), userTurn("gpt-4o", "hi"))
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
