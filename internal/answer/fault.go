package answer

import (
	"net/http"

	"github.com/llmtestserver/llmtestserver/internal/apierr"
	"github.com/llmtestserver/llmtestserver/internal/httpx"
	"github.com/llmtestserver/llmtestserver/internal/provider"
	"github.com/llmtestserver/llmtestserver/scenario"
)

// settleFault hands the reply's fault, in-stream error and pacing to the
// HTTP core through x, and runs a hang: nothing is sent until the client
// leaves (or the session is deleted). A hang counts as delivered, so the
// reservation stands and the client's retry gets the next reply; the
// journal records the client giving up.
//
// The journal entry names the fault the reply scripts (Entry.Fault: its
// kind, error_event for an error inside a stream, http_error for a
// scripted HTTP error); the HTTP core clears it when the client left
// before the fault fired.
func settleFault(x *provider.Exchange, reply *scenario.Reply, req *scenario.Request) *provider.Response {
	x.Fault, x.Pacing = reply.Fault, reply.Stream
	switch e := reply.Error; {
	case reply.Fault != nil:
		x.Entry.Fault = string(reply.Fault.Kind)
	case e == nil:
	case e.InStream && req.Stream:
		// Fired by the HTTP core after the error's events, none included:
		// one path for every count (provider.FailingStream).
		x.Entry.Fault = scenario.FaultErrorEvent
		x.StreamError = e
	default:
		x.Entry.Fault = scenario.FaultHTTPError
	}
	if !hangs(reply) {
		return nil
	}
	if x.Deferred {
		// A job's answer (a batch's line) is waited for by nobody: the
		// model that never answers is a line that timed out.
		return &provider.Response{Err: &apierr.Error{Kind: scenario.ErrorTimeout, Status: http.StatusGatewayTimeout,
			Message: "The model did not answer in time."}}
	}
	<-x.Ctx.Done()
	return &provider.Response{Err: httpx.ClientGone()}
}

// hangs reports whether reply is a hang.
func hangs(reply *scenario.Reply) bool {
	return reply.Fault != nil && reply.Fault.Kind == scenario.FaultHang
}
