package anthropic_test

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/llmtestserver/llmtestserver/internal/e2e"
	"github.com/llmtestserver/llmtestserver/llmtest"
)

// The version and beta headers Anthropic's SDKs send are journaled, and
// never required.
func TestAnthropicVersionAndBetasJournaled(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t)
	sess := srv.NewSession(t)
	sess.Chat("hi").Responds("hello").Repeat()
	url := sess.AnthropicBaseURL() + "/v1/messages"
	with := e2e.Call(t, srv.Client(), "POST", url, e2e.MessagesBody, append(e2e.SelectorOf(sess), "anthropic-version", "2026-10-21",
		"anthropic-beta", "context-1m-2025-08-07, fine-grained-tool-streaming-2025-05-14", "anthropic-beta", "extra")...)
	require.Equal(t, http.StatusOK, with.Status, "body %s", with.Body)
	without := e2e.Call(t, srv.Client(), "POST", url, e2e.MessagesBody, e2e.SelectorOf(sess)...)
	require.Equal(t, http.StatusOK, without.Status, "body %s", without.Body)

	entries := sess.Journal().Entries()
	require.Len(t, entries, 2)
	assert.Equal(t, "2026-10-21", entries[0].APIVersion)
	assert.Equal(t, []string{"context-1m-2025-08-07", "fine-grained-tool-streaming-2025-05-14", "extra"}, entries[0].Betas)
	assert.Empty(t, entries[1].APIVersion)
	assert.Empty(t, entries[1].Betas)
}
