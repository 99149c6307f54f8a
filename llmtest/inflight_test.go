package llmtest_test

import (
	"context"
	"errors"
	"net/http"
	"testing"
	"time"

	"github.com/llmtestserver/llmtestserver/internal/e2e"
	"github.com/llmtestserver/llmtestserver/llmtest"
	"github.com/llmtestserver/llmtestserver/session"
)

// Deleting a session while a delayed reply is pending ends that request with
// 409 llm_test_server_request_superseded; afterwards its headers get 404 and
// nothing was written into the deleted session.
func TestDeleteDuringDelayedResponse(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t)
	sess := srv.NewSession(t)
	sess.Chat("slow").RespondsAfter(time.Hour, "never delivered")
	sel := e2e.SelectorOf(sess)

	done := make(chan e2e.Reply, 1)
	go func() {
		done <- e2e.Call(t, srv.Client(), http.MethodPost, srv.URL()+"/v1/chat/completions", e2e.ChatBody("gpt-4.1-mini", "Hi"), sel...)
	}()
	e2e.Eventually(t, "the delayed request took its reply", func() bool { return sess.Pending() == 0 })
	sess.Close()
	select {
	case r := <-done:
		r.WantError(t, http.StatusConflict, "llm_test_server_request_superseded")
	case <-time.After(10 * time.Second):
		t.Fatal("the in-flight request did not end when its session was deleted")
	}
	e2e.Call(t, srv.Client(), http.MethodPost, srv.URL()+"/v1/chat/completions", e2e.ChatBody("gpt-4.1-mini", "Hi"), sel...).
		WantError(t, http.StatusNotFound, "session_not_found")
	if n := sess.Journal().Len(); n != 0 {
		t.Errorf("the deleted session's journal has %d entries, want none", n)
	}
	if sess.Pending() != 0 {
		t.Errorf("the deleted session got its reply back: nothing may be written into it")
	}
}

// The same holds when the delayed queue came in the configuration posted to
// POST /admin-api/sessions.
func TestDeleteDuringDelayedResponseConfiguredOverHTTP(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t)
	c := e2e.CreateOverHTTP(t, srv, `{"scenarios":[{"name":"slow","match":{},"replies":[{"text":"late","delay_ms":3600000}]}]}`)
	sel := []string{session.HeaderSession, c.ID, session.HeaderSessionKey, c.Key}
	sess, _ := srv.Manager().Lookup(c.ID, c.Key)

	done := make(chan e2e.Reply, 1)
	go func() {
		done <- e2e.Call(t, srv.Client(), http.MethodPost, srv.URL()+"/v1/chat/completions", e2e.ChatBody("gpt-4.1-mini", "Hi"), sel...)
	}()
	e2e.Eventually(t, "the delayed request took its reply", func() bool { return sess.Pending() == 0 })
	r := e2e.Call(t, srv.Client(), http.MethodDelete, srv.URL()+"/admin-api/sessions/"+c.ID, "", sel...)
	if r.Status != http.StatusNoContent {
		t.Fatalf("delete: %d %s", r.Status, r.Body)
	}
	(<-done).WantError(t, http.StatusConflict, "llm_test_server_request_superseded")
	e2e.Call(t, srv.Client(), http.MethodGet, srv.URL()+"/v1/models", "", sel...).WantError(t, http.StatusNotFound, "session_not_found")
	if n := sess.Journal().Len(); n != 0 {
		t.Errorf("the deleted session's journal has %d entries, want none", n)
	}
}

// A client that gives up while its reply is held back puts the reply back at
// the head of its queue, and the request is journaled as 499.
func TestCancelledRequestRollsBack(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t)
	sess := srv.NewSession(t)
	sess.Chat("script").RespondsAfter(time.Hour, "held back").Responds("next")
	client := e2e.ClientFor(sess, "k")

	giveUp := func() {
		t.Helper()
		ctx, cancel := context.WithCancel(context.Background())
		errc := make(chan error, 1)
		go func() {
			_, err := client.Chat.Completions.New(ctx, e2e.UserTurn("gpt-4.1-mini", "Hi"))
			errc <- err
		}()
		e2e.Eventually(t, "the request took the held-back reply", func() bool { return sess.Pending() == 1 })
		n := sess.Journal().Len()
		cancel()
		if err := <-errc; !errors.Is(err, context.Canceled) {
			t.Fatalf("cancelled call: err = %v, want context.Canceled", err)
		}
		e2e.Eventually(t, "the cancelled request is journaled", func() bool { return sess.Journal().Len() == n+1 })
		if got := sess.Pending(); got != 2 {
			t.Fatalf("pending replies after the cancel = %d, want 2", got)
		}
	}
	giveUp()
	// Had the reply gone to the back of the queue, this request would get
	// "next" at once instead of waiting for the held-back reply.
	giveUp()
	for _, e := range sess.Journal().Entries() {
		if e.Status != 499 || e.Scenario != "script" || e.ReplyText != "" {
			t.Errorf("journal entry %+v, want status 499 from script with no reply text", e)
		}
	}
}
