package answer

import (
	"github.com/llmtestserver/llmtestserver/internal/provider"
	"github.com/llmtestserver/llmtestserver/internal/runtime"
	"github.com/llmtestserver/llmtestserver/scenario"
)

// guard runs the session-wide checks between a request's model checks and
// its reservation: the rate limits, then the chaos rules. done reports that
// one of them answers the request: a 429 that takes nothing, or the reply
// of the chaos rule that fired, settled like a scripted one (its delay
// held, its error answered) without taking any scenario's reply; the
// journal names the rule as the scenario ("chaos:<name>").
func guard(x *provider.Exchange, norm *scenario.Request) (res *runtime.Reservation, reply scenario.Reply, out *provider.Response, done bool) {
	if refused := Limit(x, norm); refused != nil {
		return nil, scenario.Reply{}, refused, true
	}
	res = x.Runtime.FireChaos(norm)
	if res == nil {
		return nil, scenario.Reply{}, nil, false
	}
	x.Entry.Scenario = res.Scenario
	reply, out = settle(x, res, norm)
	return res, reply, out, true
}
