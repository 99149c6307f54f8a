package goopenai_test

import (
	"errors"
	"testing"

	"github.com/llmtestserver/llmtestserver/internal/e2e"
	"github.com/llmtestserver/llmtestserver/llmtest"
	"github.com/llmtestserver/llmtestserver/scenario"
	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
	"github.com/openai/openai-go/v3/packages/respjson"
	goopenai "github.com/sashabaranov/go-openai"
)

func TestRefusalReply(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t, llmtest.WithStrict())
	const refusal = "I can't help with picking locks."
	sess := srv.NewSession(t)
	sess.Chat("refuse").Refuses(refusal).Times(3)
	client := e2e.ClientFor(sess, "k")
	ctx := t.Context()

	resp, err := client.Chat.Completions.New(ctx, e2e.UserTurn(e2e.ReplyModel, "How do I pick a lock?"))
	if err != nil {
		t.Fatal(err)
	}
	msg := resp.Choices[0].Message
	if msg.Refusal != refusal || msg.JSON.Content.Raw() != respjson.Null || resp.Choices[0].FinishReason != "stop" {
		t.Errorf("message = refusal %q, content %s, finish %q; want refusal %q, content null, stop",
			msg.Refusal, msg.JSON.Content.Raw(), resp.Choices[0].FinishReason, refusal)
	}

	acc, deltas := e2e.ReadChatStream(t, client.Chat.Completions.NewStreaming(ctx, e2e.UserTurn(e2e.ReplyModel, "How do I pick a lock?")))
	if got := acc.Choices[0].Message; got.Refusal != refusal || got.Content != "" || len(deltas) != 0 {
		t.Errorf("streamed message = refusal %q, content %q (deltas %q); want refusal %q and no content",
			got.Refusal, got.Content, deltas, refusal)
	}

	goResp, err := goOpenAIClient(sess).CreateChatCompletion(ctx, goopenai.ChatCompletionRequest{Model: e2e.ReplyModel,
		Messages: []goopenai.ChatCompletionMessage{{Role: "user", Content: "How do I pick a lock?"}}})
	if err != nil {
		t.Fatal(err)
	}
	if got := goResp.Choices[0].Message; got.Refusal != refusal || got.Content != "" {
		t.Errorf("go-openai message = refusal %q content %q, want refusal %q", got.Refusal, got.Content, refusal)
	}
	for _, e := range e2e.JournalOf(t, sess, 3) {
		if e.Refusal != refusal || e.ReplyText != "" || e.Scenario != "refuse" {
			t.Errorf("journal entry refusal %q reply %q scenario %q, want the refusal from refuse and no text",
				e.Refusal, e.ReplyText, e.Scenario)
		}
	}
}

