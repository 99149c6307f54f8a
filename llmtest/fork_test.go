package llmtest_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/responses"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/llmtestserver/llmtestserver/internal/e2e"
	"github.com/llmtestserver/llmtestserver/llmtest"
	"github.com/llmtestserver/llmtestserver/scenario"
	"github.com/llmtestserver/llmtestserver/session"
)

// chatAnswer sends one user message and returns the answer, or the API
// error's status and code. It never fails the test, so that goroutines may
// call it.
func chatAnswer(ctx context.Context, client openai.Client, text string) string {
	resp, err := client.Chat.Completions.New(ctx, e2e.UserTurn(e2e.ResponsesModel, text))
	var apiErr *openai.Error
	switch {
	case errors.As(err, &apiErr):
		return fmt.Sprintf("%d %s", apiErr.StatusCode, apiErr.Code)
	case err != nil:
		return err.Error()
	}
	return resp.Choices[0].Message.Content
}

// planTurn is the chat request of a planning conversation: its opening,
// and a second turn after "turn 1" when more is set.
func planTurn(more bool) openai.ChatCompletionNewParams {
	msgs := []openai.ChatCompletionMessageParamUnion{openai.SystemMessage("You plan."), openai.UserMessage("plan a trip")}
	if more {
		msgs = append(msgs, openai.AssistantMessage("turn 1"), openai.UserMessage("plan the next day"))
	}
	return openai.ChatCompletionNewParams{Model: e2e.ResponsesModel, Messages: msgs}
}

func scenarioNames(sess *session.Session) []string {
	var names []string
	for _, st := range sess.Scenarios() {
		names = append(names, st.Scenario.Name)
	}
	return names
}

