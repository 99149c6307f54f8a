package anthropicsdk_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/anthropics/anthropic-sdk-go/v2"
	"github.com/llmtestserver/llmtestserver/journal"
	"github.com/llmtestserver/llmtestserver/session"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/tiktoken-go/tokenizer"
)

// o200k counts text as the server's stand-in for Claude's tokenizer does.
func o200k(t *testing.T, text string) int64 {
	t.Helper()
	codec, err := tokenizer.Get(tokenizer.O200kBase)
	require.NoError(t, err)
	n, err := codec.Count(text)
	require.NoError(t, err)
	return int64(n)
}

// longPrompt is a system prompt of about 2000 tokens, above the 1024 that
// claude-sonnet-5-5 caches at least; seed makes it unique.
func longPrompt(seed string) string {
	var b strings.Builder
	for i := range 150 {
		fmt.Fprintf(&b, "Rule %d of %s: answer politely and cite the handbook. ", i, seed)
	}
	return b.String()
}

// ephemeral is a five-minute breakpoint.
var ephemeral = anthropic.NewCacheControlEphemeralParam()

// conversation is the request of turn n (1 or 2) of a cached
// conversation: turn 2 adds the answer of turn 1 and a second question.
func conversation(n int, p anthropic.MessageNewParams) anthropic.MessageNewParams {
	p.Messages = []anthropic.MessageParam{anthropic.NewUserMessage(anthropic.NewTextBlock("Question one"))}
	if n == 2 {
		p.Messages = append(p.Messages,
			anthropic.NewAssistantMessage(anthropic.NewTextBlock("Answer one")),
			anthropic.NewUserMessage(anthropic.NewTextBlock("Question two")))
	}
	return p
}

// usageAgrees requires the journal's neutral usage to say what the SDK's
// Anthropic usage says.
func usageAgrees(t *testing.T, u anthropic.Usage, e journal.Entry) {
	t.Helper()
	require.NotZero(t, e.Usage)
	assert.Equal(t, int(u.CacheReadInputTokens), e.Usage.CacheRead, "journal cache read")
	assert.Equal(t, int(u.CacheCreationInputTokens), e.Usage.CacheWrite, "journal cache write")
	assert.Equal(t, int(u.InputTokens+u.CacheReadInputTokens+u.CacheCreationInputTokens), e.Usage.Input, "journal input")
	assert.Equal(t, int(u.OutputTokens), e.Usage.Output, "journal output")
}

// turns sends turn 1 then turn 2 of a conversation built by base, the
// second streamed when stream2 is set, and returns both usages after
// checking them against the journal.
func turns(t *testing.T, sess *session.Session, base anthropic.MessageNewParams, stream2 bool) (u1, u2 anthropic.Usage) {
	t.Helper()
	client := clientFor(sess, "k", 0)
	m1, err := client.Messages.New(t.Context(), conversation(1, base))
	require.NoError(t, err)
	e1, _ := sess.Journal().Last()
	usageAgrees(t, m1.Usage, e1)
	var m2 anthropic.Message
	if stream2 {
		m2 = accumulate(t, client.Messages.NewStreaming(t.Context(), conversation(2, base)))
	} else {
		m, err := client.Messages.New(t.Context(), conversation(2, base))
		require.NoError(t, err)
		m2 = *m
	}
	e2, _ := sess.Journal().Last()
	usageAgrees(t, m2.Usage, e2)
	return m1.Usage, m2.Usage
}

func cachedSession(t *testing.T) *session.Session {
	t.Helper()
	sess := newSession(t)
	sess.Chat("any").Responds("Answer one").Repeat()
	return sess
}

