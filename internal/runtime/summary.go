package runtime

import (
	"github.com/llmtestserver/llmtestserver/internal/apierr"
	"github.com/llmtestserver/llmtestserver/scenario"
)

// Earlier counts what a request's conversation held before the items it
// carries: the turns of a chain that only a codec's summary still counts.
type Earlier struct {
	// Messages and UserTurns are added to the request's own counts.
	Messages, UserTurns int
}

// ReserveAfter takes the reply that answers req: the head of the first
// scenario that matches and has a reply left. It first fills in req's
// conversation identity, generation and turn (see identify), counting as
// the request's own the messages and user turns of earlier, the turns it
// continues but no longer carries (Earlier{} for a request that carries
// its whole conversation). When no scenario answers, the error names the
// request and says why each scenario was passed over. A retired runtime
// reserves nothing and changes nothing: the request is superseded.
func (rt *Runtime) ReserveAfter(req *scenario.Request, declared string, earlier Earlier) (*Reservation, *apierr.Error) {
	res, offers, err := rt.reserveOrOffers(req, declared, earlier)
	if res != nil || err != nil {
		return res, err
	}
	// Explained outside mu: see offered.
	return nil, miss(req, offers)
}

// reserveOrOffers is ReserveAfter's part under mu: the reservation, or what
// explaining the miss needs, or the error of a retired runtime or of a
// panicking match function (see matches).
func (rt *Runtime) reserveOrOffers(req *scenario.Request, declared string, earlier Earlier) (*Reservation, []offer, *apierr.Error) {
	rt.mu.Lock()
	defer rt.mu.Unlock()
	if rt.retired {
		return nil, nil, apierr.RequestSuperseded()
	}
	rt.earlier = earlier
	defer func() { rt.earlier = Earlier{} }()
	res, key, failed := rt.reserve(req, declared)
	switch {
	case failed != nil:
		return nil, nil, failed
	case res == nil:
		return nil, rt.offered(key), nil
	}
	return res, nil, nil
}
