package llmtest_test

import (
	"errors"
	"net/http"
	"testing"
	"testing/synctest"
	"time"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/llmtestserver/llmtestserver/internal/e2e"
	"github.com/llmtestserver/llmtestserver/llmtest"
	"github.com/llmtestserver/llmtestserver/scenario"
	"github.com/llmtestserver/llmtestserver/session"
)

// rateLimited is a 429 that asks the client to wait 20 s.
func rateLimited() scenario.Reply {
	return scenario.Reply{Error: &scenario.Error{Kind: scenario.ErrorRateLimit,
		Headers: map[string]string{"Retry-After": "20"}}}
}

// inBubble runs f inside a synctest bubble with an in-memory server
// started there, and logs the real time it took: every wait inside runs on
// the bubble's virtual clock.
func inBubble(t *testing.T, f func(t *testing.T, srv *llmtest.Server)) (real time.Duration) {
	t.Helper()
	start := time.Now()
	synctest.Test(t, func(t *testing.T) {
		f(t, llmtest.NewServer(t, llmtest.WithInMemory()))
	})
	real = time.Since(start)
	t.Logf("real time: %v", real)
	return real
}

// openai-go honours the 429's Retry-After: 20 by itself. In the bubble the
// 20 s pass on the virtual clock, so the test takes no real 20 s.
func TestSynctestRetryAfterWithOpenAIGo(t *testing.T) {
	t.Parallel()
	real := inBubble(t, func(t *testing.T, srv *llmtest.Server) {
		sess := srv.NewSession(t)
		sess.Chat("flaky").Reply(rateLimited()).Then("answered after the wait")
		client := openai.NewClient(option.WithBaseURL(sess.BaseURL()), option.WithAPIKey("k"),
			option.WithHTTPClient(sess.HTTPClient()))

		start := time.Now()
		resp, err := client.Chat.Completions.New(t.Context(), e2e.UserTurn("gpt-4.1-mini", "Hi"))
		require.NoError(t, err)
		assert.Equal(t, "answered after the wait", resp.Choices[0].Message.Content)
		assert.GreaterOrEqual(t, time.Since(start), 20*time.Second, "virtual time waited")

		entries := sess.Journal().Entries()
		require.Len(t, entries, 2, "one request per attempt")
		assert.Equal(t, http.StatusTooManyRequests, entries[0].Status)
		assert.Equal(t, http.StatusOK, entries[1].Status)
		assert.Equal(t, "flaky", entries[0].Scenario)
		assert.Equal(t, "flaky", entries[1].Scenario)
		assert.Zero(t, sess.Pending(), "each attempt took one reply")
	})
	assert.Less(t, real, 20*time.Second, "the wait took real time")
}

// A reply delayed 30 s arrives 30 s later on the bubble's clock.
func TestSynctestDelayedReply(t *testing.T) {
	t.Parallel()
	inBubble(t, func(t *testing.T, srv *llmtest.Server) {
		sess := srv.NewSession(t)
		sess.Chat("slow").RespondsAfter(30*time.Second, "at last")
		client := e2e.ClientFor(sess, "k")
		start := time.Now()
		resp, err := client.Chat.Completions.New(t.Context(), e2e.UserTurn("gpt-4.1-mini", "Hi"))
		require.NoError(t, err)
		assert.Equal(t, "at last", resp.Choices[0].Message.Content)
		assert.GreaterOrEqual(t, time.Since(start), 30*time.Second, "virtual time")
	})
}

// A client timeout shorter than the reply's delay fires on the bubble's
// clock; the journal records the client leaving, and the reply stays
// queued for the retry.
func TestSynctestClientTimeout(t *testing.T) {
	t.Parallel()
	inBubble(t, func(t *testing.T, srv *llmtest.Server) {
		sess := srv.NewSession(t)
		sess.Chat("hang").RespondsAfter(60*time.Second, "too late")
		impatient := &http.Client{Transport: sess.Transport(), Timeout: 5 * time.Second}
		client := openai.NewClient(option.WithBaseURL(sess.BaseURL()), option.WithAPIKey("k"),
			option.WithHTTPClient(impatient), option.WithMaxRetries(0))

		start := time.Now()
		_, err := client.Chat.Completions.New(t.Context(), e2e.UserTurn("gpt-4.1-mini", "Hi"))
		var timeout interface{ Timeout() bool }
		require.True(t, errors.As(err, &timeout) && timeout.Timeout(), "error %v is no timeout", err)
		elapsed := time.Since(start)
		assert.GreaterOrEqual(t, elapsed, 5*time.Second)
		assert.Less(t, elapsed, 60*time.Second, "the client gave up before the reply")

		synctest.Wait() // the handler journals the request once it sees the client gone
		last, ok := sess.Journal().Last()
		require.True(t, ok, "nothing journaled")
		assert.Equal(t, 499, last.Status)
		assert.Equal(t, 1, sess.Pending(), "the undelivered reply went back to its queue")
	})
}

// The server's own client reaches the admin API in both modes, with the
// management key.
func TestServerClientReachesTheAdminAPI(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t)
	c := e2e.CreateOverHTTP(t, srv, "{}")
	assert.NotEmpty(t, c.ID)
	sess := srv.NewSession(t, session.RequireAPIKey("k"))
	r := e2e.Call(t, srv.Client(), http.MethodGet, srv.URL()+"/admin-api/journal", "", e2e.Join(e2e.SelectorOf(sess), e2e.Bearer("k"))...)
	assert.Equal(t, http.StatusOK, r.Status)
}

// scenario.RateLimitedFor says the wait in retry-after-ms too, which
// openai-go reads first: a 1.5 s wait is 1.5 s on the bubble's clock, not
// the 2 s of the rounded Retry-After.
func TestSynctestRateLimitedForWithOpenAIGo(t *testing.T) {
	t.Parallel()
	inBubble(t, func(t *testing.T, srv *llmtest.Server) {
		sess := srv.NewSession(t)
		sess.Chat("flaky").Reply(scenario.RateLimitedFor(1500 * time.Millisecond)).Then("answered after the wait")
		client := openai.NewClient(option.WithBaseURL(sess.BaseURL()), option.WithAPIKey("k"),
			option.WithHTTPClient(sess.HTTPClient()))

		start := time.Now()
		resp, err := client.Chat.Completions.New(t.Context(), e2e.UserTurn("gpt-4.1-mini", "Hi"))
		require.NoError(t, err)
		assert.Equal(t, "answered after the wait", resp.Choices[0].Message.Content)
		waited := time.Since(start)
		assert.GreaterOrEqual(t, waited, 1500*time.Millisecond, "the SDK waited the scripted time")
		assert.Less(t, waited, 2*time.Second, "the SDK read retry-after-ms, not the rounded Retry-After")
	})
}
