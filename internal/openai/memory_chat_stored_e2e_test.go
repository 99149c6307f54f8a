package openai_test

import (
	goruntime "runtime"
	"testing"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/shared"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/llmtestserver/llmtestserver/internal/e2e"
	"github.com/llmtestserver/llmtestserver/llmtest"
	"github.com/llmtestserver/llmtestserver/session"
)

// The heap that stored chat completions retain is bounded by the history's
// max_bytes, whatever their messages and metadata: 64 completions of
// 256 KiB messages keep about 1 MiB, not 16. The journal is kept small so
// that only the history is measured.
func TestChatStoredRetainsAtMostTheHistoryMaxBytes(t *testing.T) {
	if testing.Short() {
		t.Skip("heap measurement")
	}
	const (
		requests     = 64
		inputBytes   = 256 << 10
		historyBytes = 1 << 20
		journalBytes = 64 << 10
	)
	srv := llmtest.NewServer(t)
	sess := srv.NewSession(t, session.WithJournal(2, journalBytes), session.WithHistoryMaxBytes(historyBytes))
	sess.Chat("any").Responds("ok").Repeat()
	client := e2e.ClientFor(sess, "k")
	input := e2e.BigText(inputBytes)
	metadata := shared.Metadata{}
	for _, k := range []string{"a", "b", "c", "d", "e", "f", "g", "h"} {
		metadata[k] = e2e.BigText(512)
	}
	store := func() *openai.ChatCompletion {
		params := openai.ChatCompletionNewParams{Model: csModel, Store: openai.Bool(true), Metadata: metadata,
			Messages: []openai.ChatCompletionMessageParamUnion{
				openai.SystemMessage(input[:inputBytes/4]),
				openai.UserMessage(input),
			}}
		c, err := client.Chat.Completions.New(t.Context(), params)
		require.NoError(t, err)
		return c
	}
	store() // warm up

	before := e2e.LiveHeap()
	var last *openai.ChatCompletion
	for range requests {
		last = store()
	}
	growth := e2e.LiveHeap() - before
	t.Logf("%d stored completions of %d KiB messages: heap grew by %.2f MiB (history.max_bytes %d MiB)",
		requests, inputBytes>>10, float64(growth)/(1<<20), historyBytes>>20)
	// As for stored responses: the history keeps at most historyBytes, the
	// journal two entries that may reference their prompts; allow those
	// and a factor of 2.
	assert.LessOrEqual(t, growth, int64(2*(historyBytes+journalBytes)+2*inputBytes))

	got, err := client.Chat.Completions.Get(t.Context(), last.ID)
	require.NoError(t, err, "the newest is kept")
	assert.Equal(t, last.ID, got.ID)
	page, err := client.Chat.Completions.List(t.Context(), openai.ChatCompletionListParams{Limit: openai.Int(100)})
	require.NoError(t, err)
	assert.Less(t, len(page.Data), 5, "a 1 MiB history holds at most three of these")
	goruntime.KeepAlive(sess)
}
