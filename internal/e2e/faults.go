package e2e

import (
	"context"
	"time"

	"github.com/llmtestserver/llmtestserver/session"
)

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
