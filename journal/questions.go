package journal

import "reflect"

// The questions agent tests ask of a journal, answered with plain values
// (strings, slices, ints, a Usage) that testify's require.Equal and
// assert.LessOrEqual compare and print as readable diffs. Each reads the
// entries the journal keeps now: evicted entries are no longer asked.

// PromptCacheKeys returns the prompt_cache_key each request of
// conversation carried, in the order sent, "" for a request that carried
// none; conversation "" asks every request that belongs to a
// conversation. An agent that reuses the provider's prompt cache sends
// the same non-empty key on every turn:
//
//	require.Equal(t, []string{"agent-7", "agent-7", "agent-7"}, j.PromptCacheKeys("alice"))
//
// A request belongs to its conversation once the server has read it: one
// refused before (a bad key, a rate limit) has no conversation and is
// not asked.
func (j *Journal) PromptCacheKeys(conversation string) []string {
	var keys []string
	for _, e := range j.Entries() {
		if inConversation(&e, conversation) {
			keys = append(keys, e.PromptCacheKey)
		}
	}
	return keys
}

// SystemPrompts returns the distinct system prompts the session's
// conversational requests sent (Request.System: system and developer
// messages, or instructions), in the order first sent. A request with
// messages but no system prompt counts as "", so an agent that forgets
// its prompt on some turn shows up in
//
//	require.Equal(t, []string{"You are a travel agent."}, j.SystemPrompts())
//
// Requests whose messages the journal did not record (refused before the
// server read them, embeddings) are not asked.
func (j *Journal) SystemPrompts() []string {
	var prompts []string
	seen := map[string]bool{}
	for _, e := range j.Entries() {
		if len(e.Request.Messages) == 0 && e.Request.System == "" {
			continue
		}
		if !seen[e.Request.System] {
			seen[e.Request.System] = true
			prompts = append(prompts, e.Request.System)
		}
	}
	return prompts
}

// ToolsOffered returns the names of the tools offered to the model at
// turn of conversation (conversation "" asks every conversation), in the
// order first offered. A turn counts the user messages (see Entry.Turn),
// so it holds every request of one user message: the first call and the
// calls that bring tool results back, whose offers the result joins. It
// is nil when no request of that turn offered a tool, or when there was
// no such turn.
func (j *Journal) ToolsOffered(conversation string, turn int) []string {
	var tools []string
	seen := map[string]bool{}
	for _, e := range j.Entries() {
		if !inConversation(&e, conversation) || e.Turn != turn {
			continue
		}
		for _, name := range e.Request.Tools {
			if !seen[name] {
				seen[name] = true
				tools = append(tools, name)
			}
		}
	}
	return tools
}

// MaxRetries returns the most times any one request was retried: the
// largest retry count an SDK announced (Client.RetryCount, openai-go's
// and anthropic-sdk-go's X-Stainless-Retry-Count), or the longest run of
// consecutive entries that sent the same request again, less one, for
// clients that announce nothing (go-openai, a loop of the code under
// test). Two identical requests in a row therefore count as a retry even
// when the code meant to ask twice. It is 0 for an empty journal.
//
//	assert.LessOrEqual(t, j.MaxRetries(), 2)
func (j *Journal) MaxRetries() int {
	most := 0
	for _, n := range retries(j.Entries()) {
		most = max(most, n)
	}
	return most
}

// RetriedMoreThan returns the entries that were a retry beyond the n-th of
// their request, as MaxRetries counts them, in the order sent: empty when
// no request was retried more than n times.
func (j *Journal) RetriedMoreThan(n int) []Entry {
	entries := j.Entries()
	var over []Entry
	for i, r := range retries(entries) {
		if r > n {
			over = append(over, entries[i])
		}
	}
	return over
}

// retries returns, for each entry, how many times its request had been
// sent before it.
func retries(entries []Entry) []int {
	out := make([]int, len(entries))
	run := 0
	for i := range entries {
		if i > 0 && resends(&entries[i-1], &entries[i]) {
			run++
		} else {
			run = 0
		}
		out[i] = max(entries[i].Client.RetryCount, run)
	}
	return out
}

// resends reports whether e sent again the request prev sent: the same
// method, path, body and normalized request, with something to compare
// (a body, or a user message). The status, timing and answer may differ:
// they are what made the client retry.
func resends(prev, e *Entry) bool {
	if e.BodyBytes == 0 && e.UserText == "" && len(e.Request.Messages) == 0 {
		return false
	}
	return prev.Method == e.Method && prev.Path == e.Path && prev.Model == e.Model && prev.Stream == e.Stream &&
		prev.UserText == e.UserText && prev.PromptCacheKey == e.PromptCacheKey &&
		prev.BodyBytes == e.BodyBytes && prev.Body == e.Body &&
		reflect.DeepEqual(prev.ToolResults, e.ToolResults) && reflect.DeepEqual(prev.Request, e.Request)
}

// TotalTokens returns the usage of every entry summed, for a budget
// check:
//
//	assert.LessOrEqual(t, j.TotalTokens().Total(), 20_000)
//
// An idempotent replay (Entry.Replay) used no model and adds nothing.
func (j *Journal) TotalTokens() Usage {
	var sum Usage
	for _, e := range j.Entries() {
		if e.Replay {
			continue
		}
		sum.Input += e.Usage.Input
		sum.CacheRead += e.Usage.CacheRead
		sum.CacheWrite += e.Usage.CacheWrite
		sum.Output += e.Usage.Output
		sum.Reasoning += e.Usage.Reasoning
	}
	return sum
}

// Total returns the tokens u bills in all: Input (cache reads and writes
// included) plus Output (reasoning included).
func (u Usage) Total() int { return u.Input + u.Output }

// inConversation reports whether e belongs to conversation, or to any
// conversation when conversation is "".
func inConversation(e *Entry, conversation string) bool {
	if conversation == "" {
		return e.Conversation != ""
	}
	return e.Conversation == conversation
}
