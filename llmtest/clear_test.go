package llmtest_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/llmtestserver/llmtestserver/internal/e2e"
	"github.com/llmtestserver/llmtestserver/llmtest"
	"github.com/llmtestserver/llmtestserver/scenario"
	"github.com/llmtestserver/llmtestserver/session"
)

// Builder.Clear drops what a scenario has left: it answers nothing until
// it gets new replies, keeps its place and match, and Reset gives back the
// replies it used before the Clear but not those it dropped.
func TestBuilderClearDropsRemainingReplies(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t)
	sess := srv.NewSession(t)
	greeting := sess.Chat("greeting").When(scenario.UserContains("hello")).Responds("one").Then("two").Then("three")
	sess.Chat("fallback").Responds("fallback").Repeat()
	client := e2e.ClientFor(sess, "k")
	ctx := t.Context()
	require.Equal(t, "one", chatAnswer(ctx, client, "hello"))

	before := sess.Reservation()
	greeting.Clear()
	require.Less(t, sess.Reservation(), before, "the dropped replies no longer reserve")
	require.Equal(t, 1, sess.Pending(), "the fallback's repeating reply is all that is left")
	require.Equal(t, "fallback", chatAnswer(ctx, client, "hello"))

	sess.Reset()
	require.Equal(t, "one", chatAnswer(ctx, client, "hello"), "Reset gives back the reply used before Clear")
	require.Equal(t, "fallback", chatAnswer(ctx, client, "hello"), "the replies Clear dropped stay gone")

	// New replies after Clear answer in the scenario's place, with its match.
	sess.Chat("greeting").Clear().Responds("new")
	require.Equal(t, "fallback", chatAnswer(ctx, client, "bye"))
	require.Equal(t, "new", chatAnswer(ctx, client, "hello"))
	require.Empty(t, sess.Assertions().UnusedReplies)
}

// A scenario cleared before it answered anything is left out of Config, so
// that the configuration still applies as it is.
func TestBuilderClearKeepsTheConfigurationValid(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t)
	sess := srv.NewSession(t)
	sess.Chat("a").When(scenario.UserContains("a")).Responds("from a")
	sess.Chat("b").Responds("from b")
	sess.Chat("a").Clear()
	cfg, err := sess.Config()
	require.NoError(t, err)
	require.Len(t, cfg.Scenarios, 1)
	require.Equal(t, "b", cfg.Scenarios[0].Name)
	require.NoError(t, sess.Configure(session.WithConfig(cfg)))
	require.Equal(t, "from b", chatAnswer(t.Context(), e2e.ClientFor(sess, "k"), "a"))
}

// The use Clear is made for: a fork answers differently from its base,
// which keeps its own replies.
func TestBuilderClearInAFork(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t)
	base := srv.NewSession(t)
	base.Chat("greeting").Responds("Hello")
	fork := srv.Fork(t, base)
	fork.Chat("greeting").Clear().Responds("Bonjour")
	ctx := t.Context()
	require.Equal(t, "Bonjour", chatAnswer(ctx, e2e.ClientFor(fork, "k"), "hi"))
	require.Equal(t, "Hello", chatAnswer(ctx, e2e.ClientFor(base, "k"), "hi"))
}
