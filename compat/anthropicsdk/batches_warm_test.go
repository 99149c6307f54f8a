package anthropicsdk_test

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/anthropics/anthropic-sdk-go/v2"

	"github.com/llmtestserver/llmtestserver/scenario"
	"github.com/llmtestserver/llmtestserver/session"
)

// warmBatches makes each Message Batches call the synctest tests make
// (create, get, list, cancel, results, delete) outside any bubble, for
// the reason warmOutsideBubbles gives: the SDK's encoders of the batch
// params and the server's of the batch objects are then built here. The
// session's "warm" scenario answers the lines; its own batch scenarios
// end the first batch at once and keep the second queued.
func warmBatches(ctx context.Context, sess *session.Session, client anthropic.Client) error {
	sess.Batches("warm ends at once").When(scenario.UserContains("req-")).
		Reply(scenario.Job(scenario.JobPlan{Queued: -1, Running: -1}), scenario.Job(scenario.JobPlan{Queued: time.Hour}))
	done, err := client.Messages.Batches.New(ctx, batchOf("hi"))
	if err != nil {
		return fmt.Errorf("warm: batch: %w", err)
	}
	stream := client.Messages.Batches.ResultsStreaming(ctx, done.ID, anthropic.MessageBatchResultsParams{})
	for stream.Next() {
		_ = stream.Current().Result.AsSucceeded()
	}
	if err := errors.Join(stream.Err(), stream.Close()); err != nil {
		return fmt.Errorf("warm: batch results: %w", err)
	}
	queued, err := client.Messages.Batches.New(ctx, batchOf("hi"))
	if err != nil {
		return fmt.Errorf("warm: second batch: %w", err)
	}
	if _, err := client.Messages.Batches.Cancel(ctx, queued.ID, anthropic.MessageBatchCancelParams{}); err != nil {
		return fmt.Errorf("warm: batch cancel: %w", err)
	}
	if _, err := client.Messages.Batches.Get(ctx, queued.ID, anthropic.MessageBatchGetParams{}); err != nil {
		return fmt.Errorf("warm: batch get: %w", err)
	}
	pages := client.Messages.Batches.ListAutoPaging(ctx, anthropic.MessageBatchListParams{Limit: anthropic.Int(1)})
	for pages.Next() {
	}
	if err := pages.Err(); err != nil {
		return fmt.Errorf("warm: batch list: %w", err)
	}
	if _, err := client.Messages.Batches.Delete(ctx, done.ID, anthropic.MessageBatchDeleteParams{}); err != nil {
		return fmt.Errorf("warm: batch delete: %w", err)
	}
	return nil
}
