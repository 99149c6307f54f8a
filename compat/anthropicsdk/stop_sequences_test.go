package anthropicsdk_test

import (
	"testing"

	"github.com/anthropics/anthropic-sdk-go/v2"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/llmtestserver/llmtestserver/scenario"
)

// The model stops at the request's stop_sequences as the real API does:
// the text ends before the earliest one, which the answer names with
// stop_reason "stop_sequence", streamed and not; the tool call the text
// never got to is dropped, and the journal shows the sequences sent.
func TestStopSequencesCutTheAnswer(t *testing.T) {
	t.Parallel()
	reply := scenario.Reply{Text: "Thinking it over. DONE with the rest. HALT",
		ToolCalls: []scenario.ToolCall{{Name: "get_weather", Arguments: `{"city":"Oslo"}`}}}
	p := userTurn("Go on")
	p.StopSequences = []string{"HALT", "DONE"}
	p.Tools = []anthropic.ToolUnionParam{weatherTool}
	s := bothWays(t, reply, p)
	assert.Equal(t, anthropic.StopReasonStopSequence, s.StopReason)
	assert.Equal(t, "DONE", s.StopSequence)
	assert.Equal(t, []block{{Type: "text", Text: "Thinking it over. "}}, s.Blocks)

	// A reply without any of them ends its turn as scripted.
	p.StopSequences = []string{"NEVER"}
	s = bothWays(t, scenario.Reply{Text: "All of it."}, p)
	assert.Equal(t, anthropic.StopReasonEndTurn, s.StopReason)
	assert.Empty(t, s.StopSequence)
	assert.Equal(t, []block{{Type: "text", Text: "All of it."}}, s.Blocks)
}

// The journal records the stop sequences a request sent.
func TestStopSequencesAreJournaled(t *testing.T) {
	t.Parallel()
	sess := newSession(t)
	sess.Chat("s").Responds("one two three")
	p := userTurn("Count")
	p.StopSequences = []string{"three"}
	client := clientFor(sess, "k", 0)
	m, err := client.Messages.New(t.Context(), p)
	require.NoError(t, err)
	assert.Equal(t, "one two ", m.Content[0].Text)
	e, ok := sess.Journal().Last()
	require.True(t, ok)
	assert.Equal(t, []string{"three"}, e.Request.StopSequences)
	assert.Equal(t, "one two ", e.ReplyText)
}
