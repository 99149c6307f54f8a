package goopenai_test

import (
	"errors"
	"net/http"
	"strconv"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	goopenai "github.com/sashabaranov/go-openai"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/llmtestserver/llmtestserver/llmtest"
	"github.com/llmtestserver/llmtestserver/scenario"
)

// retryAfter remembers the Retry-After of the last response, which
// go-openai's errors do not carry: an agent that retries by itself reads it
// from its transport.
type retryAfter struct {
	base http.RoundTripper
	mu   sync.Mutex
	last time.Duration // guarded by mu
}

func (r *retryAfter) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := r.base.RoundTrip(req)
	if err == nil {
		secs, _ := strconv.Atoi(resp.Header.Get("Retry-After"))
		r.mu.Lock()
		r.last = time.Duration(secs) * time.Second
		r.mu.Unlock()
	}
	return resp, err
}

func (r *retryAfter) wait() time.Duration {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.last
}

// go-openai does not retry: the test loops as an agent would, sleeping the
// Retry-After of a 429 before the next attempt. In a synctest bubble, with
// the server started there in memory, the sleep is virtual.
func TestSynctestAgentRetriesAfterRetryAfter(t *testing.T) {
	t.Parallel()
	realStart := time.Now()
	synctest.Test(t, func(t *testing.T) {
		srv := llmtest.NewServer(t, llmtest.WithInMemory())
		sess := srv.NewSession(t)
		sess.Chat("flaky").Reply(scenario.Reply{Error: &scenario.Error{Kind: scenario.ErrorRateLimit,
			Headers: map[string]string{"Retry-After": "20"}}}).Then("answered after the wait")

		ra := &retryAfter{base: sess.Transport()}
		cfg := goopenai.DefaultConfig("k")
		cfg.BaseURL, cfg.HTTPClient = sess.BaseURL(), &http.Client{Transport: ra}
		client := goopenai.NewClientWithConfig(cfg)
		req := goopenai.ChatCompletionRequest{Model: "gpt-4.1-mini",
			Messages: []goopenai.ChatCompletionMessage{{Role: goopenai.ChatMessageRoleUser, Content: "Hi"}}}

		start := time.Now()
		var resp goopenai.ChatCompletionResponse
		attempts := 0
		for {
			attempts++
			var err error
			resp, err = client.CreateChatCompletion(t.Context(), req)
			var apiErr *goopenai.APIError
			if errors.As(err, &apiErr) && apiErr.HTTPStatusCode == http.StatusTooManyRequests && attempts < 3 {
				time.Sleep(ra.wait())
				continue
			}
			require.NoError(t, err)
			break
		}
		assert.Equal(t, 2, attempts)
		require.Len(t, resp.Choices, 1)
		assert.Equal(t, "answered after the wait", resp.Choices[0].Message.Content)
		assert.GreaterOrEqual(t, time.Since(start), 20*time.Second, "virtual time waited")

		entries := sess.Journal().Entries()
		require.Len(t, entries, 2, "one request per attempt")
		assert.Equal(t, http.StatusTooManyRequests, entries[0].Status)
		assert.Equal(t, http.StatusOK, entries[1].Status)
		assert.Zero(t, sess.Pending(), "each attempt took one reply")
	})
	real := time.Since(realStart)
	t.Logf("real time: %v", real)
	assert.Less(t, real, 20*time.Second, "the wait took real time")
}