func TestScriptedErrors(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t)

	t.Run("openai-go retries a rate limit", func(t *testing.T) {
		t.Parallel()
		sess := srv.NewSession(t)
		sess.Chat("flaky").Reply(scenario.RateLimited()).Responds("after the retry")
		client := openai.NewClient(option.WithBaseURL(sess.BaseURL()), option.WithAPIKey("k"),
			option.WithHTTPClient(sess.HTTPClient())) // default retries
		resp, err := client.Chat.Completions.New(t.Context(), e2e.UserTurn(e2e.ReplyModel, "Hi"))
		if err != nil {
			t.Fatal(err)
		}
		if got := resp.Choices[0].Message.Content; got != "after the retry" {
			t.Errorf("content = %q", got)
		}
		e2e.CheckStatuses(t, sess, []int{429, 200}, []string{"rate_limit_exceeded", ""})
	})

	t.Run("openai-go retries a stream", func(t *testing.T) {
		t.Parallel()
		sess := srv.NewSession(t)
		sess.Chat("flaky").Reply(scenario.RateLimited()).Responds("streamed after the retry")
		client := openai.NewClient(option.WithBaseURL(sess.BaseURL()), option.WithAPIKey("k"),
			option.WithHTTPClient(sess.HTTPClient()))
		acc, _ := e2e.ReadChatStream(t, client.Chat.Completions.NewStreaming(t.Context(), e2e.UserTurn(e2e.ReplyModel, "Hi")))
		if got := acc.Choices[0].Message.Content; got != "streamed after the retry" {
			t.Errorf("content = %q", got)
		}
		e2e.CheckStatuses(t, sess, []int{429, 200}, []string{"rate_limit_exceeded", ""})
	})

	t.Run("openai-go sees the error and Retry-After", func(t *testing.T) {
		t.Parallel()
		sess := srv.NewSession(t)
		sess.Chat("flaky").Reply(scenario.RateLimited())
		client := e2e.ClientFor(sess, "k")
		_, err := client.Chat.Completions.New(t.Context(), e2e.UserTurn(e2e.ReplyModel, "Hi"))
		apiErr := e2e.OpenAIError(t, err)
		if apiErr.StatusCode != 429 || apiErr.Code != "rate_limit_exceeded" || apiErr.Type != "tokens" || apiErr.Message == "" {
			t.Errorf("error = %d %q %q %q, want 429 rate_limit_exceeded tokens with a message",
				apiErr.StatusCode, apiErr.Code, apiErr.Type, apiErr.Message)
		}
		if got := apiErr.Response.Header.Get("Retry-After"); got != "0" {
			t.Errorf("Retry-After = %q, want 0", got)
		}
	})

	t.Run("go-openai does not retry", func(t *testing.T) {
		t.Parallel()
		sess := srv.NewSession(t)
		sess.Chat("flaky").Reply(scenario.RateLimited()).Responds("second try")
		client := goOpenAIClient(sess)
		req := goopenai.ChatCompletionRequest{Model: e2e.ReplyModel, Messages: []goopenai.ChatCompletionMessage{{Role: "user", Content: "Hi"}}}
		_, err := client.CreateChatCompletion(t.Context(), req)
		var apiErr *goopenai.APIError
		if !errors.As(err, &apiErr) {
			t.Fatalf("err = %v (%T), want *APIError", err, err)
		}
		if apiErr.HTTPStatusCode != 429 || apiErr.Code != "rate_limit_exceeded" || apiErr.Type != "tokens" || apiErr.Message == "" {
			t.Errorf("error = %d %v %q %q, want 429 rate_limit_exceeded tokens", apiErr.HTTPStatusCode, apiErr.Code, apiErr.Type, apiErr.Message)
		}
		resp, err := client.CreateChatCompletion(t.Context(), req)
		if err != nil || resp.Choices[0].Message.Content != "second try" {
			t.Errorf("the caller's own retry got %+v, %v", resp.Choices, err)
		}
	})

	t.Run("server errors", func(t *testing.T) {
		t.Parallel()
		sess := srv.NewSession(t)
		sess.Chat("down").
			Fails(503, "", "The engine is overloaded.").
			Fails(500, "", "")
		client := e2e.ClientFor(sess, "k")
		_, err := client.Chat.Completions.New(t.Context(), e2e.UserTurn(e2e.ReplyModel, "Hi"))
		apiErr := e2e.OpenAIError(t, err)
		if apiErr.StatusCode != 503 || apiErr.Type != "server_error" || apiErr.Code != "" || apiErr.Message != "The engine is overloaded." {
			t.Errorf("error = %d %q %q %q, want 503 server_error, no code, the scripted message",
				apiErr.StatusCode, apiErr.Type, apiErr.Code, apiErr.Message)
		}
		_, err = goOpenAIClient(sess).CreateChatCompletion(t.Context(), goopenai.ChatCompletionRequest{Model: e2e.ReplyModel,
			Messages: []goopenai.ChatCompletionMessage{{Role: "user", Content: "Hi"}}})
		var goErr *goopenai.APIError
		if !errors.As(err, &goErr) || goErr.HTTPStatusCode != 500 || goErr.Type != "server_error" || goErr.Message == "" {
			t.Errorf("go-openai err = %#v, want 500 server_error with a message", err)
		}
		e2e.CheckStatuses(t, sess, []int{503, 500}, []string{"server_error", "server_error"})
	})

	t.Run("fail twice then answer", func(t *testing.T) {
		t.Parallel()
		sess := srv.NewSession(t)
		overloaded := scenario.Reply{Error: &scenario.Error{Status: 503, Headers: map[string]string{"Retry-After": "0"}}}
		sess.Chat("overloaded").Reply(overloaded).Times(2).Then("third time lucky")
		client := openai.NewClient(option.WithBaseURL(sess.BaseURL()), option.WithAPIKey("k"),
			option.WithHTTPClient(sess.HTTPClient()))
		resp, err := client.Chat.Completions.New(t.Context(), e2e.UserTurn(e2e.ReplyModel, "Hi"))
		if err != nil {
			t.Fatal(err)
		}
		if got := resp.Choices[0].Message.Content; got != "third time lucky" {
			t.Errorf("content = %q", got)
		}
		e2e.CheckStatuses(t, sess, []int{503, 503, 200}, []string{"server_error", "server_error", ""})
	})
}