// A fork starts where its parent stands (replies left, a stored response
// to continue, a conversation under way) and then goes its own way: while
// the parent is asked, scripted and reset concurrently, and forked again,
// the fork answers from its own copy, and the fork's changes never reach
// the parent.
func TestForkIsolationUnderConcurrentMutation(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t)
	base := srv.NewSession(t, session.OnlyModels(e2e.ResponsesModel))
	base.Chat("greeting").When(scenario.UserContains("hello")).Responds("one").Then("two").Then("three")
	base.Chat("follow").When(scenario.UserContains("continue")).Responds("followed").Repeat()
	base.Chat("plan").When(scenario.UserContains("plan")).PerConversation().Responds("turn 1").Then("turn 2")
	baseClient := e2e.ClientFor(base, "k")
	ctx := t.Context()

	// The base's set-up: a stored response, and a conversation's first turn.
	r1 := e2e.Respond(t, baseClient, responses.ResponseNewParams{Model: e2e.ResponsesModel, Input: e2e.InputText("hello")}, false)
	require.Equal(t, "one", r1.OutputText())
	turn, err := baseClient.Chat.Completions.New(ctx, planTurn(false))
	require.NoError(t, err)
	require.Equal(t, "turn 1", turn.Choices[0].Message.Content)

	fork := srv.Fork(t, base)
	require.NotEqual(t, base.ID(), fork.ID())
	require.NotEqual(t, base.Key(), fork.Key())
	require.Equal(t, base.Reservation(), fork.Reservation(), "a fork reserves what its parent does")
	require.Zero(t, fork.Journal().Len(), "a fork's journal starts empty")
	forkClient := e2e.ClientFor(fork, "k")

	// A reply the parent uses after the fork is still the fork's.
	require.Equal(t, "two", chatAnswer(ctx, baseClient, "hello"))
	require.Equal(t, "two", chatAnswer(ctx, forkClient, "hello"))

	var wg sync.WaitGroup
	wg.Go(func() { // the parent, mutated
		for i := range 20 {
			chatAnswer(ctx, baseClient, "hello")
			base.Chat("parent-only").Responds(fmt.Sprint("parent ", i))
			base.Chat("greeting").Responds("parent extra")
			if i%5 == 4 {
				base.Reset()
			}
		}
	})
	wg.Go(func() { // the parent, forked again and again
		for range 10 {
			f, err := base.Fork()
			if assert.NoError(t, err) {
				f.Close()
			}
		}
	})
	wg.Go(func() { // the fork, serving its own copy
		assert.Equal(t, "three", chatAnswer(ctx, forkClient, "hello"))
		assert.Equal(t, "400 llm_test_server_no_scenario", chatAnswer(ctx, forkClient, "hello"),
			"the fork's greeting is used up; the parent's later replies and scenarios are not the fork's")
		r, err := forkClient.Responses.New(ctx, responses.ResponseNewParams{Model: e2e.ResponsesModel, Input: e2e.InputText("continue"),
			PreviousResponseID: openai.String(r1.ID)})
		if assert.NoError(t, err, "the parent's stored response continues in the fork") {
			assert.Equal(t, "followed", r.OutputText())
		}
		turn, err := forkClient.Chat.Completions.New(ctx, planTurn(true))
		if assert.NoError(t, err) {
			assert.Equal(t, "turn 2", turn.Choices[0].Message.Content, "the conversation goes on in the fork where it stood")
		}
		turn, err = forkClient.Chat.Completions.New(ctx, openai.ChatCompletionNewParams{Model: e2e.ResponsesModel,
			Messages: []openai.ChatCompletionMessageParamUnion{openai.UserMessage("plan another trip")}})
		if assert.NoError(t, err) {
			assert.Equal(t, "turn 1", turn.Choices[0].Message.Content, "a new conversation starts its own queue")
		}
	})
	wg.Wait()

	require.Equal(t, []string{"greeting", "follow", "plan"}, scenarioNames(fork))
	require.Equal(t, 6, fork.Journal().Len(), "the fork's journal holds its own requests only")
	for _, e := range fork.Journal().Entries() {
		require.NotContains(t, e.ReplyText, "parent", "a reply the parent scripted after the fork answered the fork")
	}

	// And the fork's changes stay in the fork.
	fork.Chat("fork-only").When(scenario.UserContains("fork")).Responds("from the fork")
	r2 := e2e.Respond(t, forkClient, responses.ResponseNewParams{Model: e2e.ResponsesModel, Input: e2e.InputText("continue")}, false)
	require.NotContains(t, scenarioNames(base), "fork-only")
	_, err = baseClient.Responses.Get(ctx, r2.ID, responses.ResponseGetParams{})
	e2e.WantInvalidRequest(t, "the fork's response at the parent", err, 404, "", "")
	require.Equal(t, "from the fork", chatAnswer(ctx, forkClient, "fork"))
	require.NotEqual(t, "from the fork", chatAnswer(ctx, baseClient, "fork"))

	// Closing the parent leaves the fork alive.
	base.Close()
	require.Equal(t, "followed", chatAnswer(ctx, forkClient, "continue"))
}

