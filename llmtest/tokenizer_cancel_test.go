package llmtest_test

import (
	"context"
	"errors"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/llmtestserver/llmtestserver/internal/e2e"
	"github.com/llmtestserver/llmtestserver/llmtest"
	"github.com/llmtestserver/llmtestserver/scenario"
	"github.com/llmtestserver/llmtestserver/session"
	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
)

// slowToCount is an embeddings input the tokenizer library's regexp is
// quadratic on: " \n" repeated over 8 MiB. Before text was cut into pieces,
// 128 KiB of it held a core for 18 s and 1 MiB for minutes; even cut, all
// of it takes seconds (tens under -race), so only stopping the count lets
// the tests below end promptly.
func slowToCount() string { return strings.Repeat(" \n", 4<<20) }

// closeBound is how long Server.Close may take once the work it waits for
// was cancelled: generous, since the machine may be loaded.
const closeBound = 10 * time.Second

// bodySent is a middleware that closes sent once the request body has been
// read to its end by the transport, that is, sent to the server.
func bodySent(sent chan<- struct{}) option.Middleware {
	return func(req *http.Request, next option.MiddlewareNext) (*http.Response, error) {
		if req.Body != nil {
			req.Body = &signalOnEOF{ReadCloser: req.Body, sent: sent}
		}
		return next(req)
	}
}

type signalOnEOF struct {
	io.ReadCloser
	sent chan<- struct{}
	done bool
}

func (s *signalOnEOF) Read(p []byte) (int, error) {
	n, err := s.ReadCloser.Read(p)
	if err == io.EOF && !s.done {
		s.done = true
		close(s.sent)
	}
	return n, err
}

// slowCall is a request whose prompt is slowToCount.
type slowCall func(ctx context.Context, client openai.Client) error

func slowEmbeddings(ctx context.Context, client openai.Client) error {
	_, err := client.Embeddings.New(ctx, openai.EmbeddingNewParams{Model: "text-embedding-3-small",
		Input: openai.EmbeddingNewParamsInputUnion{OfString: openai.String(slowToCount())}})
	return err
}

func slowChat(ctx context.Context, client openai.Client) error {
	_, err := client.Chat.Completions.New(ctx, e2e.UserTurn("gpt-4o-mini", slowToCount()))
	return err
}

// startSlow sends call to sess from a goroutine and returns once the body
// is sent; the call's error arrives on the returned channel.
func startSlow(t *testing.T, ctx context.Context, sess *session.Session, call slowCall) <-chan error {
	t.Helper()
	sent := make(chan struct{})
	client := openai.NewClient(option.WithBaseURL(sess.BaseURL()), option.WithAPIKey("k"),
		option.WithHTTPClient(sess.HTTPClient()), option.WithMaxRetries(0), option.WithMiddleware(bodySent(sent)))
	done := make(chan error, 1)
	go func() { done <- call(ctx, client) }()
	select {
	case <-sent:
	case err := <-done:
		t.Fatalf("the request ended before its body was sent: %v", err)
	case <-time.After(closeBound):
		t.Fatal("the request body was not sent")
	}
	time.Sleep(100 * time.Millisecond) // let the server finish reading and start counting
	return done
}

// closeWithin closes srv and fails the test unless Close returns in time.
func closeWithin(t *testing.T, srv *llmtest.Server) {
	t.Helper()
	closed := make(chan struct{})
	start := time.Now()
	go func() {
		srv.Close()
		close(closed)
	}()
	select {
	case <-closed:
		t.Logf("Server.Close returned after %v", time.Since(start))
	case <-time.After(closeBound):
		t.Fatalf("Server.Close has not returned after %v: the count goes on", closeBound)
	}
}

// A client that gives up on a request whose prompt is slow to count stops
// its cost: the count stops, the journal shows the request as 499, the
// scripted reply stays queued, and Server.Close returns promptly, leaving no
// goroutine behind (TestMain checks).
func TestSlowCountsStopWhenTheClientLeaves(t *testing.T) {
	if testing.Short() {
		t.Skip("sends 8 MiB")
	}
	for name, call := range map[string]slowCall{"embeddings": slowEmbeddings, "chat": slowChat} {
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
			// The chat prompt is counted before any reply is reserved (its
			// length is checked against the model's window), so the
			// responder never runs.
			sess.Chat("answer").Reply(scenario.Respond(func(*scenario.Request) scenario.Reply {
				return scenario.Text("never read")
			}))
			ctx, cancel := context.WithCancel(t.Context())
			done := startSlow(t, ctx, sess, call)
			cancel()
			if err := <-done; !errors.Is(err, context.Canceled) {
				t.Fatalf("the cancelled call returned %v, want context.Canceled", err)
			}
			deadline := time.Now().Add(closeBound)
			for sess.Journal().Len() == 0 && time.Now().Before(deadline) {
				time.Sleep(10 * time.Millisecond)
			}
			e, ok := sess.Journal().Last()
			if !ok {
				t.Fatalf("no journal entry %v after the client left: the count goes on", closeBound)
			}
			if e.Status != 499 || e.ErrorCode != "client_closed_request" {
				t.Errorf("journal entry: status %d, code %q; want 499 client_closed_request", e.Status, e.ErrorCode)
			}
			if n := sess.Pending(); n != 1 {
				t.Errorf("Pending() = %d after the client left, want the reply back in its queue", n)
			}
			closeWithin(t, srv)
		})
	}
}

// Deleting the session of a request whose prompt is slow to count ends it
// as superseded (409, not journaled) at once, and Server.Close returns
// promptly.
func TestSlowCountsStopWhenTheSessionIsDeleted(t *testing.T) {
	if testing.Short() {
		t.Skip("sends 8 MiB")
	}
	srv, err := llmtest.New()
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	sess, err := srv.OpenSession()
	if err != nil {
		t.Fatal(err)
	}
	done := startSlow(t, t.Context(), sess, slowEmbeddings)
	sess.Close()
	select {
	case err := <-done:
		// 409 when the server had read the whole body; when the deletion
		// caught the body still arriving (a loaded machine), the server
		// stops reading it and the client sees its connection end.
		var apiErr *openai.Error
		if errors.As(err, &apiErr) && apiErr.StatusCode != http.StatusConflict || err == nil {
			t.Errorf("the call returned %v, want 409 (superseded) or a closed connection", err)
		}
	case <-time.After(closeBound):
		t.Fatalf("the request has not ended %v after its session was deleted", closeBound)
	}
	if n := sess.Journal().Len(); n != 0 {
		t.Errorf("the deleted session journaled %d entries, want none", n)
	}
	closeWithin(t, srv)
}
