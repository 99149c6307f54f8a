package llmtest

import (
	"fmt"
	"strings"

	"github.com/llmtestserver/llmtestserver/journal"
	"github.com/llmtestserver/llmtestserver/session"
)

// CheckSameCacheKey fails t unless every request of each conversation of
// sess carried the same non-empty prompt_cache_key, the key that keeps
// an agent's turns on the provider's prompt cache. The error names each
// conversation that did not, with the entries that carried another key or
// none. Requests of no conversation (refused before the server read them,
// embeddings) and Anthropic's, whose API has no such key, are not
// checked; a session with nothing to check passes. It reports whether
// the check passed. For the keys themselves, see
// journal.Journal.PromptCacheKeys.
func CheckSameCacheKey(t TB, sess *session.Session) bool {
	t.Helper()
	var order []string
	byConversation := map[string][]journal.Entry{}
	for _, e := range sess.Journal().Entries() {
		if e.Conversation == "" || e.Provider == "anthropic" {
			continue
		}
		if _, ok := byConversation[e.Conversation]; !ok {
			order = append(order, e.Conversation)
		}
		byConversation[e.Conversation] = append(byConversation[e.Conversation], e)
	}
	ok := true
	for _, conv := range order {
		entries := byConversation[conv]
		want := ""
		for _, e := range entries {
			if e.PromptCacheKey != "" {
				want = e.PromptCacheKey
				break
			}
		}
		var off strings.Builder
		for _, e := range entries {
			if e.PromptCacheKey != want || want == "" {
				fmt.Fprintf(&off, "\n\t#%d %s turn %d prompt_cache_key %q", e.Seq, e.Path, e.Turn, e.PromptCacheKey)
			}
		}
		if off.Len() == 0 {
			continue
		}
		ok = false
		if want == "" {
			t.Errorf("llmtest: session %s: conversation %q carried no prompt_cache_key, want the same one on every turn:%s",
				sess.ID(), conv, off.String())
			continue
		}
		t.Errorf("llmtest: session %s: conversation %q carried prompt_cache_key %q, want it on every turn, got:%s",
			sess.ID(), conv, want, off.String())
	}
	return ok
}

// CheckMaxRetries fails t if any request of sess was retried more than n
// times, counted as journal.Journal.MaxRetries counts them (the SDK's
// announced retry count, or the same request sent again in a row), and
// names the attempts past the n-th retry. It reports whether the check
// passed.
func CheckMaxRetries(t TB, sess *session.Session, n int) bool {
	t.Helper()
	over := sess.Journal().RetriedMoreThan(n)
	if len(over) == 0 {
		return true
	}
	var b strings.Builder
	for _, e := range over {
		fmt.Fprintf(&b, "\n\t#%d %s %s -> %d model %q user %q retry_count %d",
			e.Seq, e.Method, e.Path, e.Status, e.Model, e.UserText, e.Client.RetryCount)
	}
	t.Errorf("llmtest: session %s: a request was retried %d time(s), want at most %d; the attempts past the limit:%s",
		sess.ID(), sess.Journal().MaxRetries(), n, b.String())
	return false
}
