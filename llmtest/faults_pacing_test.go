package llmtest_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/llmtestserver/llmtestserver/clock"
	"github.com/llmtestserver/llmtestserver/internal/e2e"
	"github.com/llmtestserver/llmtestserver/llmtest"
	"github.com/llmtestserver/llmtestserver/scenario"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A reply's own pacing runs on the server's clock: on a fake clock, each
// chunk arrives only once the test advances the clock past it, while the
// session's other replies stream at once.
func TestReplyPacingOnAFakeClock(t *testing.T) {
	t.Parallel()
	fake := clock.NewFake(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))
	srv := llmtest.NewServer(t, llmtest.WithClock(fake))
	sess := srv.NewSession(t)
	sess.Chat("slow").Reply(scenario.Text("one two three").Paced(2*time.Second, 1)).Responds("fast")
	client := e2e.ClientFor(sess, "k")

	var mu sync.Mutex
	var chunks []string
	ctx, streamDone := context.WithCancel(context.Background())
	var text string
	var err error
	go func() {
		defer streamDone()
		s := client.Chat.Completions.NewStreaming(context.Background(), e2e.UserTurn("gpt-4o-mini", "Hi"))
		defer s.Close()
		for s.Next() {
			if ch := s.Current(); len(ch.Choices) > 0 {
				mu.Lock()
				chunks = append(chunks, ch.Choices[0].Delta.Content)
				text += ch.Choices[0].Delta.Content
				mu.Unlock()
			}
		}
		err = s.Err()
	}()
	start := fake.Now()
	advances := 0
	for fake.WaitForTimers(ctx, 1) == nil {
		// The server waits for event number advances: the client can
		// have the events before it at most.
		mu.Lock()
		assert.LessOrEqual(t, len(chunks), advances)
		mu.Unlock()
		step := time.Second
		if advances == 0 {
			step = 2 * time.Second
		}
		fake.Advance(step)
		advances++
	}
	<-ctx.Done()
	require.NoError(t, err)
	assert.Equal(t, "one two three", text)
	// role, one, " two", " three", the finish chunk, then [DONE]: the time
	// to first token, and a second before each event after it.
	assert.Equal(t, 6, advances)
	assert.Equal(t, 7*time.Second, fake.Now().Sub(start))

	// The next reply has no pacing of its own, and the session's streams
	// are not paced: it arrives without the clock moving.
	got, err := e2e.OpenAIAPIs()[0].Call(context.Background(), client, true)
	require.NoError(t, err)
	assert.Equal(t, "fast", got)
}