// TestPromptCacheSystemBreakpoint caches a long system prompt marked with
// cache_control: turn 1 writes exactly the system prompt's tokens, turn 2
// reads them back and writes nothing, streamed or not; a second session
// with the same prompt starts cold.
func TestPromptCacheSystemBreakpoint(t *testing.T) {
	t.Parallel()
	for _, stream2 := range []bool{false, true} {
		t.Run(map[bool]string{false: "non-streamed", true: "streamed"}[stream2], func(t *testing.T) {
			t.Parallel()
			srv := newServer(t)
			system := longPrompt("system")
			base := userTurn("")
			base.System = []anthropic.TextBlockParam{{Text: system, CacheControl: ephemeral}}

			sess := srv.NewSession(t)
			sess.Chat("any").Responds("Answer one").Repeat()
			u1, u2 := turns(t, sess, base, stream2)
			want := o200k(t, system)
			require.Greater(t, want, int64(1024), "the prompt is too short for the test")
			assert.Equal(t, want, u1.CacheCreationInputTokens, "turn 1 writes the system prompt")
			assert.Equal(t, want, u1.CacheCreation.Ephemeral5mInputTokens)
			assert.Zero(t, u1.CacheCreation.Ephemeral1hInputTokens)
			assert.Zero(t, u1.CacheReadInputTokens)
			assert.Equal(t, o200k(t, "Question one")+requestOverhead, u1.InputTokens, "input_tokens counts only what follows the breakpoint")
			assert.Equal(t, u1.CacheCreationInputTokens, u2.CacheReadInputTokens, "turn 2 reads what turn 1 wrote")
			assert.Zero(t, u2.CacheCreationInputTokens)
			assert.Equal(t, o200k(t, "Question one")+o200k(t, "Answer one")+o200k(t, "Question two")+requestOverhead, u2.InputTokens)

			// Isolation: another session, same server, same prompt.
			other := srv.NewSession(t)
			other.Chat("any").Responds("Answer one").Repeat()
			o1, _ := turns(t, other, base, stream2)
			assert.Equal(t, want, o1.CacheCreationInputTokens, "another session's cache leaked in")
			assert.Zero(t, o1.CacheReadInputTokens, "another session's cache leaked in")
		})
	}
}

// TestPromptCacheToolBreakpoint caches the tools: a tool with a long
// description and cache_control is the cached prefix.
func TestPromptCacheToolBreakpoint(t *testing.T) {
	t.Parallel()
	sess := cachedSession(t)
	base := userTurn("")
	base.Tools = []anthropic.ToolUnionParam{{OfTool: &anthropic.ToolParam{
		Name:         "handbook",
		Description:  anthropic.String(longPrompt("tool")),
		InputSchema:  anthropic.ToolInputSchemaParam{Properties: map[string]any{"page": map[string]any{"type": "integer"}}},
		CacheControl: ephemeral,
	}}}
	u1, u2 := turns(t, sess, base, false)
	assert.Greater(t, u1.CacheCreationInputTokens, o200k(t, longPrompt("tool")), "the tool's name and schema count too")
	assert.Zero(t, u1.CacheReadInputTokens)
	assert.Equal(t, u1.CacheCreationInputTokens, u2.CacheReadInputTokens)
	assert.Zero(t, u2.CacheCreationInputTokens)
}

// TestPromptCacheToolsAndSystem puts a breakpoint after the tools and one
// after the system prompt: the longest prefix is written, then read.
func TestPromptCacheToolsAndSystem(t *testing.T) {
	t.Parallel()
	sess := cachedSession(t)
	base := userTurn("")
	tool := weatherTool
	toolParam := *tool.OfTool
	toolParam.CacheControl = ephemeral
	base.Tools = []anthropic.ToolUnionParam{{OfTool: &toolParam}}
	system := longPrompt("both")
	base.System = []anthropic.TextBlockParam{{Text: system, CacheControl: ephemeral}}
	u1, u2 := turns(t, sess, base, false)
	assert.Greater(t, u1.CacheCreationInputTokens, o200k(t, system), "the tools come before the system prompt")
	assert.Equal(t, u1.CacheCreationInputTokens, u2.CacheReadInputTokens)
	assert.Zero(t, u2.CacheCreationInputTokens)
}

