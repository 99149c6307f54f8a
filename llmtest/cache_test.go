package llmtest_test

import (
	"context"
	"strings"
	"testing"

	"github.com/llmtestserver/llmtestserver/internal/e2e"
	"github.com/llmtestserver/llmtestserver/llmtest"
	"github.com/openai/openai-go/v3"
)

// A conversation with a long, stable prefix and a stable prompt_cache_key
// sees cache hits from turn 2 on, in the real API's 1024 + 128·n steps; a
// new key starts cold.
func TestPromptCachingAcrossTurns(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t)
	sess := srv.NewSession(t)
	sess.Chat("talk").Responds("First answer.").Repeat()
	client := e2e.ClientFor(sess, "k")
	system := strings.Repeat("You are a careful assistant who reads every policy line. ", 120) // about 1,300 tokens
	history := []openai.ChatCompletionMessageParamUnion{openai.SystemMessage(system), openai.UserMessage("Turn one?")}
	ask := func(key string) openai.CompletionUsage {
		t.Helper()
		resp, err := client.Chat.Completions.New(context.Background(), openai.ChatCompletionNewParams{
			Model: "gpt-4.1-mini", Messages: history, PromptCacheKey: openai.String(key),
		})
		if err != nil {
			t.Fatal(err)
		}
		return resp.Usage
	}
	u1 := ask("agent-7")
	if u1.PromptTokens < 1100 || u1.PromptTokensDetails.CachedTokens != 0 {
		t.Fatalf("turn 1: prompt %d, cached %d; want a long prompt and no cache hit", u1.PromptTokens, u1.PromptTokensDetails.CachedTokens)
	}
	history = append(history, openai.AssistantMessage("First answer."), openai.UserMessage("Turn two?"))
	u2 := ask("agent-7")
	cached := u2.PromptTokensDetails.CachedTokens
	if cached < 1024 || (cached-1024)%128 != 0 || cached > u1.PromptTokens {
		t.Errorf("turn 2: cached %d of %d; want the shared prefix on the 1024+128n grid, at most turn 1's %d",
			cached, u2.PromptTokens, u1.PromptTokens)
	}
	if u3 := ask("another-key"); u3.PromptTokensDetails.CachedTokens != 0 {
		t.Errorf("a new prompt_cache_key: cached %d, want 0", u3.PromptTokensDetails.CachedTokens)
	}
	entries := sess.Journal().Entries()
	for _, e := range entries[:2] {
		if e.PromptCacheKey != "agent-7" {
			t.Errorf("journal prompt_cache_key = %q, want agent-7", e.PromptCacheKey)
		}
	}
	// The journal tells the same in the words of every provider.
	for i, want := range []openai.CompletionUsage{u1, u2} {
		e := entries[i]
		if e.Provider != "openai" || e.Usage.Input != int(want.PromptTokens) ||
			e.Usage.CacheRead != int(want.PromptTokensDetails.CachedTokens) || e.Usage.Output != int(want.CompletionTokens) {
			t.Errorf("journal entry %d: provider %q usage %+v, want openai with the answer's usage %+v", i+1, e.Provider, e.Usage, want)
		}
	}
}
