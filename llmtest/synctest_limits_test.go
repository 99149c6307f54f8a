package llmtest_test

import (
	"errors"
	"net/http"
	"strconv"
	"sync"
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

// seen is a response as the client received it.
type seen struct {
	status       int
	retryAfter   string
	retryAfterMS string
}

// recorder is a RoundTripper that notes the status and retry headers of
// every response it passes on.
type recorder struct {
	base http.RoundTripper
	mu   sync.Mutex
	seen []seen
}

func (r *recorder) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := r.base.RoundTrip(req)
	if err == nil {
		r.mu.Lock()
		r.seen = append(r.seen, seen{resp.StatusCode, resp.Header.Get("Retry-After"), resp.Header.Get("Retry-After-Ms")})
		r.mu.Unlock()
	}
	return resp, err
}

// With one request a minute, the second call is refused with 429 and a
// Retry-After of a minute; openai-go waits it out on the bubble's clock
// and its retry passes.
func TestSynctestRateLimitRetriedByOpenAIGo(t *testing.T) {
	t.Parallel()
	real := inBubble(t, func(t *testing.T, srv *llmtest.Server) {
		sess := srv.NewSession(t, session.WithRateLimits(1, 0))
		sess.Chat("seq").Responds("first").Then("second")
		rec := &recorder{base: sess.Transport()}
		client := openai.NewClient(option.WithBaseURL(sess.BaseURL()), option.WithAPIKey("k"),
			option.WithHTTPClient(&http.Client{Transport: rec})) // openai-go's default retries

		got, err := client.Chat.Completions.New(t.Context(), e2e.UserTurn("gpt-4o", "Hi"))
		require.NoError(t, err)
		assert.Equal(t, "first", got.Choices[0].Message.Content)

		start := time.Now()
		got, err = client.Chat.Completions.New(t.Context(), e2e.UserTurn("gpt-4o", "Hi"))
		require.NoError(t, err, "the SDK's retry after the 429 passes")
		assert.Equal(t, "second", got.Choices[0].Message.Content)
		elapsed := time.Since(start)

		require.Len(t, rec.seen, 3)
		assert.Equal(t, []int{200, 429, 200}, []int{rec.seen[0].status, rec.seen[1].status, rec.seen[2].status})
		t.Logf("429: Retry-After %s, Retry-After-Ms %s; waited %v", rec.seen[1].retryAfter, rec.seen[1].retryAfterMS, elapsed)
		secs, err := strconv.Atoi(rec.seen[1].retryAfter)
		require.NoError(t, err, "Retry-After %q", rec.seen[1].retryAfter)
		assert.InDelta(t, 60, secs, 1, "the bucket frees a minute after the first request")
		ms, err := strconv.Atoi(rec.seen[1].retryAfterMS)
		require.NoError(t, err, "Retry-After-Ms %q", rec.seen[1].retryAfterMS)
		assert.GreaterOrEqual(t, elapsed, time.Duration(ms)*time.Millisecond, "virtual time waited the Retry-After-Ms")
		assert.GreaterOrEqual(t, elapsed, time.Duration(secs)*time.Second, "virtual time waited the Retry-After")

		entries := sess.Journal().Entries()
		require.Len(t, entries, 3, "one entry per attempt")
		assert.Equal(t, []int{200, 429, 200}, []int{entries[0].Status, entries[1].Status, entries[2].Status})
		assert.Equal(t, "rate_limit_exceeded", entries[1].ErrorCode)
		assert.Equal(t, "seq", entries[2].Scenario)
		assert.Zero(t, sess.Pending(), "the 429 took no reply")
	})
	assert.Less(t, real, time.Minute, "the minute passed in real time")
}

// A hang holds a client with a 5 s timeout for 5 s of the bubble's time;
// the journal records the client giving up, and as a fired fault counts as
// delivered, the next call gets the next reply.
func TestSynctestHangUntilClientTimeout(t *testing.T) {
	t.Parallel()
	inBubble(t, func(t *testing.T, srv *llmtest.Server) {
		sess := srv.NewSession(t)
		sess.Chat("seq").Reply(scenario.Hang()).Then("after the hang")
		impatient := sess.WrapClient(&http.Client{Timeout: 5 * time.Second})
		client := openai.NewClient(option.WithBaseURL(sess.BaseURL()), option.WithAPIKey("k"),
			option.WithHTTPClient(impatient), option.WithMaxRetries(0))

		start := time.Now()
		_, err := client.Chat.Completions.New(t.Context(), e2e.UserTurn("gpt-4o", "Hi"))
		var timeout interface{ Timeout() bool }
		require.True(t, errors.As(err, &timeout) && timeout.Timeout(), "error %v is no timeout", err)
		assert.GreaterOrEqual(t, time.Since(start), 5*time.Second, "the client waited its timeout")

		synctest.Wait() // the handler journals the hang once it sees the client gone
		last, ok := sess.Journal().Last()
		require.True(t, ok, "nothing journaled")
		assert.Equal(t, "hang", last.Fault)
		assert.Equal(t, 499, last.Status)
		assert.Equal(t, map[string]int{"hang": 1}, sess.Assertions().Faults)
		assert.Equal(t, 1, sess.Pending(), "the hang was used up, the reply after it left")

		got, err := client.Chat.Completions.New(t.Context(), e2e.UserTurn("gpt-4o", "Hi"))
		require.NoError(t, err, "the next call hung again")
		assert.Equal(t, "after the hang", got.Choices[0].Message.Content)
		assert.Zero(t, sess.Pending())
	})
}

// A reply's own pacing spaces its chunks on the bubble's clock: the first
// after the time to first token, the others a token's time apart.
func TestSynctestPacedReply(t *testing.T) {
	t.Parallel()
	inBubble(t, func(t *testing.T, srv *llmtest.Server) {
		sess := srv.NewSession(t)
		const ttft, tokensPerSecond = 3 * time.Second, 2.0
		sess.Chat("slow").Reply(scenario.Text("one two three four").Paced(ttft, tokensPerSecond))
		client := e2e.ClientFor(sess, "k")

		start := time.Now()
		s := client.Chat.Completions.NewStreaming(t.Context(), e2e.UserTurn("gpt-4o", "Hi"))
		defer s.Close()
		var arrivals []time.Time
		var text string
		for s.Next() {
			arrivals = append(arrivals, time.Now())
			if c := s.Current(); len(c.Choices) > 0 {
				text += c.Choices[0].Delta.Content
			}
		}
		require.NoError(t, s.Err())
		assert.Equal(t, "one two three four", text)

		// The role, four words (a token each), the finish: six chunks.
		require.Len(t, arrivals, 6)
		assert.GreaterOrEqual(t, arrivals[0].Sub(start), ttft, "the first chunk came before the time to first token")
		gap := time.Duration(float64(time.Second) / tokensPerSecond)
		for i := 1; i < len(arrivals); i++ {
			assert.GreaterOrEqual(t, arrivals[i].Sub(arrivals[i-1]), gap, "chunk %d came too soon after the one before", i)
		}
	})
}