// TestPromptCacheAutomatic uses the top-level cache_control, which puts
// the breakpoint on the last block: turn 1 writes the whole prompt, turn 2
// reads it and writes only the part it adds.
func TestPromptCacheAutomatic(t *testing.T) {
	t.Parallel()
	sess := cachedSession(t)
	base := userTurn("")
	system := longPrompt("automatic")
	base.System = []anthropic.TextBlockParam{{Text: system}}
	base.CacheControl = ephemeral
	u1, u2 := turns(t, sess, base, false)
	assert.Equal(t, o200k(t, system)+o200k(t, "Question one"), u1.CacheCreationInputTokens)
	assert.Equal(t, requestOverhead, u1.InputTokens, "everything up to the last block is cached: only the request's overhead is not")
	assert.Zero(t, u1.CacheReadInputTokens)
	assert.Equal(t, u1.CacheCreationInputTokens, u2.CacheReadInputTokens)
	assert.Equal(t, o200k(t, "Answer one")+o200k(t, "Question two"), u2.CacheCreationInputTokens, "only the new part is written")
	assert.Equal(t, requestOverhead, u2.InputTokens)
}

// TestPromptCacheOneHour writes with the one-hour TTL: the creation is
// counted as one-hour tokens.
func TestPromptCacheOneHour(t *testing.T) {
	t.Parallel()
	sess := cachedSession(t)
	base := userTurn("")
	system := longPrompt("hour")
	base.System = []anthropic.TextBlockParam{{Text: system, CacheControl: anthropic.CacheControlEphemeralParam{TTL: anthropic.CacheControlEphemeralTTLTTL1h}}}
	u1, u2 := turns(t, sess, base, false)
	assert.Equal(t, o200k(t, system), u1.CacheCreation.Ephemeral1hInputTokens)
	assert.Zero(t, u1.CacheCreation.Ephemeral5mInputTokens)
	assert.Equal(t, u1.CacheCreationInputTokens, u2.CacheReadInputTokens)
}

// TestPromptCacheBelowMinimum marks a prompt shorter than the model's
// minimum: the breakpoint is ignored without an error.
func TestPromptCacheBelowMinimum(t *testing.T) {
	t.Parallel()
	sess := cachedSession(t)
	base := userTurn("")
	base.System = []anthropic.TextBlockParam{{Text: "You are terse.", CacheControl: ephemeral}}
	base.CacheControl = ephemeral
	u1, u2 := turns(t, sess, base, false)
	for i, u := range []anthropic.Usage{u1, u2} {
		assert.Zero(t, u.CacheCreationInputTokens, "turn %d", i+1)
		assert.Zero(t, u.CacheReadInputTokens, "turn %d", i+1)
		assert.Positive(t, u.InputTokens, "turn %d", i+1)
	}
}

// TestPromptCacheFiveBreakpoints sends one breakpoint more than the API
// takes.
func TestPromptCacheFiveBreakpoints(t *testing.T) {
	t.Parallel()
	sess := cachedSession(t)
	p := userTurn("hi")
	for i := range 5 {
		p.System = append(p.System, anthropic.TextBlockParam{Text: fmt.Sprintf("Part %d.", i), CacheControl: ephemeral})
	}
	client := clientFor(sess, "k", 0)
	_, err := client.Messages.New(t.Context(), p)
	apiErr := apiError(t, err)
	assert.Equal(t, 400, apiErr.StatusCode)
	assert.Equal(t, anthropic.ErrorTypeInvalidRequestError, apiErr.Type())
	assert.Contains(t, apiErr.Message, "A maximum of 4 blocks with cache_control may be provided. Found 5.")
	e, ok := sess.Journal().Last()
	require.True(t, ok)
	assert.Equal(t, 400, e.Status)
	assert.Zero(t, e.Usage)
}
