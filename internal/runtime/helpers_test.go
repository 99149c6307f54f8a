package runtime

import (
	"github.com/llmtestserver/llmtestserver/internal/apierr"
	"github.com/llmtestserver/llmtestserver/scenario"
)

// The runtime's tests ask what only they need through these, so that the
// package exports nothing for them alone.

// reserveWhole is ReserveAfter for a request that carries its whole
// conversation (nothing earlier), as most tests' requests do.
func (rt *Runtime) reserveWhole(req *scenario.Request, declared string) (*Reservation, *apierr.Error) {
	return rt.ReserveAfter(req, declared, Earlier{})
}

// historyBytes returns the bytes the kept records keep, as their Size
// counts them.
func (rt *Runtime) historyBytes() int64 {
	rt.mu.Lock()
	defer rt.mu.Unlock()
	return rt.history.bytes
}
