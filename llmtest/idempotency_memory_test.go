package llmtest_test

import (
	"fmt"
	goruntime "runtime"
	"testing"

	"github.com/llmtestserver/llmtestserver/internal/e2e"
	"github.com/llmtestserver/llmtestserver/llmtest"
	"github.com/llmtestserver/llmtestserver/session"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The heap the Idempotency-Key answers retain is bounded by
// idempotency.max_bytes: 128 answers of 64 KiB under distinct keys keep
// about 1 MiB, not 8, and the newest are the ones kept.
func TestIdempotencyStoreRetainsAtMostItsMaxBytes(t *testing.T) {
	if testing.Short() {
		t.Skip("heap measurement")
	}
	const (
		requests     = 128
		answerBytes  = 64 << 10
		storeBytes   = 1 << 20
		journalBytes = 64 << 10
	)
	srv := llmtest.NewServer(t)
	sess := srv.NewSession(t, session.WithJournal(2, journalBytes), session.WithIdempotency(256, storeBytes))
	sess.Chat("any").Responds(e2e.BigText(answerBytes)).Repeat()
	client := e2e.ClientFor(sess, "k")
	params := e2e.UserTurn(e2e.ReplyModel, "Hello")
	_, err := client.Chat.Completions.New(t.Context(), params) // warm up: the text's tokens are cached
	require.NoError(t, err)

	before := e2e.LiveHeap()
	for i := range requests {
		_, err := client.Chat.Completions.New(t.Context(), params, withKey(fmt.Sprint("key-", i)))
		require.NoError(t, err)
	}
	growth := e2e.LiveHeap() - before
	t.Logf("%d answers of %d KiB under distinct keys: heap grew by %.2f MiB (idempotency.max_bytes %d MiB)",
		requests, answerBytes>>10, float64(growth)/(1<<20), storeBytes>>20)
	// The store keeps at most storeBytes, the journal two entries: allow
	// those, a factor of 2, and one answer in flight.
	if limit := int64(2*(storeBytes+journalBytes) + 2*answerBytes); growth > limit {
		t.Errorf("heap grew by %d bytes, want at most %d", growth, limit)
	}

	// The newest answer is kept, the oldest went.
	_, err = client.Chat.Completions.New(t.Context(), params, withKey(fmt.Sprint("key-", requests-1)))
	require.NoError(t, err)
	last, _ := sess.Journal().Last()
	assert.True(t, last.Replay, "the newest key replays")
	_, err = client.Chat.Completions.New(t.Context(), params, withKey("key-0"))
	require.NoError(t, err)
	last, _ = sess.Journal().Last()
	assert.False(t, last.Replay, "the oldest key was evicted")
	goruntime.KeepAlive(sess)
}

// An answer larger than idempotency.max_bytes by itself is delivered but
// not kept: a retry with its key uses the next reply.
func TestIdempotencyDoesNotKeepAnswersLargerThanItsBound(t *testing.T) {
	t.Parallel()
	sess := llmtest.NewServer(t).NewSession(t, session.WithIdempotency(4, 16<<10))
	sess.Chat("seq").Responds(e2e.BigText(32 << 10)).Then("small")
	client := e2e.ClientFor(sess, "k")
	params := e2e.UserTurn(e2e.ReplyModel, "Hello")
	_, err := client.Chat.Completions.New(t.Context(), params, withKey("big"))
	require.NoError(t, err)
	got, err := client.Chat.Completions.New(t.Context(), params, withKey("big"))
	require.NoError(t, err)
	assert.Equal(t, "small", got.Choices[0].Message.Content)
	assert.Equal(t, 0, sess.Pending())
}
