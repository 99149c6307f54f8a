package examples_test

import (
	"context"
	"errors"
	"net/http"
	"strconv"
	"testing"
	"testing/synctest"
	"time"

	"github.com/llmtestserver/llmtestserver/llmtest"
	"github.com/llmtestserver/llmtestserver/scenario"
	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
)

// ask is the code under test: an agent step that calls the model and, when
// the provider is rate limited, waits what its Retry-After says and tries
// again, up to three attempts. (openai-go would retry by itself; the agent
// turns that off to keep its own policy.)
func ask(ctx context.Context, client openai.Client, prompt string) (string, error) {
	for attempt := 1; ; attempt++ {
		resp, err := client.Chat.Completions.New(ctx, openai.ChatCompletionNewParams{
			Model:    "gpt-4.1-mini",
			Messages: []openai.ChatCompletionMessageParamUnion{openai.UserMessage(prompt)},
		}, option.WithMaxRetries(0))
		var apiErr *openai.Error
		if errors.As(err, &apiErr) && apiErr.StatusCode == http.StatusTooManyRequests && attempt < 3 {
			secs, _ := strconv.Atoi(apiErr.Response.Header.Get("Retry-After"))
			select {
			case <-time.After(time.Duration(secs) * time.Second):
				continue
			case <-ctx.Done():
				return "", ctx.Err()
			}
		}
		if err != nil {
			return "", err
		}
		return resp.Choices[0].Message.Content, nil
	}
}

// The agent's retry loop, tested inside a testing/synctest bubble: the
// provider answers 429 with Retry-After: 20, then the reply. A server
// started inside the bubble in memory (llmtest.WithInMemory) has no socket,
// so the bubble's clock advances whenever everything waits, and the agent's
// 20 s wait passes at once in real time.
func TestAgentWaitsOutRetryAfter(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		srv := llmtest.NewServer(t, llmtest.WithInMemory()) // inside the bubble
		sess := srv.NewSession(t)
		sess.Chat("busy").
			Reply(scenario.Reply{Error: &scenario.Error{Kind: scenario.ErrorRateLimit,
				Headers: map[string]string{"Retry-After": "20"}}}).
			Then("Here is your answer.")
		client := openai.NewClient(
			option.WithBaseURL(sess.BaseURL()),
			option.WithAPIKey("provider-key"),
			option.WithHTTPClient(sess.HTTPClient()))

		start := time.Now() // the bubble's clock
		got, err := ask(t.Context(), client, "What is the answer?")
		if err != nil {
			t.Fatal(err)
		}
		if got != "Here is your answer." {
			t.Errorf("answer = %q, want the scripted one", got)
		}
		if waited := time.Since(start); waited < 20*time.Second {
			t.Errorf("the agent waited %v, want at least the 20 s of Retry-After", waited)
		}
		entries := sess.Journal().Entries()
		if len(entries) != 2 || entries[0].Status != 429 || entries[1].Status != 200 {
			t.Errorf("journal = %+v, want a 429 then a 200", entries)
		}
	})
}
