package anthropicsdk_test

import (
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/llmtestserver/llmtestserver/llmtest"
	"github.com/llmtestserver/llmtestserver/scenario"
)

// The answer side of a Messages entry: the refusal apart from the text,
// a structured reply marked, the message ID the SDK received, the reply's
// index and call site.
func TestJournalAnswerOfMessages(t *testing.T) {
	t.Parallel()
	sess := newSession(t)
	sess.Chat("plan").
		Reply(scenario.Reply{Text: "first", ScriptedAt: "plan_test.go:1"}).
		Reply(scenario.Reply{Refusal: "I can't help with that.", ScriptedAt: "plan_test.go:2"}).
		RespondsJSON(map[string]any{"city": "Paris"})
	client := clientFor(sess, "k", 0)
	var ids []string
	for range 2 {
		msg, err := client.Messages.New(t.Context(), userTurn("hi"))
		require.NoError(t, err)
		ids = append(ids, msg.ID)
	}
	streamed := accumulate(t, client.Messages.NewStreaming(t.Context(), userTurn("hi")))
	ids = append(ids, streamed.ID)

	entries := sess.Journal().Entries()
	require.Len(t, entries, 3)
	for i, e := range entries {
		assert.Regexp(t, `^msg_011C[1-9A-HJ-NP-Za-km-z]{20}$`, ids[i])
		assert.Equal(t, ids[i], e.ResponseID, "entry %d", i)
		assert.Equal(t, i, e.ReplyIndex, "entry %d", i)
	}
	assert.Equal(t, "first", entries[0].ReplyText)
	assert.Empty(t, entries[0].Refusal)
	assert.Equal(t, "plan_test.go:1", entries[0].ScriptedAt)
	assert.Equal(t, "I can't help with that.", entries[1].Refusal)
	assert.Empty(t, entries[1].ReplyText)
	assert.Equal(t, "plan_test.go:2", entries[1].ScriptedAt)
	assert.True(t, entries[2].JSON)
	assert.JSONEq(t, `{"city":"Paris"}`, entries[2].ReplyText)
}

// A refused Messages request's entry has the message the SDK's error
// has: a request no scenario answers, a scripted 429.
func TestJournalErrorMessageOfMessages(t *testing.T) {
	t.Parallel()
	sess := newSession(t)
	sess.Chat("busy").When(scenario.Match{UserContains: "busy"}).Fails(429, "", "Number of requests has exceeded your rate limit.")
	client := clientFor(sess, "k", 0)
	_, err := client.Messages.New(t.Context(), userTurn("Bonjour"))
	miss := apiError(t, err)
	_, err = client.Messages.New(t.Context(), userTurn("busy?"))
	limited := apiError(t, err)

	entries := sess.Journal().Entries()
	require.Len(t, entries, 2)
	require.NotEmpty(t, miss.Message)
	assert.Equal(t, miss.Message, entries[0].ErrorMessage)
	assert.Equal(t, 429, limited.StatusCode)
	assert.Equal(t, "Number of requests has exceeded your rate limit.", limited.Message)
	assert.Equal(t, limited.Message, entries[1].ErrorMessage)
}

// A Messages stream's entry counts every event sent: those the SDK read
// and the ping it skips. In a
// synctest bubble its time to first byte is exactly the reply's delay and
// the stream's time to first token.
func TestJournalStreamFactsOfMessages(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		sess := llmtest.NewServer(t, llmtest.WithInMemory()).NewSession(t)
		sess.Chat("slow").Reply(scenario.Reply{Text: "one two three four five", Delay: 4 * time.Second}.Paced(time.Second, 20))
		client := clientFor(sess, "k", 0)
		stream := client.Messages.NewStreaming(t.Context(), userTurn("hi"))
		events := 0
		for stream.Next() {
			events++
		}
		require.NoError(t, stream.Err())
		require.NoError(t, stream.Close())

		entries := sess.Journal().Entries()
		require.Len(t, entries, 1)
		require.Greater(t, events, 5, "message_start, block start, deltas, block stop, message_delta, message_stop")
		assert.Equal(t, events+1, entries[0].Chunks, "the events and the ping")
		assert.Equal(t, 5*time.Second, entries[0].FirstByte)
	})
}
