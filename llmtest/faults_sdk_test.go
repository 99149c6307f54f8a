package llmtest_test

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/llmtestserver/llmtestserver/internal/e2e"
	"github.com/llmtestserver/llmtestserver/llmtest"
	"github.com/llmtestserver/llmtestserver/scenario"
	"github.com/llmtestserver/llmtestserver/session"
	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
	"github.com/openai/openai-go/v3/responses"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// forEachOpenAICall runs f for each API, streamed and not, each with a
// session of its own.
func forEachOpenAICall(t *testing.T, f func(t *testing.T, sess *session.Session, call func(ctx context.Context) (string, error), stream bool)) {
	t.Parallel()
	srv := llmtest.NewServer(t)
	for _, api := range e2e.OpenAIAPIs() {
		for _, stream := range []bool{false, true} {
			name := api.Name
			if stream {
				name += "/stream"
			}
			t.Run(name, func(t *testing.T) {
				t.Parallel()
				sess := srv.NewSession(t)
				client := e2e.ClientFor(sess, "k")
				f(t, sess, func(ctx context.Context) (string, error) { return api.Call(ctx, client, stream) }, stream)
			})
		}
	}
}

// lastEntry is the session's newest journal entry.
func lastEntry(t *testing.T, sess *session.Session) (status int, fault string) {
	t.Helper()
	entries := sess.Journal().Entries()
	require.NotEmpty(t, entries)
	e := entries[len(entries)-1]
	return e.Status, e.Fault
}

// A cut stream reads as an unexpected EOF, not as a clean end; a cut JSON
// body likewise. The cut reply is used up: the retry gets the next one.
func TestOpenAICutSurfacesAsUnexpectedEOF(t *testing.T) {
	forEachOpenAICall(t, func(t *testing.T, sess *session.Session, call func(context.Context) (string, error), stream bool) {
		sess.Chat("cut").Reply(scenario.Text("one two three four five six").CutAfter(3)).Responds("whole")
		_, err := call(context.Background())
		require.Error(t, err)
		assert.ErrorIs(t, err, io.ErrUnexpectedEOF)
		if !stream {
			// The body broke off while read, rather than reading whole as
			// truncated JSON.
			assert.Contains(t, err.Error(), "reading response body")
		}
		status, fault := lastEntry(t, sess)
		assert.Equal(t, 200, status)
		assert.Equal(t, "cut", fault)
		text, err := call(context.Background())
		require.NoError(t, err)
		assert.Equal(t, "whole", text)
	})
}

// A malformed event (a malformed body) fails the SDK's JSON decoding.
func TestOpenAIMalformedSurfacesAsDecodeError(t *testing.T) {
	forEachOpenAICall(t, func(t *testing.T, sess *session.Session, call func(context.Context) (string, error), stream bool) {
		sess.Chat("bad").Reply(scenario.Text("one two three four").MalformedAfter(2)).Responds("whole")
		_, err := call(context.Background())
		require.Error(t, err)
		assert.NotErrorIs(t, err, io.ErrUnexpectedEOF)
		var syntax *json.SyntaxError
		assert.ErrorAs(t, err, &syntax)
		_, fault := lastEntry(t, sess)
		assert.Equal(t, "malformed", fault)
		text, err := call(context.Background())
		require.NoError(t, err)
		assert.Equal(t, "whole", text)
	})
}

// An error after some events arrives after the text streamed before it;
// a request that does not stream gets the HTTP error.
func TestOpenAIErrorAfterEvents(t *testing.T) {
	forEachOpenAICall(t, func(t *testing.T, sess *session.Session, call func(context.Context) (string, error), stream bool) {
		const whole = "one two three four five six seven eight"
		sess.Chat("fails").Reply(scenario.Text(whole).FailsAfter(6, "server_error", "Broke mid-way.")).Responds("whole")
		text, err := call(context.Background())
		require.Error(t, err)
		status, fault := lastEntry(t, sess)
		if stream {
			assert.Contains(t, err.Error(), "Broke mid-way.")
			assert.NotEmpty(t, text, "the text before the error")
			assert.True(t, strings.HasPrefix(whole, text) && text != whole, "partial text %q", text)
			assert.Equal(t, 200, status)
			assert.Equal(t, "error_event", fault)
		} else {
			var apiErr *openai.Error
			require.ErrorAs(t, err, &apiErr)
			assert.Equal(t, 500, apiErr.StatusCode)
			assert.Equal(t, "server_error", apiErr.Code)
			assert.Equal(t, "Broke mid-way.", apiErr.Message)
			assert.Equal(t, "http_error", fault)
		}
		assert.Equal(t, "server_error", sess.Journal().Entries()[0].ErrorCode)
		text, err = call(context.Background())
		require.NoError(t, err)
		assert.Equal(t, "whole", text)
	})
}

