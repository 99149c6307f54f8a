package llmtest_test

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/llmtestserver/llmtestserver/internal/e2e"
	"github.com/llmtestserver/llmtestserver/internal/tokens"
	"github.com/llmtestserver/llmtestserver/llmtest"
	"github.com/llmtestserver/llmtestserver/session"
	"github.com/openai/openai-go/v3"
)

// WithStream sets the tokens per content chunk: 3 gives a third of the
// chunks of the default 1.
func TestStreamTokensPerChunk(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t)
	const text = "The quick brown fox jumps over the lazy dog while the cat sleeps in the warm afternoon sun."
	n := tokens.Count(e2e.ReplyModel, text)
	for _, per := range []int{1, 3} {
		t.Run(fmt.Sprint(per), func(t *testing.T) {
			t.Parallel()
			sess := srv.NewSession(t, session.WithStream(per, 0, 0))
			sess.Chat("s").Responds(text)
			client := e2e.ClientFor(sess, "k")
			acc, deltas := e2e.ReadChatStream(t, client.Chat.Completions.NewStreaming(t.Context(), e2e.UserTurn(e2e.ReplyModel, "Hi")))
			if got := acc.Choices[0].Message.Content; got != text {
				t.Fatalf("content = %q", got)
			}
			if want := (n + per - 1) / per; len(deltas) != want {
				t.Errorf("%d content chunks for %d tokens at %d per chunk, want %d: %q", len(deltas), n, per, want, deltas)
			}
			if per == 1 {
				for i, d := range deltas {
					if got := tokens.Count(e2e.ReplyModel, d); got != 1 {
						t.Errorf("chunk %d %q holds %d tokens, want 1", i, d, got)
					}
				}
			}
		})
	}
}

// A paced stream holds its first chunk back for the time to first token.
// Only that lower bound is asserted: timing above it depends on the machine.
func TestPacedStreamHoldsTheFirstChunk(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t)
	const ttft = 30 * time.Millisecond
	sess := srv.NewSession(t, session.WithStream(1, ttft, 0))
	sess.Chat("s").Responds("Paced, but all of it arrives.")
	client := e2e.ClientFor(sess, "k")
	start := time.Now()
	s := client.Chat.Completions.NewStreaming(t.Context(), e2e.UserTurn(e2e.ReplyModel, "Hi"))
	defer s.Close()
	if !s.Next() {
		t.Fatalf("no first chunk: %v", s.Err())
	}
	if elapsed := time.Since(start); elapsed < ttft {
		t.Errorf("first chunk after %v, want at least %v", elapsed, ttft)
	}
	var acc openai.ChatCompletionAccumulator
	acc.AddChunk(s.Current())
	for s.Next() {
		acc.AddChunk(s.Current())
	}
	if err := s.Err(); err != nil {
		t.Fatal(err)
	}
	if got := acc.Choices[0].Message.Content; got != "Paced, but all of it arrives." {
		t.Errorf("content = %q", got)
	}
}

// A client that gives up before its reply is delivered puts the reply back
// at the head of its queue, and its retry gets that same reply.
func TestCancelledReplyGoesToTheRetry(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t)

	t.Run("held back", func(t *testing.T) {
		t.Parallel()
		sess := srv.NewSession(t)
		// The delay only has to outlast the cancellation below, which
		// happens as soon as the request holds the reply.
		sess.Chat("slow").RespondsAfter(time.Second, "worth the wait").Then("second reply")
		client := e2e.ClientFor(sess, "k")
		ctx, cancel := context.WithCancel(t.Context())
		errc := make(chan error, 1)
		go func() {
			_, err := client.Chat.Completions.New(ctx, e2e.UserTurn(e2e.ReplyModel, "Hi"))
			errc <- err
		}()
		e2e.Eventually(t, "the request holds the reply", func() bool { return sess.Pending() == 1 })
		cancel()
		if err := <-errc; !errors.Is(err, context.Canceled) {
			t.Fatalf("cancelled call: %v, want context.Canceled", err)
		}
		retryGetsTheReply(t, sess, client, false, "worth the wait")
	})

	t.Run("mid-stream", func(t *testing.T) {
		t.Parallel()
		// 20 tokens a second: the rest of the stream takes about a second
		// after the first chunk, far longer than the cancellation.
		sess := srv.NewSession(t, session.WithStream(1, 0, 20))
		const text = "one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen"
		sess.Chat("slow").Responds(text).Then("second reply")
		client := e2e.ClientFor(sess, "k")
		ctx, cancel := context.WithCancel(t.Context())
		s := client.Chat.Completions.NewStreaming(ctx, e2e.UserTurn(e2e.ReplyModel, "Hi"))
		if !s.Next() {
			t.Fatalf("no first chunk: %v", s.Err())
		}
		cancel()
		for s.Next() {
		}
		if err := s.Err(); !errors.Is(err, context.Canceled) {
			t.Errorf("cancelled stream: %v, want context.Canceled", err)
		}
		s.Close()
		retryGetsTheReply(t, sess, client, true, text)
	})
}

// retryGetsTheReply waits until the cancelled request is journaled (by then
// its reply is back in the queue), retries and expects want.
func retryGetsTheReply(t *testing.T, sess *session.Session, client openai.Client, stream bool, want string) {
	t.Helper()
	entries := e2e.JournalOf(t, sess, 1)
	if e := entries[0]; e.Status != 499 || e.ReplyText != "" || e.Scenario != "slow" {
		t.Errorf("cancelled request journaled as %d %q from %q, want 499 with no reply text from slow", e.Status, e.ReplyText, e.Scenario)
	}
	if got := sess.Pending(); got != 2 {
		t.Errorf("Pending after the cancel = %d, want 2", got)
	}
	var got string
	if stream {
		acc, _ := e2e.ReadChatStream(t, client.Chat.Completions.NewStreaming(t.Context(), e2e.UserTurn(e2e.ReplyModel, "Hi")))
		got = acc.Choices[0].Message.Content
	} else {
		resp, err := client.Chat.Completions.New(t.Context(), e2e.UserTurn(e2e.ReplyModel, "Hi"))
		if err != nil {
			t.Fatal(err)
		}
		got = resp.Choices[0].Message.Content
	}
	if got != want {
		t.Errorf("retry got %q, want the reply the cancelled request held, %q", got, want)
	}
	if e := e2e.JournalOf(t, sess, 2)[1]; e.Status != 200 || e.ReplyText != want {
		t.Errorf("retry journaled as %d %q", e.Status, e.ReplyText)
	}
}
