package llmtest_test

import (
	"encoding/json"
	"io"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/llmtestserver/llmtestserver/internal/e2e"
	"github.com/llmtestserver/llmtestserver/llmtest"
	"github.com/llmtestserver/llmtestserver/scenario"
)

// A malformed body reaches the client as a whole 200, but it is a fault:
// the answer is not kept under its Idempotency-Key, so the retry with the
// same key and body gets the next reply rather than the broken one again.
func TestIdempotencyDoesNotKeepAMalformedBody(t *testing.T) {
	t.Parallel()
	sess := llmtest.NewServer(t).NewSession(t)
	sess.Chat("seq").Reply(scenario.Text("broken answer").MalformedAfter(0)).Then("good answer").Then("unused")
	client := e2e.ClientFor(sess, "k")
	params := e2e.UserTurn(e2e.ReplyModel, "Hello")

	_, err := client.Chat.Completions.New(t.Context(), params, withKey("m-1"))
	var syntax *json.SyntaxError
	require.ErrorAs(t, err, &syntax, "the malformed body fails the SDK's decoding")
	got, err := client.Chat.Completions.New(t.Context(), params, withKey("m-1"))
	require.NoError(t, err, "the retry with the same key was answered with the malformed body again")
	assert.Equal(t, "good answer", got.Choices[0].Message.Content)
	assert.Equal(t, 1, sess.Pending(), "each attempt took one reply")

	entries := sess.Journal().Entries()
	require.Len(t, entries, 2)
	assert.Equal(t, "malformed", entries[0].Fault)
	assert.Equal(t, 200, entries[0].Status)
	for i, e := range entries {
		assert.False(t, e.Replay, "entry %d", i)
		assert.Equal(t, "m-1", e.IdempotencyKey, "entry %d", i)
	}

	// The good answer is the one kept.
	again, err := client.Chat.Completions.New(t.Context(), params, withKey("m-1"))
	require.NoError(t, err)
	assert.Equal(t, got.ID, again.ID)
	last, _ := sess.Journal().Last()
	assert.True(t, last.Replay)
	assert.Equal(t, 1, sess.Pending())
}

// A stream that fails with an error event after some events went out as a
// 200 with every byte written; it is not kept either, with or without an
// error code (the journal gives it the type's code when the reply names
// none), and the retry gets the next reply.
func TestIdempotencyDoesNotKeepAStreamThatFailed(t *testing.T) {
	t.Parallel()
	for _, code := range []string{"server_error", ""} {
		t.Run("code="+code, func(t *testing.T) {
			t.Parallel()
			sess := llmtest.NewServer(t).NewSession(t)
			sess.Chat("seq").Reply(scenario.Text("one two three four five six").FailsAfter(3, code, "Broke mid-way.")).
				Then("whole answer").Then("unused")
			client := e2e.ClientFor(sess, "k")
			params := e2e.UserTurn(e2e.ReplyModel, "Hello")
			stream := func() (string, error) {
				s := client.Chat.Completions.NewStreaming(t.Context(), params, withKey("s-1"))
				defer s.Close()
				var text strings.Builder
				for s.Next() {
					if c := s.Current(); len(c.Choices) > 0 {
						text.WriteString(c.Choices[0].Delta.Content)
					}
				}
				return text.String(), s.Err()
			}

			_, err := stream()
			require.Error(t, err)
			assert.Contains(t, err.Error(), "Broke mid-way.")
			text, err := stream()
			require.NoError(t, err, "the retry with the same key replayed the failed stream")
			assert.Equal(t, "whole answer", text)
			assert.Equal(t, 1, sess.Pending(), "each attempt took one reply")

			entries := sess.Journal().Entries()
			require.Len(t, entries, 2)
			assert.Equal(t, "error_event", entries[0].Fault)
			assert.Equal(t, 200, entries[0].Status)
			assert.False(t, entries[1].Replay)

			text, err = stream()
			require.NoError(t, err)
			assert.Equal(t, "whole answer", text, "the whole stream is the one kept")
			last, _ := sess.Journal().Last()
			assert.True(t, last.Replay)
		})
	}
}

// A cut stream is not kept: every byte before the abort is written without
// error, so only its fault tells it from a whole answer, and a replay of it
// would end cleanly where the first ended in an unexpected EOF.
func TestIdempotencyDoesNotKeepACutStream(t *testing.T) {
	t.Parallel()
	sess := llmtest.NewServer(t).NewSession(t)
	sess.Chat("seq").Reply(scenario.Text("one two three four five six").CutAfter(3)).Then("whole answer").Then("unused")
	client := e2e.ClientFor(sess, "k")
	stream := func() (string, error) {
		s := client.Chat.Completions.NewStreaming(t.Context(), e2e.UserTurn(e2e.ReplyModel, "Hello"), withKey("c-1"))
		defer s.Close()
		var text strings.Builder
		for s.Next() {
			if c := s.Current(); len(c.Choices) > 0 {
				text.WriteString(c.Choices[0].Delta.Content)
			}
		}
		return text.String(), s.Err()
	}
	_, err := stream()
	require.ErrorIs(t, err, io.ErrUnexpectedEOF)
	text, err := stream()
	require.NoError(t, err)
	assert.Equal(t, "whole answer", text, "the retry with the same key replayed the cut stream")
	entries := sess.Journal().Entries()
	require.Len(t, entries, 2)
	assert.Equal(t, "cut", entries[0].Fault)
	assert.False(t, entries[1].Replay)
	assert.Equal(t, 1, sess.Pending())
}