// A dropped connection reads as an EOF before any response.
func TestOpenAIDropSurfacesAsEOF(t *testing.T) {
	forEachOpenAICall(t, func(t *testing.T, sess *session.Session, call func(context.Context) (string, error), stream bool) {
		sess.Chat("drop").Drops().Responds("whole")
		_, err := call(context.Background())
		require.Error(t, err)
		assert.ErrorIs(t, err, io.EOF)
		var apiErr *openai.Error
		assert.False(t, errors.As(err, &apiErr), "no HTTP response: %v", err)
		status, fault := lastEntry(t, sess)
		assert.Equal(t, 0, status)
		assert.Equal(t, "drop", fault)
		text, err := call(context.Background())
		require.NoError(t, err)
		assert.Equal(t, "whole", text)
	})
}

// A hang holds the client until its timeout; the journal records the
// client giving up, and the hang is used up.
func TestOpenAIHangUntilClientTimeout(t *testing.T) {
	forEachOpenAICall(t, func(t *testing.T, sess *session.Session, call func(context.Context) (string, error), stream bool) {
		sess.Chat("hang").Hangs().Responds("whole")
		ctx, cancel := e2e.GiveUpOnceTaken(sess)
		defer cancel()
		_, err := call(ctx)
		require.ErrorIs(t, err, context.Canceled)
		require.Eventually(t, func() bool { return sess.Journal().Len() == 1 }, waitLong, pollEvery)
		status, fault := lastEntry(t, sess)
		assert.Equal(t, 499, status)
		assert.Equal(t, "hang", fault)
		text, err := call(context.Background())
		require.NoError(t, err)
		assert.Equal(t, "whole", text)
	})
}

// A hang behind a delay is used up even when the client gives up during
// the delay: it never meant to answer. (A plain delayed reply whose client
// leaves goes back to its queue.)
func TestHangBehindADelayIsUsedUp(t *testing.T) {
	forEachOpenAICall(t, func(t *testing.T, sess *session.Session, call func(context.Context) (string, error), stream bool) {
		hang := scenario.Hang()
		hang.Delay = time.Hour
		sess.Chat("hang").Reply(hang).Responds("whole")
		ctx, cancel := e2e.GiveUpOnceTaken(sess)
		defer cancel()
		_, err := call(ctx)
		require.ErrorIs(t, err, context.Canceled)
		require.Eventually(t, func() bool { return sess.Journal().Len() == 1 }, waitLong, pollEvery)
		status, fault := lastEntry(t, sess)
		assert.Equal(t, 499, status)
		assert.Equal(t, "hang", fault)
		next, stop := context.WithTimeout(context.Background(), waitLong) // fails, not hangs, if the hang came back
		defer stop()
		text, err := call(next)
		require.NoError(t, err)
		assert.Equal(t, "whole", text)
	})
}

// openai-go retries connection errors: two drops, then the answer, in one
// call of three attempts.
func TestOpenAIRetriesDroppedConnections(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t)
	sess := srv.NewSession(t)
	sess.Chat("flaky").Drops().Drops().Responds("finally")
	client := openai.NewClient(option.WithBaseURL(sess.BaseURL()), option.WithAPIKey("k"),
		option.WithHTTPClient(sess.HTTPClient()), option.WithMaxRetries(2))
	out, err := client.Chat.Completions.New(context.Background(), e2e.UserTurn("gpt-4o-mini", "Hi"))
	require.NoError(t, err)
	assert.Equal(t, "finally", out.Choices[0].Message.Content)
	entries := sess.Journal().Entries()
	require.Len(t, entries, 3)
	assert.Equal(t, []string{"drop", "drop", ""}, []string{entries[0].Fault, entries[1].Fault, entries[2].Fault})
	assert.Equal(t, map[string]int{"drop": 2}, sess.Assertions().Faults)
	assert.Zero(t, sess.Pending())
}

// A Responses stream that fails after some events is stored failed, as
// one that fails at once.
func TestResponsesFailingAfterEventsIsStoredFailed(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t)
	sess := srv.NewSession(t)
	sess.Chat("fails").Reply(scenario.Text("one two three four five six").FailsAfter(5, "server_error", "Broke mid-way."))
	client := e2e.ClientFor(sess, "k")
	s := client.Responses.NewStreaming(context.Background(), responses.ResponseNewParams{Model: "gpt-4.1-mini",
		Input: responses.ResponseNewParamsInputUnion{OfString: openai.String("Hi")}})
	var types []string
	var id string
	for s.Next() {
		ev := s.Current()
		types = append(types, ev.Type)
		if ev.Type == "response.created" {
			id = ev.Response.ID
		}
	}
	require.NoError(t, s.Err())
	require.Len(t, types, 6)
	assert.Equal(t, "response.failed", types[5])
	got, err := client.Responses.Get(context.Background(), id, responses.ResponseGetParams{})
	require.NoError(t, err)
	assert.Equal(t, responses.ResponseStatusFailed, got.Status)
	assert.Equal(t, "Broke mid-way.", got.Error.Message)
}
