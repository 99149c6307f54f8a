package anthropicsdk_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"testing"

	"github.com/anthropics/anthropic-sdk-go/v2"

	"github.com/llmtestserver/llmtestserver/internal/leakcheck"
	"github.com/llmtestserver/llmtestserver/internal/sdkwarm"
	"github.com/llmtestserver/llmtestserver/scenario"
)

// TestMain makes the SDK's first requests outside any synctest bubble, then
// fails the package if any test leaves a goroutine behind, as the other
// packages of the compat module do.
func TestMain(m *testing.M) {
	if err := warmOutsideBubbles(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	leakcheck.VerifyTestMain(m)
}

// warmOutsideBubbles makes one request of each kind the synctest tests
// make (a message, a streamed message, an error, the Message Batches
// calls of warmBatches) outside any bubble, so
// that no bubble test builds one of the SDK's cached JSON encoders while a
// parallel test outside meets it: Go 1.26 crashes when a WaitGroup first
// used inside a bubble is waited on outside it. See the synctest section
// of the llmtest package documentation, and internal/sdkwarm, which does
// the same for openai-go.
func warmOutsideBubbles() error {
	sess, done, err := sdkwarm.Session()
	if err != nil {
		return err
	}
	defer done()
	sess.Chat("warm").When(scenario.UserContains("hi")).Responds("warm").Repeat()
	sess.Chat("refused").When(scenario.UserContains("refuse me")).
		Reply(scenario.Reply{Error: &scenario.Error{Kind: scenario.ErrorRateLimit}})
	client := clientFor(sess, "k", 0)
	ctx := context.Background()
	if _, err := client.Messages.New(ctx, userTurn("hi")); err != nil {
		return fmt.Errorf("warm: message: %w", err)
	}
	stream := client.Messages.NewStreaming(ctx, userTurn("hi"))
	var msg anthropic.Message
	for stream.Next() {
		if err := msg.Accumulate(stream.Current()); err != nil {
			return fmt.Errorf("warm: accumulate: %w", err)
		}
	}
	if err := errors.Join(stream.Err(), stream.Close()); err != nil {
		return fmt.Errorf("warm: stream: %w", err)
	}
	var apiErr *anthropic.Error
	if _, err := client.Messages.New(ctx, userTurn("refuse me")); !errors.As(err, &apiErr) {
		return fmt.Errorf("warm: want an API error, got %v", err)
	}
	return warmBatches(ctx, sess, client)
}
