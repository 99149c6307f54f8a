// Package answer does, once for every provider, the steps between a
// normalized request and a neutral answer: it journals what the request
// carries, checks the model, checks the session's rate limits and chaos
// rules, reserves the reply of the first scenario that answers, resolves
// a Go responder, holds the reply back for its delay, and builds the
// provider.Answer a codec renders: the model override, the
// structured-output schema check, the contradictions between the reply
// and the request's tool_choice, tools and parallel_tool_calls, tool-call IDs, the cut at the request's
// maximum output tokens, the finish kind, the journal's fields and the
// usage. CheckContext is the context-window check codecs run before a
// reply is reserved.
package answer

import (
	"encoding/json"
	"fmt"

	"github.com/llmtestserver/llmtestserver/internal/apierr"
	"github.com/llmtestserver/llmtestserver/internal/httpx"
	"github.com/llmtestserver/llmtestserver/internal/jsonschema"
	"github.com/llmtestserver/llmtestserver/internal/provider"
	"github.com/llmtestserver/llmtestserver/internal/runtime"
	"github.com/llmtestserver/llmtestserver/journal"
	"github.com/llmtestserver/llmtestserver/scenario"
)

// RecordRequest copies what the journal shows of a request: its endpoint,
// model, last user text and the normalized request (see journalRequest).
func RecordRequest(x *provider.Exchange, req *scenario.Request) {
	x.Entry.Model, x.Entry.Stream, x.Entry.UserText = req.Model, req.Stream, req.LastUserText()
	x.Entry.Endpoint, x.Entry.Request = string(req.Endpoint), journalRequest(req)
	x.Entry.PromptCacheKey = req.PromptCacheKey
	for _, r := range req.ToolResults() {
		x.Entry.ToolResults = append(x.Entry.ToolResults, journal.ToolResult{CallID: r.CallID, Name: r.Name, Content: r.Content})
	}
}

// ModelNotFound refuses a model the session does not serve, in the codec's
// words, naming those it does.
func ModelNotFound(x *provider.Exchange, model string) *apierr.Error {
	return x.Codec.ModelNotFound(model, x.Models(), len(x.Runtime.Settings().Models) > 0)
}

// Find finds the reply to a conversational request: it journals what the
// request carries, checks that the session serves the model and that the
// model takes the request (refuse, the codec's own rules, may be nil),
// checks the session's rate limits and chaos rules (see guard), and
// reserves the reply of the first scenario that answers and settles it.
// It returns instead the response to send when there is no reply to
// render.
func Find(x *provider.Exchange, norm *scenario.Request, refuse func() *apierr.Error) (*runtime.Reservation, scenario.Reply, *provider.Response) {
	RecordRequest(x, norm)
	if !x.Serves(norm.Model) {
		return nil, scenario.Reply{}, &provider.Response{Err: ModelNotFound(x, norm.Model)}
	}
	if refuse != nil {
		if err := refuse(); err != nil {
			return nil, scenario.Reply{}, &provider.Response{Err: err}
		}
	}
	if res, reply, out, done := guard(x, norm); done {
		return res, reply, out
	}
	return reserve(x, norm)
}

// reserve is Find for a request whose model is checked.
func reserve(x *provider.Exchange, norm *scenario.Request) (*runtime.Reservation, scenario.Reply, *provider.Response) {
	res, err := x.Runtime.ReserveAfter(norm, x.Request.Header.Get(httpx.HeaderConversation), x.Earlier)
	x.Entry.Conversation, x.Entry.Generation, x.Entry.Turn = norm.Conversation, norm.Generation, norm.Turn
	if err != nil {
		x.Entry.Tried = err.Tried
		return nil, scenario.Reply{}, &provider.Response{Err: err}
	}
	x.Entry.Scenario = res.Scenario
	reply, refused := Settle(x, res, norm)
	return res, reply, refused
}

// Settle turns a reservation into the reply to render: the scripted one,
// or what its Go responder computes from req, held back for its delay. It
// returns instead the response to send when there is no answer to render:
// the client left during the delay (the reply goes back to its queue), the
// responder failed, the reply hung until the client left, or the reply is
// a scripted error. A reply's fault, in-stream error and pacing go on x
// for the HTTP core (see settleFault).
func Settle(x *provider.Exchange, res *runtime.Reservation, req *scenario.Request) (scenario.Reply, *provider.Response) {
	journalReply(&x.Entry, res)
	reply, err := resolve(res, req)
	if err != nil {
		return reply, &provider.Response{Err: err, Reservation: res}
	}
	// A client that leaves during the delay did not get the reply, which
	// goes back to its queue; but a hang is delivered from the moment its
	// request takes it: leaving before its bytes would have come is what
	// the hang is there to cause.
	if werr := x.Runtime.Wait(x.Ctx, reply.Delay); werr != nil && !hangs(&reply) {
		res.Rollback()
		return reply, &provider.Response{Err: httpx.ClientGone()}
	}
	if refused := settleFault(x, &reply, req); refused != nil {
		return reply, refused
	}
	if reply.Error != nil && !(reply.Error.InStream && req.Stream) {
		return reply, &provider.Response{Err: apierr.Scripted(reply.Error), Reservation: res}
	}
	return reply, nil
}

// resolve returns the reply to render: the scripted one, or what its Go
// responder computes (with the scripted delay, unless it sets its own). A
// responder that panics or returns an invalid reply is a fault of the test,
// answered as a server error that says so.
func resolve(res *runtime.Reservation, req *scenario.Request) (reply scenario.Reply, err *apierr.Error) {
	reply = res.Reply
	if reply.Func == nil {
		return reply, nil
	}
	defer func() {
		if p := recover(); p != nil {
			err = apierr.ResponderFailed(res.Scenario, fmt.Sprint("panic: ", p))
		}
	}()
	scripted := reply
	reply = reply.Func(req)
	if reply.Delay == 0 {
		reply.Delay = scripted.Delay // the scripted delay holds unless the responder sets its own
	}
	if reply.Fault == nil && reply.Error == nil {
		reply.Fault = scripted.Fault // and so do its fault and pacing
	}
	if reply.Stream == nil {
		reply.Stream = scripted.Stream
	}
	if reply.Func != nil {
		return reply, apierr.ResponderFailed(res.Scenario, "it returned another Go responder")
	}
	if verr := reply.Validate(); verr != nil {
		return reply, apierr.ResponderFailed(res.Scenario, verr.Error())
	}
	return reply, nil
}

// checkSchema validates a structured-output reply against the request's JSON
// schema and returns the mismatches.
func checkSchema(format *scenario.ResponseFormat, doc json.RawMessage) []string {
	if format == nil || format.Type != "json_schema" || len(format.Schema) == 0 {
		return nil
	}
	problems, err := jsonschema.Validate(format.Schema, doc)
	if err != nil {
		return []string{"the request's schema cannot be used: " + err.Error()}
	}
	return problems
}
