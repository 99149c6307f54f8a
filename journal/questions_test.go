package journal_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/llmtestserver/llmtestserver/journal"
)

// record returns a journal holding entries, in order.
func record(entries ...journal.Entry) *journal.Journal {
	j := journal.New(100, 1<<20)
	for _, e := range entries {
		j.Record(e)
	}
	return j.Journal
}

// turn is a chat request of conversation at turn, as the server journals
// it.
func turn(conversation string, n int, user string) journal.Entry {
	return journal.Entry{Method: "POST", Path: "/v1/chat/completions", Status: 200, Model: "gpt-4.1-mini",
		Conversation: conversation, Generation: 1, Turn: n, UserText: user,
		Request: journal.Request{System: "You are terse.", Messages: []journal.Message{{Role: "user", Text: user}}}}
}

func TestPromptCacheKeys(t *testing.T) {
	a1, a2, b1, a3 := turn("a", 1, "hi"), turn("a", 2, "more"), turn("b", 1, "hi"), turn("a", 3, "end")
	a1.PromptCacheKey, a2.PromptCacheKey, b1.PromptCacheKey = "agent-a", "agent-a", "agent-b"
	refused := journal.Entry{Method: "POST", Path: "/v1/chat/completions", Status: 401, PromptCacheKey: "agent-a"}
	j := record(a1, refused, a2, b1, a3)

	assert.Equal(t, []string{"agent-a", "agent-a", ""}, j.PromptCacheKeys("a"), "a3 carried none")
	assert.Equal(t, []string{"agent-b"}, j.PromptCacheKeys("b"))
	assert.Equal(t, []string{"agent-a", "agent-a", "agent-b", ""}, j.PromptCacheKeys(""), "every conversation, the refused request apart")
	assert.Nil(t, j.PromptCacheKeys("c"))
}

func TestSystemPrompts(t *testing.T) {
	first, second, forgot := turn("a", 1, "hi"), turn("a", 2, "more"), turn("a", 3, "end")
	second.Request.System = "You are verbose."
	forgot.Request.System = ""
	again := turn("b", 1, "hi")
	embeddings := journal.Entry{Method: "POST", Path: "/v1/embeddings", Status: 200, Endpoint: "embeddings"}
	refused := journal.Entry{Method: "POST", Path: "/v1/chat/completions", Status: 401}

	assert.Equal(t, []string{"You are terse.", "You are verbose.", ""},
		record(first, embeddings, second, refused, forgot, again).SystemPrompts())
	assert.Equal(t, []string{"You are terse."}, record(first, again, refused).SystemPrompts())
	assert.Nil(t, record(embeddings, refused).SystemPrompts())
}

func TestToolsOffered(t *testing.T) {
	ask, result, next := turn("a", 1, "weather?"), turn("a", 1, "weather?"), turn("a", 2, "thanks")
	ask.Request.Tools = []string{"get_weather", "search"}
	result.Request.Tools = []string{"search", "get_time"}
	other := turn("b", 1, "weather?")
	other.Request.Tools = []string{"book_flight"}
	j := record(ask, other, result, next)

	assert.Equal(t, []string{"get_weather", "search", "get_time"}, j.ToolsOffered("a", 1), "every request of the turn, in the order first offered")
	assert.Nil(t, j.ToolsOffered("a", 2), "the turn offered none")
	assert.Nil(t, j.ToolsOffered("a", 3), "no such turn")
	assert.Equal(t, []string{"get_weather", "search", "book_flight", "get_time"}, j.ToolsOffered("", 1))
	assert.Equal(t, []string{"book_flight"}, j.ToolsOffered("b", 1))
}

func TestMaxRetriesFromRetryCount(t *testing.T) {
	var tries []journal.Entry
	for n := range 3 {
		e := turn("a", 1, "hi")
		e.Status, e.Client.RetryCount = 500, n
		e.BodyBytes = int64(100 + n) // bodies that differ: the count alone tells the retries
		tries = append(tries, e)
	}
	j := record(tries...)
	assert.Equal(t, 2, j.MaxRetries())
	over := j.RetriedMoreThan(1)
	require.Len(t, over, 1)
	assert.Equal(t, uint64(3), over[0].Seq)
	assert.Empty(t, j.RetriedMoreThan(2))
}

// Clients that announce no retry count (go-openai, a loop of the agent)
// are seen retrying when they send the same request again.
func TestMaxRetriesFromIdenticalRequests(t *testing.T) {
	failed := turn("", 0, "hi")
	failed.Status, failed.ErrorCode, failed.Body, failed.BodyBytes = 429, "rate_limit_exceeded", `{"model":"gpt-4.1-mini"}`, 24
	answered := turn("a", 1, "hi")
	answered.Body, answered.BodyBytes = failed.Body, failed.BodyBytes
	different := answered
	different.Request.System = "You are verbose."
	getOnce := journal.Entry{Method: "GET", Path: "/v1/models", Status: 200}

	assert.Equal(t, 2, record(failed, failed, answered).MaxRetries(), "status and conversation differ, the request does not")
	assert.Equal(t, 1, record(failed, answered, different, different).MaxRetries(), "another system prompt is another request")
	assert.Equal(t, 0, record(getOnce, getOnce, getOnce).MaxRetries(), "requests without a body or a message are not compared")
	assert.Equal(t, 0, record().MaxRetries())

	j := record(failed, failed, failed, answered, different)
	over := j.RetriedMoreThan(2)
	require.Len(t, over, 1)
	assert.Equal(t, uint64(4), over[0].Seq)
	assert.Equal(t, 200, over[0].Status)
}

func TestTotalTokens(t *testing.T) {
	one, two, replay := turn("a", 1, "hi"), turn("a", 2, "more"), turn("a", 2, "more")
	one.Usage = journal.Usage{Input: 1200, CacheRead: 0, CacheWrite: 1100, Output: 40, Reasoning: 16}
	two.Usage = journal.Usage{Input: 1300, CacheRead: 1152, Output: 60}
	replay.Usage, replay.Replay = two.Usage, true
	refused := journal.Entry{Method: "POST", Path: "/v1/chat/completions", Status: 401}

	got := record(one, refused, two, replay).TotalTokens()
	assert.Equal(t, journal.Usage{Input: 2500, CacheRead: 1152, CacheWrite: 1100, Output: 100, Reasoning: 16}, got)
	assert.Equal(t, 2600, got.Total())
	assert.Equal(t, journal.Usage{}, record().TotalTokens())
}
