package llmtest_test

import (
	"context"
	"fmt"
	"net/http"
	"sync"
	"testing"

	"github.com/llmtestserver/llmtestserver/internal/e2e"
	"github.com/llmtestserver/llmtestserver/llmtest"
	"github.com/llmtestserver/llmtestserver/session"
)

// Two sessions on one server receive the same prompt at the same time; each
// gets its own scripted reply and records only its own request.
func TestParallelIdenticalPromptsGetTheirOwnReplies(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t)
	const rounds = 20
	sessions := make([]*session.Session, 2)
	for i := range sessions {
		sessions[i] = srv.NewSession(t, session.RequireAPIKey("provider-key"))
		for r := range rounds {
			sessions[i].Chat("greeting").Responds(fmt.Sprintf("session %d reply %d", i, r))
		}
	}
	var wg sync.WaitGroup
	got := make([][]string, len(sessions))
	errs := make(chan error, len(sessions)*rounds)
	for i, sess := range sessions {
		wg.Go(func() {
			client := e2e.ClientFor(sess, "provider-key")
			for range rounds {
				resp, err := client.Chat.Completions.New(context.Background(), e2e.UserTurn("gpt-4.1-mini", "Hello"))
				if err != nil {
					errs <- err
					return
				}
				got[i] = append(got[i], resp.Choices[0].Message.Content)
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	for i, sess := range sessions {
		for r, text := range got[i] {
			if want := fmt.Sprintf("session %d reply %d", i, r); text != want {
				t.Errorf("session %d call %d got %q, want %q", i, r, text, want)
			}
		}
		if n := sess.Journal().Len(); n != rounds {
			t.Errorf("session %d journal has %d entries, want %d", i, n, rounds)
		}
	}
}

// Scripting, consuming, resetting, reconfiguring and closing one session
// leaves its neighbour exactly as it was.
func TestOperationsTouchOneSessionOnly(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t)
	a := srv.NewSession(t)
	b := srv.NewSession(t)
	a.Chat("greeting").Responds("from a")
	b.Chat("greeting").Responds("from b 1").Responds("from b 2")
	ctx := context.Background()
	ask := func(sess *session.Session) (string, error) {
		client := e2e.ClientFor(sess, "no-key-required")
		resp, err := client.Chat.Completions.New(ctx, e2e.UserTurn("gpt-4.1-mini", "Hi"))
		if err != nil {
			return "", err
		}
		return resp.Choices[0].Message.Content, nil
	}

	if got, err := ask(a); err != nil || got != "from a" {
		t.Fatalf("a: got %q, %v; want from a", got, err)
	}
	if _, err := ask(a); err == nil {
		t.Fatal("a answered a second time; its only reply was used")
	}

	t.Run("reset", func(t *testing.T) {
		a.Reset()
		if n := a.Journal().Len(); n != 0 {
			t.Errorf("a journal after reset: %d entries, want 0", n)
		}
		if got, err := ask(a); err != nil || got != "from a" {
			t.Errorf("a after reset: got %q, %v; want its reply again", got, err)
		}
		if got, err := ask(b); err != nil || got != "from b 1" {
			t.Errorf("b: got %q, %v; want its first reply, untouched by a's reset", got, err)
		}
	})

	t.Run("configure", func(t *testing.T) {
		if err := a.Configure(session.RequireAPIKey("new-key")); err != nil {
			t.Fatal(err)
		}
		if _, err := ask(a); err == nil {
			t.Error("a accepted a request without its new bearer token")
		}
		if got, err := ask(b); err != nil || got != "from b 2" {
			t.Errorf("b: got %q, %v; want its second reply, unaffected by a's configuration", got, err)
		}
	})

	t.Run("close", func(t *testing.T) {
		b.Reset()
		a.Close()
		a.Close() // closing twice is fine
		if got, err := ask(b); err != nil || got != "from b 1" {
			t.Errorf("b after a closed: got %q, %v", got, err)
		}
		r := e2e.Call(t, srv.Client(), http.MethodPost, a.BaseURL()+"/chat/completions", e2e.ChatBody("gpt-4.1-mini", "Hi"), e2e.SelectorOf(a)...)
		r.WantError(t, http.StatusNotFound, "session_not_found")
	})
}

// A request without session headers reaches the default runtime, which is
// guarded by the management key and shares nothing with sessions.
func TestDefaultRuntimeIsSeparate(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t, llmtest.WithDefaults(session.WithScenario(greetingScenario("from the default runtime"))))
	sess := srv.NewSession(t)
	sess.Configure() // drop the scenario the session cloned from the startup configuration

	r := e2e.Call(t, srv.Client(), http.MethodPost, srv.URL()+"/v1/chat/completions", e2e.ChatBody("gpt-4.1-mini", "Hi"))
	r.WantError(t, http.StatusUnauthorized, "")
	r = e2e.Call(t, srv.Client(), http.MethodPost, srv.URL()+"/v1/chat/completions", e2e.ChatBody("gpt-4.1-mini", "Hi"), e2e.Bearer(srv.ManagementKey())...)
	if r.Status != http.StatusOK {
		t.Fatalf("default runtime: status %d, body %s", r.Status, r.Body)
	}
	if n := sess.Journal().Len(); n != 0 {
		t.Errorf("session journal has %d entries; the request went to the default runtime", n)
	}
}
