package e2e

import (
	"context"
	"testing"
	"time"

	"github.com/llmtestserver/llmtestserver/session"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// LastFault is the status and fault of the session's newest entry.
func LastFault(t testing.TB, sess *session.Session) (int, string) {
	t.Helper()
	e, ok := sess.Journal().Last()
	require.True(t, ok)
	return e.Status, e.Fault
}

// ThenWhole checks that the faulted reply was used up: the next call gets
// the next reply, scripted as "whole".
func ThenWhole(t testing.TB, call func(context.Context) (string, error)) {
	t.Helper()
	text, err := call(context.Background())
	require.NoError(t, err)
	assert.Equal(t, "whole", text)
}

// GiveUpOnceTaken returns a context that a client gives up on as soon as
// its request has taken the session's first reply (the hang): a timeout
// alone could run out before, under load, while the request is still
// checked, and then the hang would be left for the next request.
func GiveUpOnceTaken(sess *session.Session) (context.Context, context.CancelFunc) {
	ctx, cancel := context.WithCancel(context.Background())
	want := sess.Pending() - 1
	go func() {
		for sess.Pending() > want && ctx.Err() == nil {
			time.Sleep(time.Millisecond)
		}
		cancel()
	}()
	return ctx, cancel
}
