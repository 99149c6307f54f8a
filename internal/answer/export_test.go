package answer

import (
	"github.com/llmtestserver/llmtestserver/internal/provider"
	"github.com/llmtestserver/llmtestserver/scenario"
)

// Build is build for the package's external tests.
func Build(x *provider.Exchange, req *scenario.Request, reply *scenario.Reply, spec Spec, p Prompt) provider.Answer {
	return build(x, req, reply, spec, &p)
}

// Find is find for the package's external tests.
var Find = find

// CheckContext is checkContext for the package's external tests.
var CheckContext = checkContext

// CutAtStop is cutAtStop for the package's external tests.
var CutAtStop = cutAtStop
