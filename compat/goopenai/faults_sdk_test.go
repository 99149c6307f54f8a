package goopenai_test

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
	goopenai "github.com/sashabaranov/go-openai"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// goChat sends one chat request through go-openai, streamed or not, and
// returns the text received and the error.
func goChat(ctx context.Context, c *goopenai.Client, stream bool) (string, error) {
	req := goopenai.ChatCompletionRequest{Model: "gpt-4.1-mini",
		Messages: []goopenai.ChatCompletionMessage{{Role: "user", Content: "Hi"}}}
	if !stream {
		out, err := c.CreateChatCompletion(ctx, req)
		if err != nil {
			return "", err
		}
		return out.Choices[0].Message.Content, nil
	}
	s, err := c.CreateChatCompletionStream(ctx, req)
	if err != nil {
		return "", err
	}
	defer s.Close()
	var text strings.Builder
	for {
		ch, err := s.Recv()
		if errors.Is(err, io.EOF) {
			return text.String(), nil
		}
		if err != nil {
			return text.String(), err
		}
		if len(ch.Choices) > 0 {
			text.WriteString(ch.Choices[0].Delta.Content)
		}
	}
}

// forEachGoChat runs f streamed and not, each with a session of its own.
func forEachGoChat(t *testing.T, f func(t *testing.T, sess *session.Session, call func(context.Context) (string, error), stream bool)) {
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
			client := goOpenAIClient(sess)
			f(t, sess, func(ctx context.Context) (string, error) { return goChat(ctx, client, stream) }, stream)
		})
	}
}

// A cut stream or body reads as an unexpected EOF in go-openai.
func TestGoOpenAICut(t *testing.T) {
	forEachGoChat(t, func(t *testing.T, sess *session.Session, call func(context.Context) (string, error), stream bool) {
		sess.Chat("cut").Reply(scenario.Text("one two three four five").CutAfter(3)).Responds("whole")
		_, err := call(context.Background())
		require.ErrorIs(t, err, io.ErrUnexpectedEOF)
		status, fault := e2e.LastFault(t, sess)
		assert.Equal(t, 200, status)
		assert.Equal(t, "cut", fault)
		e2e.ThenWhole(t, call)
	})
}

// A malformed event or body is a JSON syntax error in go-openai.
func TestGoOpenAIMalformed(t *testing.T) {
	forEachGoChat(t, func(t *testing.T, sess *session.Session, call func(context.Context) (string, error), stream bool) {
		sess.Chat("bad").Reply(scenario.Text("one two three four five").MalformedAfter(2)).Responds("whole")
		_, err := call(context.Background())
		var syntax *json.SyntaxError
		require.ErrorAs(t, err, &syntax)
		_, fault := e2e.LastFault(t, sess)
		assert.Equal(t, "malformed", fault)
		e2e.ThenWhole(t, call)
	})
}

// An error event after some events is go-openai's *APIError from Recv,
// after the text before it; not streamed, the HTTP error.
func TestGoOpenAIErrorAfterEvents(t *testing.T) {
	forEachGoChat(t, func(t *testing.T, sess *session.Session, call func(context.Context) (string, error), stream bool) {
		const whole = "one two three four five six seven eight"
		sess.Chat("fails").Reply(scenario.Text(whole).FailsAfter(4, "server_error", "Broke mid-way.")).Responds("whole")
		text, err := call(context.Background())
		var apiErr *goopenai.APIError
		require.ErrorAs(t, err, &apiErr)
		assert.Equal(t, "Broke mid-way.", apiErr.Message)
		assert.Equal(t, "server_error", apiErr.Code)
		if stream {
			assert.True(t, text != "" && strings.HasPrefix(whole, text) && text != whole, "partial text %q", text)
		} else {
			assert.Equal(t, 500, apiErr.HTTPStatusCode)
		}
		e2e.ThenWhole(t, call)
	})
}

// A dropped connection is an EOF in go-openai, which does not retry.
func TestGoOpenAIDrop(t *testing.T) {
	forEachGoChat(t, func(t *testing.T, sess *session.Session, call func(context.Context) (string, error), stream bool) {
		sess.Chat("drop").Drops().Responds("whole")
		_, err := call(context.Background())
		require.ErrorIs(t, err, io.EOF)
		var apiErr *goopenai.APIError
		assert.False(t, errors.As(err, &apiErr))
		status, fault := e2e.LastFault(t, sess)
		assert.Equal(t, 0, status)
		assert.Equal(t, "drop", fault)
		assert.Equal(t, 1, sess.Journal().Len(), "one attempt")
		e2e.ThenWhole(t, call)
	})
}

// A hang holds go-openai until it gives up (here: cancels its context).
func TestGoOpenAIHang(t *testing.T) {
	forEachGoChat(t, func(t *testing.T, sess *session.Session, call func(context.Context) (string, error), stream bool) {
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
