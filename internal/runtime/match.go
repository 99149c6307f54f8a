package runtime

import (
	"github.com/llmtestserver/llmtestserver/internal/apierr"
	"github.com/llmtestserver/llmtestserver/scenario"
)

// matches reports whether s's match takes req. A match function
// (scenario.Func) that panics is a fault of the test: the panic is
// recovered here, where the predicate runs, and comes back as the error
// that answers the request (see apierr.MatchFailed), as a panicking Go
// responder's does. Escaping, it would cut the client's connection (EOF,
// which SDKs retry) with nothing journaled. The caller may hold mu; the
// recovery happens before anything is taken from a queue.
func matches(s *scenario.Scenario, req *scenario.Request) (ok bool, failed *apierr.Error) {
	defer func() {
		if p := recover(); p != nil {
			ok, failed = false, apierr.MatchFailed(s.Name, p)
		}
	}()
	return s.Match.Matches(req), nil
}

// explain is s's Match.Explain of req, with a panicking match function
// recovered as in matches. Explaining runs every condition of a match,
// so a predicate that picking a reply never reached (another condition
// failed first) may panic only here.
func explain(s *scenario.Scenario, req *scenario.Request) (expl scenario.Explanation, failed *apierr.Error) {
	defer func() {
		if p := recover(); p != nil {
			expl, failed = scenario.Explanation{}, apierr.MatchFailed(s.Name, p)
		}
	}()
	return s.Match.Explain(req), nil
}
