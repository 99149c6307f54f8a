package llmtest_test

import (
	"fmt"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/llmtestserver/llmtestserver/internal/e2e"
	"github.com/llmtestserver/llmtestserver/llmtest"
)

// nextLine is the file:line after its caller's.
func nextLine() string {
	_, file, line, _ := runtime.Caller(1)
	return fmt.Sprintf("%s:%d", filepath.Base(file), line+1)
}

// The journal names the test line that scripted the reply which answered,
// through the builder's chain and a real SDK call.
func TestJournalNamesTheScriptingLine(t *testing.T) {
	t.Parallel()
	sess := llmtest.NewServer(t).NewSession(t)
	first := nextLine()
	sess.Chat("greeting").Responds("Hello")
	then := nextLine()
	sess.Chat("greeting").Then("Hello again")
	client := llmtest.OpenAIClient(sess)
	for range 2 {
		_, err := client.Chat.Completions.New(t.Context(), e2e.UserTurn("gpt-4.1-mini", "Hi"))
		require.NoError(t, err)
	}
	entries := sess.Journal().Entries()
	require.Len(t, entries, 2)
	assert.Equal(t, first, entries[0].ScriptedAt)
	assert.Equal(t, then, entries[1].ScriptedAt)
	assert.Equal(t, 1, entries[1].ReplyIndex)
}
