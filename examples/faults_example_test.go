package examples_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log"
	"net/http"
	"time"

	"github.com/llmtestserver/llmtestserver/clock"
	"github.com/llmtestserver/llmtestserver/llmtest"
	"github.com/llmtestserver/llmtestserver/scenario"
	"github.com/llmtestserver/llmtestserver/session"
	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
)

// hello is a one-message chat request.
var hello = openai.ChatCompletionNewParams{
	Model:    "gpt-4.1-mini",
	Messages: []openai.ChatCompletionMessageParamUnion{openai.UserMessage("Hello")},
}

// "Fail twice, then answer" is one scenario: faults are replies. The
// connection drops before any byte, twice; openai-go retries connection
// errors by itself (twice by default), so the call succeeds, and the
// journal shows each attempt.
func Example_failTwiceThenAnswer() {
	srv, err := llmtest.New()
	if err != nil {
		log.Fatal(err)
	}
	defer srv.Close()
	sess, err := srv.OpenSession()
	if err != nil {
		log.Fatal(err)
	}
	defer sess.Close()
	sess.Chat("flaky").Drops().Drops().Responds("Third time lucky")

	client := newClient(sess, "provider-key") // openai-go's default retries
	completion, err := client.Chat.Completions.New(context.Background(), hello)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("reply:", completion.Choices[0].Message.Content)
	for _, e := range sess.Journal().Entries() {
		fmt.Printf("attempt %d: status %d, fault %q\n", e.Seq, e.Status, e.Fault)
	}
	fmt.Println("faults:", sess.Assertions().Faults)
	// Output:
	// reply: Third time lucky
	// attempt 1: status 0, fault "drop"
	// attempt 2: status 0, fault "drop"
	// attempt 3: status 200, fault ""
	// faults: map[drop:2]
}

// Rate limits run on the server's clock, here a fake one the example
// advances: two requests a minute, so the third is refused with 429 and a
// Retry-After, and passes once the clock has moved on by that much.
func Example_rateLimitsOnAFakeClock() {
	fake := clock.NewFake(time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC))
	srv, err := llmtest.New(llmtest.WithClock(fake))
	if err != nil {
		log.Fatal(err)
	}
	defer srv.Close()
	sess, err := srv.OpenSession(session.WithRateLimits(2, 0))
	if err != nil {
		log.Fatal(err)
	}
	defer sess.Close()
	sess.Chat("answers").Responds("Hello").Repeat()

	// The SDK's own retries would sleep in real time, where the fake clock
	// never moves: the example retries itself.
	client := newClient(sess, "provider-key")
	call := func() {
		var resp *http.Response
		_, err := client.Chat.Completions.New(context.Background(), hello,
			option.WithMaxRetries(0), option.WithResponseInto(&resp))
		var apiErr *openai.Error
		switch {
		case errors.As(err, &apiErr):
			fmt.Printf("%d %s, Retry-After: %s\n", apiErr.StatusCode, apiErr.Code, resp.Header.Get("Retry-After"))
		case err != nil:
			log.Fatal(err)
		default:
			fmt.Printf("200, remaining requests: %s\n", resp.Header.Get("x-ratelimit-remaining-requests"))
		}
	}
	call()
	call()
	call()
	fake.Advance(30 * time.Second)
	call()
	// Output:
	// 200, remaining requests: 1
	// 200, remaining requests: 0
	// 429 rate_limit_exceeded, Retry-After: 30
	// 200, remaining requests: 0
}

// A stream cut after two events ends in an unexpected EOF, which the SDK
// reports as the stream's error rather than as a clean end; the session
// counts the fault.
func Example_cutStream() {
	srv, err := llmtest.New()
	if err != nil {
		log.Fatal(err)
	}
	defer srv.Close()
	sess, err := srv.OpenSession()
	if err != nil {
		log.Fatal(err)
	}
	defer sess.Close()
	sess.Chat("story").Reply(scenario.Text("Once upon a time, a stream broke.").CutAfter(2))

	client := newClient(sess, "provider-key")
	stream := client.Chat.Completions.NewStreaming(context.Background(), hello)
	var text string
	for stream.Next() {
		if c := stream.Current(); len(c.Choices) > 0 {
			text += c.Choices[0].Delta.Content
		}
	}
	err = stream.Err()
	stream.Close()
	fmt.Printf("received %q\n", text)
	fmt.Println("error:", err != nil)
	fmt.Println("unexpected EOF:", errors.Is(err, io.ErrUnexpectedEOF))
	fmt.Println("cut faults:", sess.Assertions().Faults["cut"])
	// Output:
	// received "Once"
	// error: true
	// unexpected EOF: true
	// cut faults: 1
}