// A fork never hands out its parent's next IDs; a seeded parent gives its
// forks seeds derived from the fork's name, the same on every run.
func TestForkIDs(t *testing.T) {
	t.Parallel()
	first := func(sess *session.Session) string {
		r := e2e.Respond(t, e2e.ClientFor(sess, "k"), responses.ResponseNewParams{Model: e2e.ResponsesModel, Input: e2e.InputText("hi")}, false)
		return r.ID
	}
	newBase := func(opts ...session.Option) *session.Session {
		srv := llmtest.NewServer(t)
		base := srv.NewSession(t, opts...)
		base.Chat("any").Responds("ok").Repeat()
		first(base)
		return base
	}
	forkOf := func(base *session.Session, opts ...session.ForkOption) *session.Session {
		f, err := base.Fork(opts...)
		require.NoError(t, err)
		t.Cleanup(f.Close)
		return f
	}

	unseeded := newBase()
	f := forkOf(unseeded)
	require.NotEqual(t, first(unseeded), first(f), "an unseeded fork draws its own IDs")

	a, b := newBase(session.WithIDSeed(42)), newBase(session.WithIDSeed(42))
	fa, fb := forkOf(a, session.ForkName("subtest")), forkOf(b, session.ForkName("subtest"))
	idA, idB := first(fa), first(fb)
	require.Equal(t, idA, idB, "forks of one seed under one name repeat their IDs")
	require.NotEqual(t, first(a), idA, "the fork's IDs are not its parent's next")
	cfg, err := fa.Config()
	require.NoError(t, err)
	require.NotNil(t, cfg.IDSeed)
	require.NotEqual(t, uint64(42), *cfg.IDSeed, "the fork's configuration shows its own seed")

	other := forkOf(a, session.ForkName("another subtest"))
	require.NotEqual(t, idA, first(other), "another name, other IDs")
	// Unnamed forks are named by their ordinal: the first fork of a and of b
	// agree.
	require.Equal(t, first(forkOf(a)), first(forkOf(b)))
	fa.Reset()
	require.Equal(t, idA, first(fa), "a reset fork starts again from its own seed")
}

// A fork is priced like a new session: a full budget refuses it with the
// error Create gets, and changes nothing.
func TestForkRefusedWhenTheBudgetIsFull(t *testing.T) {
	t.Parallel()
	cfg := session.DefaultConfig()
	// The default runtime's share, one session, and half of another.
	srv := llmtest.NewServer(t, llmtest.WithBounds(session.Bounds{MaxSessions: 32,
		MaxReservedBytes: cfg.Reservation() * 5 / 2, MaxConfigBytes: 1 << 20}))
	base := srv.NewSession(t)
	base.Chat("greeting").Responds("hi")
	reserved := srv.Manager().Reserved()

	_, createErr := srv.OpenSession()
	_, forkErr := base.Fork()
	require.ErrorIs(t, createErr, session.ErrCapacityExceeded)
	require.ErrorIs(t, forkErr, session.ErrCapacityExceeded)
	require.Equal(t, 1, srv.Manager().Len())
	require.Equal(t, reserved, srv.Manager().Reserved())

	full := &helperTB{}
	require.PanicsWithValue(t, fmt.Sprintf("llmtest: Fork of session %s: %v", base.ID(), forkErr),
		func() { srv.Fork(full, base) })
}

// The session count bounds forks too.
func TestForkRefusedWhenEverySessionIsInUse(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t, llmtest.WithBounds(session.Bounds{MaxSessions: 1, MaxReservedBytes: 1 << 30, MaxConfigBytes: 1 << 20}))
	base := srv.NewSession(t)
	_, err := base.Fork()
	require.ErrorIs(t, err, session.ErrCapacityExceeded)
}

func TestForkOfDeletedSession(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t)
	base := srv.NewSession(t)
	base.Close()
	_, err := base.Fork()
	require.ErrorIs(t, err, session.ErrNotFound)
	require.Zero(t, srv.Manager().Len())

	fake := &helperTB{}
	require.Panics(t, func() { srv.Fork(fake, base) })
}

// Server.Fork closes the fork at cleanup, and a strict server checks it as
// it checks NewSession's sessions.
func TestServerForkCleanup(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t, llmtest.WithStrict())
	base := srv.NewSession(t)
	fake := &helperTB{}
	fork := srv.Fork(fake, base)
	fork.Chat("unused").Responds("never asked for")
	require.Equal(t, 2, srv.Manager().Len())
	fake.runCleanups()
	require.Equal(t, 1, srv.Manager().Len(), "the fork is closed at cleanup")
	require.NotEmpty(t, fake.errors, "strict mode checks the fork")
	require.True(t, slices.ContainsFunc(fake.errors, func(e string) bool { return strings.Contains(e, "unused") }), "errors: %q", fake.errors)
}
