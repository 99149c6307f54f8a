package llmtest_test

import (
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/llmtestserver/llmtestserver/internal/e2e"
	"github.com/llmtestserver/llmtestserver/llmtest"
	"github.com/llmtestserver/llmtestserver/scenario"
	"github.com/llmtestserver/llmtestserver/session"
)

// cutStreams is a chaos rule that cuts about a third of the streams after
// two events.
var cutStreams = session.ChaosRule{Name: "cut", Probability: 0.3, StreamsOnly: true,
	Reply: scenario.Reply{Fault: &scenario.Fault{Kind: scenario.FaultCut, AfterEvents: 2}}}

// chaosStreams streams n chat requests, one attempt each, to a fresh
// session with cutStreams drawn from seed, each scripted reply naming its
// place in the queue. It returns each outcome: "cut" for a stream that
// failed, else the text received.
func chaosStreams(t *testing.T, srv *llmtest.Server, n int, seed uint64) ([]string, *session.Session) {
	t.Helper()
	sess := srv.NewSession(t, session.WithChaos(seed, cutStreams))
	for i := range n {
		sess.Chat("script").Responds(fmt.Sprintf("reply %d", i+1))
	}
	client := e2e.ClientFor(sess, "k")
	out := make([]string, n)
	for i := range out {
		s := client.Chat.Completions.NewStreaming(t.Context(), e2e.UserTurn("gpt-4o", "hi"))
		var text strings.Builder
		for s.Next() {
			if c := s.Current(); len(c.Choices) > 0 {
				text.WriteString(c.Choices[0].Delta.Content)
			}
		}
		err := s.Err()
		s.Close()
		if err != nil {
			assert.ErrorIs(t, err, io.ErrUnexpectedEOF, "request %d: a cut reads as an unexpected EOF", i+1)
			out[i] = "cut"
			continue
		}
		out[i] = text.String()
	}
	return out, sess
}

// A chaos rule whose reply is a transport fault: the cuts fall on the same
// requests of every session with the same seed and on others with another
// seed, each surfaces as the SDK's error, the fault counters count them,
// and the scripted replies go, in order, to the requests not cut.
func TestChaosCutsStreamsFromTheSeed(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t)
	const n = 20
	first, sess := chaosStreams(t, srv, n, 42)
	again, _ := chaosStreams(t, srv, n, 42)
	other, _ := chaosStreams(t, srv, n, 7)
	t.Logf("seed 42: %s, seed 7: %s", pattern(first), pattern(other))
	assert.Equal(t, first, again, "the same seed cuts the same requests")
	assert.NotEqual(t, pattern(first), pattern(other), "another seed cuts other requests")

	cuts, next := 0, 1
	for i, o := range first {
		if o == "cut" {
			cuts++
			continue
		}
		assert.Equal(t, fmt.Sprintf("reply %d", next), o, "request %d: the scripted replies go in order to the requests not cut", i+1)
		next++
	}
	require.Positive(t, cuts, "the seed cut nothing: pick another")
	require.Less(t, cuts, n, "the seed cut everything: pick another")
	assert.Equal(t, cuts, sess.Pending(), "a cut took no scripted reply")
	assert.Equal(t, map[string]int{"cut": cuts}, sess.Assertions().Faults)

	entries := sess.Journal().Entries()
	require.Len(t, entries, n)
	for i, e := range entries {
		if first[i] == "cut" {
			assert.Equal(t, "cut", e.Fault, "entry %d", i)
			assert.Equal(t, "chaos:cut", e.Scenario, "entry %d", i)
		} else {
			assert.Empty(t, e.Fault, "entry %d", i)
			assert.Equal(t, "script", e.Scenario, "entry %d", i)
		}
	}
}

// pattern is the outcomes as a string of c (cut) and . (complete).
func pattern(outcomes []string) string {
	var b strings.Builder
	for _, o := range outcomes {
		if o == "cut" {
			b.WriteByte('c')
		} else {
			b.WriteByte('.')
		}
	}
	return b.String()
}

// A chaos rule that drops every second request: openai-go retries the
// dropped attempt by itself, so every call succeeds, and the journal shows
// the drops between the answers.
func TestChaosDropsAreRetriedByOpenAIGo(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t)
	sess := srv.NewSession(t, session.WithChaos(1, session.ChaosRule{Name: "drop", Every: 2, Reply: scenario.Drop()}))
	sess.Chat("script").Responds("one").Then("two").Then("three")
	client := openai.NewClient(option.WithBaseURL(sess.BaseURL()), option.WithAPIKey("k"),
		option.WithHTTPClient(sess.HTTPClient())) // openai-go's default retries
	var got []string
	for range 3 {
		c, err := client.Chat.Completions.New(t.Context(), e2e.UserTurn("gpt-4o", "hi"))
		require.NoError(t, err)
		got = append(got, c.Choices[0].Message.Content)
	}
	assert.Equal(t, []string{"one", "two", "three"}, got)
	assert.Zero(t, sess.Pending())

	// Attempts: 1 answers, 2 dropped, its retry 3 answers, 4 dropped ...
	entries := sess.Journal().Entries()
	require.Len(t, entries, 5)
	var faults, scenarios []string
	var statuses []int
	for _, e := range entries {
		faults, scenarios, statuses = append(faults, e.Fault), append(scenarios, e.Scenario), append(statuses, e.Status)
	}
	assert.Equal(t, []string{"", "drop", "", "drop", ""}, faults)
	assert.Equal(t, []string{"script", "chaos:drop", "script", "chaos:drop", "script"}, scenarios)
	assert.Equal(t, []int{200, 0, 200, 0, 200}, statuses)
	assert.Equal(t, map[string]int{"drop": 2}, sess.Assertions().Faults)
}
