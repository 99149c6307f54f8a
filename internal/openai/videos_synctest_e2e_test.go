package openai_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"testing"
	"testing/synctest"
	"time"

	"github.com/openai/openai-go/v3"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/llmtestserver/llmtestserver/internal/e2e"
	"github.com/llmtestserver/llmtestserver/internal/sdkwarm"
	"github.com/llmtestserver/llmtestserver/llmtest"
	"github.com/llmtestserver/llmtestserver/scenario"
)

// warmVideos makes each videos call the bubble tests make (create, both
// ways, poll, download, list, remix, delete) outside any bubble, for the
// reason sdkwarm gives: the caches of openai-go's encoders and decoders
// of the video types are then built here.
func warmVideos() error {
	sess, done, err := sdkwarm.Session()
	if err != nil {
		return err
	}
	defer done()
	sess.Videos("warm").Reply(scenario.Job(scenario.JobPlan{Queued: -1, Running: -1})).Repeat()
	client := e2e.ClientFor(sess, "k")
	ctx := context.Background()
	v, err := client.Videos.NewAndPoll(ctx, openai.VideoNewParams{Prompt: "warm"}, 1)
	if err != nil {
		return fmt.Errorf("warm: video: %w", err)
	}
	resp, err := client.Videos.DownloadContent(ctx, v.ID, openai.VideoDownloadContentParams{})
	if err != nil {
		return fmt.Errorf("warm: video content: %w", err)
	}
	_, err = io.Copy(io.Discard, resp.Body)
	if err = errors.Join(err, resp.Body.Close()); err != nil {
		return fmt.Errorf("warm: video content: %w", err)
	}
	remix, err := client.Videos.Remix(ctx, v.ID, openai.VideoRemixParams{Prompt: "again"})
	if err != nil {
		return fmt.Errorf("warm: remix: %w", err)
	}
	pages := client.Videos.ListAutoPaging(ctx, openai.VideoListParams{Limit: openai.Int(1)})
	for pages.Next() {
	}
	if err := pages.Err(); err != nil {
		return fmt.Errorf("warm: video list: %w", err)
	}
	for _, id := range []string{v.ID, remix.ID} {
		if _, err := client.Videos.Delete(ctx, id); err != nil {
			return fmt.Errorf("warm: video delete: %w", err)
		}
	}
	return nil
}

// openai-go's NewAndPoll completes a video inside a synctest bubble with
// the in-memory server: it polls as openai-poll-after-ms tells it, on the
// bubble's clock, so the video's seconds take no real time; then the
// content is downloaded. Not parallel: its warm-up runs before any other
// test of the package uses the video types (see warmVideos).
func TestVideoNewAndPollInASynctestBubble(t *testing.T) {
	require.NoError(t, warmVideos())
	realStart := time.Now()
	var virtual time.Duration
	synctest.Test(t, func(t *testing.T) {
		start := time.Now()
		sess := llmtest.NewServer(t, llmtest.WithInMemory()).NewSession(t)
		client := e2e.ClientFor(sess, "k")
		v, err := client.Videos.NewAndPoll(t.Context(), openai.VideoNewParams{Prompt: "A lighthouse at dusk", Seconds: openai.VideoSeconds4}, 0)
		require.NoError(t, err)
		virtual = time.Since(start)
		assert.Equal(t, openai.VideoStatusCompleted, v.Status)
		assert.Equal(t, int64(100), v.Progress)
		assert.Equal(t, 5*time.Second, virtual, "the default plan: polled at each of its changes")
		resp, err := client.Videos.DownloadContent(t.Context(), v.ID, openai.VideoDownloadContentParams{})
		require.NoError(t, err)
		b, err := io.ReadAll(resp.Body)
		require.NoError(t, errors.Join(err, resp.Body.Close()))
		assert.Equal(t, "ftyp", string(b[4:8]))
		polls := len(sess.Journal().Entries()) - 2 // less the create and the download
		// The first poll at once (queued, hinting 1000 ms: the SDK reads
		// the hint of its first poll only), then one a second: in
		// progress at 0, 25, 50 and 75, then completed.
		assert.Equal(t, 6, polls)
	})
	t.Logf("virtual time %v, real time %v", virtual, time.Since(realStart))
}

// A video that queues a minute and runs ten, polled by NewAndPoll with
// the server's hint (capped at 8 s by the SDK): the longest video test,
// in virtual time.
func TestVideoTenMinutesInASynctestBubble(t *testing.T) {
	require.NoError(t, warmVideos())
	realStart := time.Now()
	var virtual time.Duration
	synctest.Test(t, func(t *testing.T) {
		start := time.Now()
		sess := llmtest.NewServer(t, llmtest.WithInMemory()).NewSession(t)
		sess.Videos("long").Reply(scenario.Job(scenario.JobPlan{Queued: time.Minute, Running: 10 * time.Minute, Steps: 10}))
		client := e2e.ClientFor(sess, "k")
		v, err := client.Videos.NewAndPoll(t.Context(), openai.VideoNewParams{Prompt: "A long take"}, 0)
		require.NoError(t, err)
		virtual = time.Since(start)
		assert.Equal(t, openai.VideoStatusCompleted, v.Status)
		assert.GreaterOrEqual(t, virtual, 11*time.Minute)
		assert.Less(t, virtual, 11*time.Minute+8*time.Second)
	})
	real := time.Since(realStart)
	t.Logf("virtual time %v, real time %v", virtual, real)
	assert.Less(t, real, 10*time.Second)
}
