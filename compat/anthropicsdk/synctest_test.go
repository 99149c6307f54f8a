package anthropicsdk_test

import (
	"net/http"
	"testing"
	"testing/synctest"
	"time"

	"github.com/anthropics/anthropic-sdk-go/v2"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/llmtestserver/llmtestserver/llmtest"
	"github.com/llmtestserver/llmtestserver/scenario"
)

// anthropic-sdk-go honours a 429's Retry-After: 20 by itself. With the
// server started in memory inside a synctest bubble, the 20 s pass on the
// bubble's virtual clock: the test takes no real 20 s.
func TestSynctestRetryAfter(t *testing.T) {
	t.Parallel()
	realStart := time.Now()
	synctest.Test(t, func(t *testing.T) {
		srv := llmtest.NewServer(t, llmtest.WithInMemory())
		sess := srv.NewSession(t)
		sess.Chat("flaky").Reply(scenario.Reply{Error: &scenario.Error{Kind: scenario.ErrorRateLimit,
			Headers: map[string]string{"retry-after": "20"}}}).Then("answered after the wait")

		start := time.Now()
		client := clientFor(sess, "k", 2)
		msg, err := client.Messages.New(t.Context(), userTurn("hi"))
		require.NoError(t, err)
		require.Len(t, msg.Content, 1)
		assert.Equal(t, "answered after the wait", msg.Content[0].Text)
		assert.GreaterOrEqual(t, time.Since(start), 20*time.Second, "virtual time waited")

		entries := sess.Journal().Entries()
		require.Len(t, entries, 2, "one request per attempt")
		assert.Equal(t, http.StatusTooManyRequests, entries[0].Status)
		assert.Equal(t, http.StatusOK, entries[1].Status)
		for _, e := range entries {
			assert.Equal(t, "flaky", e.Scenario)
			assert.Equal(t, "anthropic", e.Provider)
		}
		assert.Zero(t, sess.Pending(), "each attempt took one reply")
	})
	real := time.Since(realStart)
	t.Logf("real time: %v", real)
	assert.Less(t, real, 20*time.Second, "the wait took real time")
}

// A streamed reply delayed 30 s arrives 30 s later on the bubble's clock.
func TestSynctestDelayedStream(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		sess := llmtest.NewServer(t, llmtest.WithInMemory()).NewSession(t)
		sess.Chat("slow").RespondsAfter(30*time.Second, "at last")
		start := time.Now()
		client := clientFor(sess, "k", 0)
		msg := accumulate(t, client.Messages.NewStreaming(t.Context(), userTurn("hi")))
		require.Len(t, msg.Content, 1)
		assert.Equal(t, "at last", msg.Content[0].Text)
		assert.Equal(t, anthropic.StopReasonEndTurn, msg.StopReason)
		assert.GreaterOrEqual(t, time.Since(start), 30*time.Second, "virtual time")
	})
}
