package goopenai_test

import (
	"errors"
	"fmt"
	"testing"

	goopenai "github.com/sashabaranov/go-openai"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/llmtestserver/llmtestserver/llmtest"
	"github.com/llmtestserver/llmtestserver/scenario"
)

// go-openai never retries and announces no retry count, so a caller's own
// retry loop shows in the journal as the same request sent again in a
// row: MaxRetries counts it, and CheckMaxRetries names the attempt past
// the limit.
func TestMaxRetriesOfAHandWrittenLoop(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t)
	sess := srv.NewSession(t)
	sess.Chat("flaky").Fails(503, "", "overloaded").Fails(503, "", "overloaded").Responds("finally")

	cfg := goopenai.DefaultConfig("any-key")
	cfg.BaseURL = sess.BaseURL()
	cfg.HTTPClient = sess.HTTPClient()
	client := goopenai.NewClientWithConfig(cfg)
	req := goopenai.ChatCompletionRequest{
		Model:    "gpt-4.1-mini",
		Messages: []goopenai.ChatCompletionMessage{{Role: "system", Content: "Be brief."}, {Role: "user", Content: "Hello"}},
	}
	var answer string
	for range 3 { // the code under test's retry loop
		resp, err := client.CreateChatCompletion(t.Context(), req)
		var apiErr *goopenai.APIError
		if errors.As(err, &apiErr) && apiErr.HTTPStatusCode == 503 {
			continue
		}
		require.NoError(t, err)
		answer = resp.Choices[0].Message.Content
		break
	}
	require.Equal(t, "finally", answer)

	j := sess.Journal()
	require.Equal(t, 3, j.Len())
	assert.Equal(t, 2, j.MaxRetries())
	assert.True(t, llmtest.CheckMaxRetries(t, sess, 2))

	fake := &retryTB{}
	assert.False(t, llmtest.CheckMaxRetries(fake, sess, 1))
	require.Len(t, fake.errors, 1)
	assert.Contains(t, fake.errors[0], "a request was retried 2 time(s), want at most 1")
	assert.Contains(t, fake.errors[0], `#3 POST /v1/chat/completions -> 200`)

	// Another request is no retry.
	sess.Chat("other").When(scenario.UserContains("Bye")).Responds("bye")
	req.Messages[1].Content = "Bye"
	_, err := client.CreateChatCompletion(t.Context(), req)
	require.NoError(t, err)
	assert.Equal(t, 2, j.MaxRetries())
}

// retryTB is an llmtest.TB that records what a check reports.
type retryTB struct{ errors []string }

func (r *retryTB) Helper()                      {}
func (r *retryTB) Cleanup(func())               {}
func (r *retryTB) Logf(string, ...any)          {}
func (r *retryTB) Fatalf(f string, args ...any) { r.Errorf(f, args...) }
func (r *retryTB) Failed() bool                 { return len(r.errors) > 0 }
func (r *retryTB) FailNow()                     { panic("FailNow") }
func (r *retryTB) Name() string                 { return "retryTB" }
func (r *retryTB) Errorf(f string, args ...any) {
	r.errors = append(r.errors, fmt.Sprintf(f, args...))
}
