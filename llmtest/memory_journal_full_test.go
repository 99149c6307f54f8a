package llmtest_test

import (
	"fmt"
	"runtime"
	"strings"
	"testing"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"

	"github.com/llmtestserver/llmtestserver/internal/e2e"
	"github.com/llmtestserver/llmtestserver/llmtest"
	"github.com/llmtestserver/llmtestserver/scenario"
	"github.com/llmtestserver/llmtestserver/session"
)

// agentTurn is the request of an agent deep in its work: a long system
// prompt, 40 turns of tool calls and their results, 20 tools offered, and
// a last user message of 8 KiB (the bound of the entry's user text), so
// that its body is about 200 KiB.
func agentTurn() openai.ChatCompletionNewParams {
	text := func(n int, s string) string { return strings.Repeat(s, n/len(s)) }
	msgs := []openai.ChatCompletionMessageParamUnion{openai.SystemMessage(text(20<<10, "You are a careful travel agent. "))}
	for i := range 40 {
		msgs = append(msgs, openai.UserMessage(text(1<<10, fmt.Sprintf("Turn %d: plan the next leg. ", i))))
		var calls []openai.ChatCompletionMessageToolCallUnionParam
		for c := range 2 {
			id := fmt.Sprintf("call_%02d_%d", i, c)
			calls = append(calls, openai.ChatCompletionMessageToolCallUnionParam{OfFunction: &openai.ChatCompletionMessageFunctionToolCallParam{
				ID: id, Function: openai.ChatCompletionMessageFunctionToolCallFunctionParam{Name: "search_trains",
					Arguments: `{"query":"` + text(500, "Paris to Lyon ") + `"}`}}})
		}
		msgs = append(msgs, openai.ChatCompletionMessageParamUnion{OfAssistant: &openai.ChatCompletionAssistantMessageParam{ToolCalls: calls}})
		for c := range 2 {
			msgs = append(msgs, openai.ToolMessage(text(1<<10, "Train at 08:04, platform 7. "), fmt.Sprintf("call_%02d_%d", i, c)))
		}
	}
	msgs = append(msgs, openai.UserMessage(text(8<<10, "Book the cheapest one. ")))
	var tools []openai.ChatCompletionToolUnionParam
	for i := range 20 {
		tools = append(tools, openai.ChatCompletionFunctionTool(openai.FunctionDefinitionParam{Name: fmt.Sprintf("tool_%d", i),
			Description: openai.String(text(400, "Searches the timetable. ")),
			Parameters:  openai.FunctionParameters{"type": "object", "properties": map[string]any{"query": map[string]any{"type": "string"}}}}))
	}
	return openai.ChatCompletionNewParams{Model: "gpt-4.1-mini", Messages: msgs, Tools: tools,
		Metadata: map[string]string{"run": "memory", "agent": "travel"}, User: openai.String("user-42")}
}

// A session's journal keeps about its max_bytes whatever its entries
// carry: here requests of an agent deep in its work (200 KiB bodies, 60
// extra headers, a 20 KiB system prompt, 160 messages with 80 tool calls)
// answered with text and tool calls, sent through openai-go until the
// journal has evicted entries for a while. The live heap grows by the
// journal's max_bytes and no more.
func TestJournalMemoryStaysWithinMaxBytesWithFullEntries(t *testing.T) {
	if testing.Short() {
		t.Skip("sends tens of MiB and measures the heap")
	}
	const maxBytes = 2 << 20
	srv := llmtest.NewServer(t)
	open := func() (*session.Session, openai.Client) {
		sess := srv.NewSession(t, session.WithJournal(1000, maxBytes), session.IgnoreContextWindow())
		sess.Chat("agent").Reply(scenario.Reply{Text: strings.Repeat("Booked the 08:04. ", 200),
			ToolCalls: []scenario.ToolCall{{Name: "search_trains", Arguments: `{"query":"` + strings.Repeat("Lyon ", 300) + `"}`},
				{Name: "book", Arguments: `{"train":"08:04"}`}}}).Repeat()
		opts := []option.RequestOption{option.WithBaseURL(sess.BaseURL()), option.WithAPIKey("k"),
			option.WithHTTPClient(sess.HTTPClient()), option.WithMaxRetries(0)}
		for i := range 60 {
			opts = append(opts, option.WithHeader(fmt.Sprintf("X-Agent-Trace-%02d", i), strings.Repeat("t", 100)))
		}
		return sess, openai.NewClient(opts...)
	}
	params := agentTurn()
	ask := func(client openai.Client) {
		t.Helper()
		if _, err := client.Chat.Completions.New(t.Context(), params); err != nil {
			t.Fatal(err)
		}
	}
	// A first session loads the tokenizer, caches the prompt's counts and
	// fills pools; the one measured starts with an empty journal.
	warm, warmClient := open()
	for range 3 {
		ask(warmClient)
	}
	warm.Close()
	sess, client := open()
	before := e2e.LiveHeap()
	sent := 0
	// Until the journal is full and has turned over, at least 20 requests
	// past the first eviction.
	for evictedAt := 0; sent < 1000 && (evictedAt == 0 || sent < evictedAt+20); sent++ {
		ask(client)
		if evictedAt == 0 && sess.Journal().Evicted() > 0 {
			evictedAt = sent
		}
	}
	grown := e2e.LiveHeap() - before
	runtime.KeepAlive(params) // live at both readings
	j := sess.Journal()
	t.Logf("%d requests of about 200 KiB grew the heap by %.2f MiB; the journal (max_bytes %d MiB) keeps %d entries, evicted %d",
		sent, float64(grown)/(1<<20), maxBytes>>20, j.Len(), j.Evicted())
	if j.Evicted() == 0 {
		t.Fatalf("the journal evicted nothing after %d requests: it never filled", sent)
	}
	// Slack of 1 MiB for what the server and the client keep between
	// requests, such as pooled buffers.
	if grown > maxBytes+1<<20 {
		t.Errorf("the heap grew by %d bytes, want at most the journal's max_bytes of %d and 1 MiB", grown, maxBytes)
	}
	if grown < maxBytes/2 {
		t.Errorf("the heap grew by %d bytes, want about the journal's max_bytes of %d: does the journal count what it keeps?", grown, maxBytes)
	}
}
