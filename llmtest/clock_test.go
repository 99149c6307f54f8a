package llmtest_test

import (
	"context"
	"testing"
	"time"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/llmtestserver/llmtestserver/clock"
	"github.com/llmtestserver/llmtestserver/llmtest"
	"github.com/llmtestserver/llmtestserver/scenario"
)

// TestFakeClockHoldsDelaysAndStampsAnswers: a server on a fake clock holds a
// delayed reply until the test advances the clock, and stamps the answer
// and the journal with the fake's time.
func TestFakeClockHoldsDelaysAndStampsAnswers(t *testing.T) {
	t.Parallel()
	start := time.Date(2031, 3, 4, 5, 6, 7, 0, time.UTC)
	clk := clock.NewFake(start)
	srv := llmtest.NewServer(t, llmtest.WithClock(clk))
	sess := srv.NewSession(t)
	sess.Chat("slow").Reply(scenario.Reply{Text: "at last", Delay: 30 * time.Second})
	client := openai.NewClient(option.WithBaseURL(sess.BaseURL()), option.WithAPIKey("k"),
		option.WithHTTPClient(sess.HTTPClient()), option.WithMaxRetries(0))

	type result struct {
		c   *openai.ChatCompletion
		err error
	}
	done := make(chan result, 1)
	go func() {
		c, err := client.Chat.Completions.New(context.Background(), openai.ChatCompletionNewParams{
			Model:    "gpt-4o-mini",
			Messages: []openai.ChatCompletionMessageParamUnion{openai.UserMessage("hi")},
		})
		done <- result{c, err}
	}()
	require.NoError(t, clk.WaitForTimers(t.Context(), 1), "the reply's delay never began")
	clk.Advance(29 * time.Second)
	select {
	case r := <-done:
		t.Fatalf("the reply arrived %v before its delay was over: %+v", time.Second, r)
	case <-time.After(20 * time.Millisecond):
	}
	clk.Advance(time.Second)
	r := <-done
	require.NoError(t, r.err)
	assert.Equal(t, "at last", r.c.Choices[0].Message.Content)
	assert.Equal(t, start.Add(30*time.Second).Unix(), r.c.Created, "created is the fake's time")

	e, ok := sess.Journal().Last()
	require.True(t, ok)
	assert.Equal(t, start, e.Time, "the journal times the request on the fake clock")
	assert.Equal(t, 30*time.Second, e.Duration)
}
