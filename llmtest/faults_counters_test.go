package llmtest_test

import (
	"context"
	"net/http"
	"testing"

	"github.com/llmtestserver/llmtestserver/internal/e2e"
	"github.com/llmtestserver/llmtestserver/llmtest"
	"github.com/llmtestserver/llmtestserver/scenario"
	"github.com/openai/openai-go/v3"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Each fired fault is counted by kind, Reset clears the counts, and a
// fault the client left before is not counted.
func TestFaultCountersAndReset(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t)
	sess := srv.NewSession(t)
	sess.Chat("mix").
		Reply(scenario.Drop(), scenario.Drop(),
			scenario.Text("a b c d").CutAfter(1),
			scenario.Text("a b c d").MalformedAfter(1),
			scenario.FailStream("server_error", "at once"),
			scenario.Text("a b c d e f").FailsAfter(3, "server_error", "later"),
			scenario.Fail(http.StatusServiceUnavailable, "overloaded", "busy"),
			scenario.RateLimited()).
		Responds("fine")
	client := e2e.ClientFor(sess, "k")
	stream := func() error { _, err := e2e.OpenAIAPIs()[0].Call(context.Background(), client, true); return err }
	for range 8 {
		require.Error(t, stream())
	}
	require.NoError(t, stream())
	want := map[string]int{"drop": 2, "cut": 1, "malformed": 1, "error_event": 2, "http_error": 2}
	assert.Equal(t, want, sess.Assertions().Faults)
	report := sess.Assertions()
	assert.True(t, report.Clean(), "scripted faults leave the report clean")
	entries := sess.Journal().Entries()
	require.Len(t, entries, 9)
	assert.Equal(t, "http_error", entries[6].Fault)
	assert.Equal(t, 503, entries[6].Status)

	sess.Reset()
	assert.Nil(t, sess.Assertions().Faults)
	require.Error(t, stream(), "Reset gave the first drop back")
	assert.Equal(t, map[string]int{"drop": 1}, sess.Assertions().Faults)
}

// A client that leaves before the fault fires gets its reply back, and
// nothing is counted.
func TestFaultNotReachedIsNotCounted(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t)
	sess := srv.NewSession(t)
	sess.Chat("late").Reply(scenario.Reply{Text: "x", Delay: scenario.MaxDelay}.CutAfter(1)).Responds("next")
	ctx, cancel := context.WithCancel(context.Background())
	errc := make(chan error, 1)
	go func() { _, err := e2e.OpenAIAPIs()[0].Call(ctx, e2e.ClientFor(sess, "k"), true); errc <- err }()
	require.Eventually(t, func() bool { return sess.Pending() == 1 }, waitLong, pollEvery)
	cancel()
	require.ErrorIs(t, <-errc, context.Canceled)
	require.Eventually(t, func() bool { return sess.Journal().Len() == 1 }, waitLong, pollEvery)
	e, _ := sess.Journal().Last()
	assert.Equal(t, 499, e.Status)
	assert.Empty(t, e.Fault)
	assert.Nil(t, sess.Assertions().Faults)
	assert.Equal(t, 2, sess.Pending(), "the cut reply went back to its queue")
}

// Deleting a session during a hang answers 409 superseded, records
// nothing and counts nothing: the counts freeze with the session.
func TestFaultCountersFreezeWhenTheSessionIsDeleted(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t)
	sess := srv.NewSession(t)
	sess.Chat("hang").Drops().Hangs()
	client := e2e.ClientFor(sess, "k")
	_, err := e2e.OpenAIAPIs()[0].Call(context.Background(), client, false)
	require.Error(t, err)
	errc := make(chan error, 1)
	go func() { _, err := e2e.OpenAIAPIs()[0].Call(context.Background(), client, false); errc <- err }()
	require.Eventually(t, func() bool { return sess.Pending() == 0 }, waitLong, pollEvery)
	sess.Close()
	err = <-errc
	var apiErr *openai.Error
	require.ErrorAs(t, err, &apiErr)
	assert.Equal(t, http.StatusConflict, apiErr.StatusCode)
	assert.Equal(t, map[string]int{"drop": 1}, sess.Assertions().Faults)
	assert.Equal(t, 1, sess.Journal().Len())
}
