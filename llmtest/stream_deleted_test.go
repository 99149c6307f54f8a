package llmtest_test

import (
	"errors"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"

	"github.com/llmtestserver/llmtestserver/internal/e2e"
	"github.com/llmtestserver/llmtestserver/llmtest"
	"github.com/llmtestserver/llmtestserver/session"
)

// A paced stream cut short by the deletion of its session, or by the
// server's Close, ends as a cut ends: the client reads an unexpected end,
// never a clean one an accumulator would take for the whole answer. It
// used to end as a clean end of file after its 200, over loopback and in
// memory alike.
func TestStreamsCutByDeletionOrCloseEndUnexpectedly(t *testing.T) {
	t.Parallel()
	for name, stop := range map[string]func(*llmtest.Server, *session.Session){
		"deletion": func(_ *llmtest.Server, sess *session.Session) { sess.Close() },
		"close":    func(srv *llmtest.Server, _ *session.Session) { srv.Close() },
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			srv := llmtest.NewServer(t)
			// Ten tokens a second: the reply takes twenty seconds.
			sess := srv.NewSession(t, session.WithStream(1, 0, 10))
			sess.Chat("long").Responds(strings.Repeat("word ", 200))
			client := llmtest.OpenAIClient(sess, option.WithMaxRetries(0))
			stream := client.Chat.Completions.NewStreaming(t.Context(), e2e.UserTurn("gpt-4.1-mini", "Hi"))
			defer stream.Close()
			var acc openai.ChatCompletionAccumulator
			require := func(ok bool, format string, args ...any) {
				t.Helper()
				if !ok {
					t.Fatalf(format, args...)
				}
			}
			require(stream.Next(), "no first chunk: %v", stream.Err())
			acc.AddChunk(stream.Current())
			stop(srv, sess)
			deadline := time.Now().Add(closeBound)
			for stream.Next() {
				acc.AddChunk(stream.Current())
				require(time.Now().Before(deadline), "the stream goes on %v after its session went", closeBound)
			}
			err := stream.Err()
			require(err != nil, "the cut stream ended cleanly with %q, which reads as a whole answer", acc.Choices[0].Message.Content)
			require(errors.Is(err, io.ErrUnexpectedEOF) || strings.Contains(err.Error(), "unexpected EOF"),
				"the cut stream ended with %v, want an unexpected EOF", err)
		})
	}
}
