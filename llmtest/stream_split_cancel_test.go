package llmtest_test

import (
	"context"
	"errors"
	"net/http"
	"testing"
	"time"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
	"github.com/openai/openai-go/v3/responses"

	"github.com/llmtestserver/llmtestserver/internal/e2e"
	"github.com/llmtestserver/llmtestserver/llmtest"
	"github.com/llmtestserver/llmtestserver/scenario"
)

// A streamed answer whose text is slow to cut into tokens stops being cut
// when its client leaves, on every conversational route: the journal
// shows the request as 499 at once, not after the whole text was cut
// (about 10 s for this one, far more under -race), and Server.Close
// returns promptly.
func TestSlowStreamSplitsStopWhenTheClientLeaves(t *testing.T) {
	if testing.Short() {
		t.Skip("renders 8 MiB")
	}
	for name, stream := range map[string]func(ctx context.Context, client openai.Client) error{
		"chat": func(ctx context.Context, client openai.Client) error {
			s := client.Chat.Completions.NewStreaming(ctx, e2e.UserTurn("gpt-4o-mini", "Hi"))
			defer s.Close()
			for s.Next() {
			}
			return s.Err()
		},
		"responses": func(ctx context.Context, client openai.Client) error {
			s := client.Responses.NewStreaming(ctx, responses.ResponseNewParams{Model: "gpt-4o-mini",
				Input: responses.ResponseNewParamsInputUnion{OfString: openai.String("Hi")}})
			defer s.Close()
			for s.Next() {
			}
			return s.Err()
		},
	} {
		t.Run(name, func(t *testing.T) {
			srv, err := llmtest.New()
			if err != nil {
				t.Fatal(err)
			}
			defer srv.Close()
			sess, err := srv.OpenSession()
			if err != nil {
				t.Fatal(err)
			}
			// A Go responder: a scripted reply this long would not fit
			// the configuration's size limit.
			answered := make(chan struct{})
			sess.Chat("long").Reply(scenario.Respond(func(*scenario.Request) scenario.Reply {
				close(answered)
				return scenario.Text(slowToCount())
			}))
			client := openai.NewClient(option.WithBaseURL(sess.BaseURL()), option.WithAPIKey("k"),
				option.WithHTTPClient(sess.HTTPClient()), option.WithMaxRetries(0))
			ctx, cancel := context.WithCancel(t.Context())
			done := make(chan error, 1)
			go func() { done <- stream(ctx, client) }()
			select {
			case <-answered:
			case <-time.After(closeBound):
				t.Fatal("the responder was not called")
			}
			time.Sleep(100 * time.Millisecond) // let the server start on the answer
			cancel()
			if err := <-done; !errors.Is(err, context.Canceled) {
				var apiErr *openai.Error
				if !errors.As(err, &apiErr) || apiErr.StatusCode != http.StatusOK {
					t.Fatalf("the cancelled stream returned %v, want context.Canceled", err)
				}
			}
			deadline := time.Now().Add(closeBound)
			for sess.Journal().Len() == 0 && time.Now().Before(deadline) {
				time.Sleep(10 * time.Millisecond)
			}
			e, ok := sess.Journal().Last()
			if !ok {
				t.Fatalf("no journal entry %v after the client left: the answer is still being cut", closeBound)
			}
			if e.Status != 499 {
				t.Errorf("journal entry: status %d, want 499", e.Status)
			}
			closeWithin(t, srv)
		})
	}
}
