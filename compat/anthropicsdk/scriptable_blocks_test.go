package anthropicsdk_test

import (
	"encoding/json"
	"testing"

	"github.com/anthropics/anthropic-sdk-go/v2"
	"github.com/llmtestserver/llmtestserver/scenario"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// newAndStreamed answers params twice with reply, once not streamed and
// once streamed, and returns both messages, the streamed one accumulated.
func newAndStreamed(t *testing.T, reply scenario.Reply, params anthropic.MessageNewParams) (anthropic.Message, anthropic.Message) {
	t.Helper()
	sess := newSession(t)
	sess.Chat("blocks").Reply(reply, reply)
	client := clientFor(sess, "k", 0)
	m, err := client.Messages.New(t.Context(), params)
	require.NoError(t, err)
	return *m, accumulate(t, client.Messages.NewStreaming(t.Context(), params))
}

// sameContent requires the two messages' content to be the same JSON.
func sameContent(t *testing.T, a, b anthropic.Message) {
	t.Helper()
	ja, err := json.Marshal(a.Content)
	require.NoError(t, err)
	jb, err := json.Marshal(b.Content)
	require.NoError(t, err)
	assert.JSONEq(t, string(ja), string(jb), "the streamed content differs from the non-streamed")
}

// TestScriptedStopReasons scripts each of Anthropic's own stop reasons:
// the SDK decodes them, streamed and not.
func TestScriptedStopReasons(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		finish scenario.FinishKind
		want   anthropic.StopReason
		seq    string
	}{
		{scenario.FinishPauseTurn, anthropic.StopReasonPauseTurn, ""},
		{scenario.FinishContextWindow, anthropic.StopReasonModelContextWindowExceeded, ""},
		{scenario.FinishStopSequence, anthropic.StopReasonStopSequence, "###"},
	} {
		t.Run(string(c.finish), func(t *testing.T) {
			t.Parallel()
			params := userTurn("Go on")
			params.StopSequences = []string{"###", "END"}
			m, s := newAndStreamed(t, scenario.Reply{Text: "Partly", FinishReason: c.finish}, params)
			for _, msg := range []anthropic.Message{m, s} {
				assert.Equal(t, c.want, msg.StopReason)
				assert.Equal(t, c.seq, msg.StopSequence)
				assert.Equal(t, "Partly", msg.Content[0].Text)
			}
		})
	}
}

// TestScriptedServerBlocks scripts redacted thinking, a web search with its
// results and a text citing them: the SDK decodes every block with no
// required field missing, streamed (citations_delta and all) as not, the
// usage counts the search, and the message goes back as the next turn's
// history, its redacted thinking verified.
func TestScriptedServerBlocks(t *testing.T) {
	t.Parallel()
	reply := scenario.Reply{
		Thinking:         "The user wants news.",
		RedactedThinking: []string{"hidden reasoning"},
		WebSearches: []scenario.WebSearch{{ID: "srvtoolu_01AbCdEfGhIjKlMnOpQrStUv", Query: "llm test servers", Results: []scenario.WebResult{
			{URL: "https://example.com/a", Title: "A", PageAge: "2 days ago"}, {URL: "https://example.com/b", Title: "B"}}}},
		Text:      "Two servers exist.",
		Citations: []scenario.Citation{{CitedText: "There are two.", URL: "https://example.com/a", Title: "A"}},
	}
	params := userTurn("News about LLM test servers?")
	params.MaxTokens = 4096
	params.Thinking = summarized
	params.Tools = []anthropic.ToolUnionParam{{OfWebSearchTool20250305: &anthropic.WebSearchTool20250305Param{}}}
	m, s := newAndStreamed(t, reply, params)
	sameContent(t, m, s)
	unnamed := reply
	unnamed.WebSearches = []scenario.WebSearch{{Query: "q"}}
	generated, _ := newAndStreamed(t, unnamed, params)
	assert.Regexp(t, `^srvtoolu_01[A-Za-z0-9]{22}$`, generated.Content[2].AsServerToolUse().ID)
	for _, msg := range []anthropic.Message{m, s} {
		var types []string
		for _, b := range msg.Content {
			types = append(types, b.Type)
		}
		assert.Equal(t, []string{"thinking", "redacted_thinking", "server_tool_use", "web_search_tool_result", "text"}, types)
		use := msg.Content[2].AsServerToolUse()
		assert.Regexp(t, `^srvtoolu_01`, use.ID)
		assert.JSONEq(t, `{"query":"llm test servers"}`, string(mustJSON(t, use.Input)))
		result := msg.Content[3].AsWebSearchToolResult()
		assert.Equal(t, use.ID, result.ToolUseID)
		pages := result.Content.OfWebSearchResultBlockArray
		require.Len(t, pages, 2)
		assert.Equal(t, "https://example.com/a", pages[0].URL)
		assert.Equal(t, "2 days ago", pages[0].PageAge)
		text := msg.Content[4].AsText()
		require.Len(t, text.Citations, 1)
		cite := text.Citations[0].AsWebSearchResultLocation()
		assert.Equal(t, "There are two.", cite.CitedText)
		assert.Equal(t, int64(1), msg.Usage.ServerToolUse.WebSearchRequests)
		assert.Empty(t, absentInCaptures(missingRequired(t, msg)))
	}

	// The message goes back: its redacted thinking is the server's own.
	sess := newSession(t)
	sess.Chat("next").Responds("Anything else?")
	client := clientFor(sess, "k", 0)
	params.Messages = append(params.Messages, m.ToParam(), anthropic.NewUserMessage(anthropic.NewTextBlock("Thanks")))
	_, err := client.Messages.New(t.Context(), params)
	require.NoError(t, err)

	forged := append([]anthropic.MessageParam{}, params.Messages[0],
		anthropic.NewAssistantMessage(anthropic.NewRedactedThinkingBlock("Zm9yZ2Vk"), anthropic.NewTextBlock("Hi")),
		params.Messages[2])
	params.Messages = forged
	_, err = client.Messages.New(t.Context(), params)
	assert.Contains(t, apiError(t, err).Error(), "Invalid `data` in `redacted_thinking` block")
}

func mustJSON(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	require.NoError(t, err)
	return b
}
