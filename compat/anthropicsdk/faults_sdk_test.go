package anthropicsdk_test

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/anthropics/anthropic-sdk-go/v2"
	"github.com/llmtestserver/llmtestserver/internal/e2e"
	"github.com/llmtestserver/llmtestserver/llmtest"
	"github.com/llmtestserver/llmtestserver/scenario"
	"github.com/llmtestserver/llmtestserver/session"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// send sends one Messages request through the SDK, streamed (and
// accumulated) or not, and returns the text received and the error.
func send(ctx context.Context, c anthropic.Client, stream bool) (string, error) {
	if !stream {
		msg, err := c.Messages.New(ctx, userTurn("Hi"))
		if err != nil {
			return "", err
		}
		return textOf(msg), nil
	}
	s := c.Messages.NewStreaming(ctx, userTurn("Hi"))
	defer s.Close()
	var msg anthropic.Message
	for s.Next() {
		if err := msg.Accumulate(s.Current()); err != nil {
			return textOf(&msg), err
		}
	}
	return textOf(&msg), s.Err()
}

func textOf(msg *anthropic.Message) string {
	var b strings.Builder
	for _, block := range msg.Content {
		b.WriteString(block.Text)
	}
	return b.String()
}

// forEachSend runs f streamed and not, each with a session of its own and
// a client that does not retry.
func forEachSend(t *testing.T, f func(t *testing.T, sess *session.Session, call func(context.Context) (string, error), stream bool)) {
	t.Parallel()
	srv := llmtest.NewServer(t)
	for _, stream := range []bool{false, true} {
		name := "json"
		if stream {
			name = "stream"
		}
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			sess := srv.NewSession(t)
			client := clientFor(sess, "k", 0)
			f(t, sess, func(ctx context.Context) (string, error) { return send(ctx, client, stream) }, stream)
		})
	}
}

// A cut stream or body reads as an unexpected EOF.
func TestAnthropicCut(t *testing.T) {
	forEachSend(t, func(t *testing.T, sess *session.Session, call func(context.Context) (string, error), stream bool) {
		sess.Chat("cut").Reply(scenario.Text("one two three four five").CutAfter(4)).Responds("whole")
		_, err := call(context.Background())
		require.ErrorIs(t, err, io.ErrUnexpectedEOF)
		if !stream {
			// The body broke off while read, rather than reading whole as
			// truncated JSON.
			assert.Contains(t, err.Error(), "reading response body")
		}
		status, fault := e2e.LastFault(t, sess)
		assert.Equal(t, 200, status)
		assert.Equal(t, "cut", fault)
		e2e.ThenWhole(t, call)
	})
}

// A malformed event, even in place of the ping the SDK skips, or a
// malformed body, is a JSON syntax error.
func TestAnthropicMalformed(t *testing.T) {
	forEachSend(t, func(t *testing.T, sess *session.Session, call func(context.Context) (string, error), stream bool) {
		sess.Chat("bad").Reply(scenario.Text("one two three").MalformedAfter(1), scenario.Text("one two three").MalformedAfter(4)).
			Responds("whole")
		for range 2 {
			_, err := call(context.Background())
			var syntax *json.SyntaxError
			require.ErrorAs(t, err, &syntax)
			_, fault := e2e.LastFault(t, sess)
			assert.Equal(t, "malformed", fault)
		}
		e2e.ThenWhole(t, call)
	})
}

// An error event after some events is an *anthropic.Error after the text
// before it; not streamed, the HTTP error.
func TestAnthropicErrorAfterEvents(t *testing.T) {
	forEachSend(t, func(t *testing.T, sess *session.Session, call func(context.Context) (string, error), stream bool) {
		const whole = "one two three four five six seven eight"
		sess.Chat("fails").Reply(scenario.Text(whole).FailsAfter(5, "", "Broke mid-way.")).Responds("whole")
		text, err := call(context.Background())
		apiErr := apiError(t, err)
		assert.Equal(t, anthropic.ErrorTypeAPIError, apiErr.Type())
		assert.Contains(t, apiErr.Message, "Broke mid-way.")
		status, fault := e2e.LastFault(t, sess)
		if stream {
			assert.True(t, text != "" && strings.HasPrefix(whole, text) && text != whole, "partial text %q", text)
			assert.Equal(t, 200, status)
			assert.Equal(t, "error_event", fault)
		} else {
			assert.Equal(t, 500, apiErr.StatusCode)
			assert.Equal(t, "http_error", fault)
		}
		e2e.ThenWhole(t, call)
	})
}

// A dropped connection is an EOF.
func TestAnthropicDrop(t *testing.T) {
	forEachSend(t, func(t *testing.T, sess *session.Session, call func(context.Context) (string, error), stream bool) {
		sess.Chat("drop").Drops().Responds("whole")
		_, err := call(context.Background())
		require.ErrorIs(t, err, io.EOF)
		var apiErr *anthropic.Error
		assert.False(t, errors.As(err, &apiErr))
		status, fault := e2e.LastFault(t, sess)
		assert.Equal(t, 0, status)
		assert.Equal(t, "drop", fault)
		e2e.ThenWhole(t, call)
	})
}

// A hang holds the SDK until it gives up (here: cancels its context).
func TestAnthropicHang(t *testing.T) {
	forEachSend(t, func(t *testing.T, sess *session.Session, call func(context.Context) (string, error), stream bool) {
		sess.Chat("hang").Hangs().Responds("whole")
		ctx, cancel := e2e.GiveUpOnceTaken(sess)
		defer cancel()
		_, err := call(ctx)
		require.ErrorIs(t, err, context.Canceled)
		require.Eventually(t, func() bool { return sess.Journal().Len() == 1 }, 10*time.Second, time.Millisecond)
		status, fault := e2e.LastFault(t, sess)
		assert.Equal(t, 499, status)
		assert.Equal(t, "hang", fault)
		e2e.ThenWhole(t, call)
	})
}

// The SDK retries connection errors: two drops, then the answer, in one
// call of three attempts.
func TestAnthropicRetriesDroppedConnections(t *testing.T) {
	t.Parallel()
	sess := newSession(t)
	sess.Chat("flaky").Drops().Drops().Responds("finally")
	client := clientFor(sess, "k", 2)
	text, err := send(context.Background(), client, false)
	require.NoError(t, err)
	assert.Equal(t, "finally", text)
	entries := sess.Journal().Entries()
	require.Len(t, entries, 3)
	assert.Equal(t, []string{"drop", "drop", ""}, []string{entries[0].Fault, entries[1].Fault, entries[2].Fault})
	assert.Equal(t, map[string]int{"drop": 2}, sess.Assertions().Faults)
}
