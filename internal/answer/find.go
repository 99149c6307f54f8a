package answer

import (
	"encoding/json"
	"fmt"

	"github.com/llmtestserver/llmtestserver/internal/apierr"
	"github.com/llmtestserver/llmtestserver/internal/httpx"
	"github.com/llmtestserver/llmtestserver/internal/jsonschema"
	"github.com/llmtestserver/llmtestserver/internal/provider"
	"github.com/llmtestserver/llmtestserver/internal/runtime"
	"github.com/llmtestserver/llmtestserver/scenario"
)

// find finds the reply to a request whose model is admitted: the guard
// (see guard), then the reply of the first scenario that answers,
// reserved and settled (steps 6 and 7). It returns instead the response
// to send when there is no reply to render.
func find(x *provider.Exchange, req *scenario.Request) (*runtime.Reservation, scenario.Reply, *provider.Response) {
	if res, reply, out, done := guard(x, req); done {
		return res, reply, out
	}
	res, err := x.Runtime.ReserveAfter(req, x.Request.Header.Get(httpx.HeaderConversation), x.Earlier)
	x.Entry.Conversation, x.Entry.Generation, x.Entry.Turn = req.Conversation, req.Generation, req.Turn
	if err != nil {
		x.Entry.Tried = err.Tried
		return nil, scenario.Reply{}, &provider.Response{Err: err}
	}
	x.Entry.Scenario = res.Scenario
	reply, refused := settle(x, res, req)
	return res, reply, refused
}

// Scripted reserves the reply of the first scenario that scripts req, a
// request that is no conversation (embeddings), and settles it (see
// settle); it returns no reservation when no scenario scripts it, and
// instead of a reply the response to send when there is none to use (a
// match function that panicked, among them).
func Scripted(x *provider.Exchange, req *scenario.Request) (*runtime.Reservation, scenario.Reply, *provider.Response) {
	res, err := x.Runtime.ReserveScripted(req, x.Request.Header.Get(httpx.HeaderConversation))
	if err != nil {
		return nil, scenario.Reply{}, &provider.Response{Err: err}
	}
	if res == nil {
		return nil, scenario.Reply{}, nil
	}
	x.Entry.Scenario = res.Scenario
	x.Entry.Conversation, x.Entry.Generation, x.Entry.Turn = req.Conversation, req.Generation, req.Turn
	reply, refused := settle(x, res, req)
	return res, reply, refused
}

// settle turns a reservation into the reply to render: the scripted one,
// or what its Go responder computes from req, held back for its delay. It
// returns instead the response to send when there is no answer to render:
// the client left during the delay (the reply goes back to its queue), the
// responder failed, the reply hung until the client left, or the reply is
// a scripted error. A reply's fault, in-stream error and pacing go on x
// for the HTTP core (see settleFault).
func settle(x *provider.Exchange, res *runtime.Reservation, req *scenario.Request) (scenario.Reply, *provider.Response) {
	journalReply(&x.Entry, res)
	reply, err := resolve(res, req)
	if err != nil {
		return reply, &provider.Response{Err: err, Reservation: res}
	}
	// A client that leaves during the delay did not get the reply, which
	// goes back to its queue; but a hang is delivered from the moment its
	// request takes it: leaving before its bytes would have come is what
	// the hang is there to cause.
	delay := reply.Delay
	if x.Deferred {
		delay = 0 // a job's answer: its timing is the job's plan
	}
	if werr := x.Runtime.Wait(x.Ctx, delay); werr != nil && !hangs(&reply) {
		res.Rollback()
		return reply, &provider.Response{Err: httpx.ClientGone()}
	}
	if refused := settleFault(x, &reply, req); refused != nil {
		return reply, refused
	}
	if reply.Error != nil && !(reply.Error.InStream && req.Stream) && !failsJob(x, &reply) {
		return reply, &provider.Response{Err: apierr.Scripted(reply.Error), Reservation: res}
	}
	return reply, nil
}

// failsJob reports whether reply fails the job the request starts (a
// background response) once it has run, rather than the request itself:
// a reply scripted with scenario.FailJob. The request is answered, and
// the codec renders the failure when the job is seen to fail. A batch's
// line has no job of its own: its reply's error is the line's.
func failsJob(x *provider.Exchange, reply *scenario.Reply) bool {
	if !x.Deferred || reply.Job == nil || reply.Job.Ends != scenario.JobFailed {
		return false
	}
	_, line := provider.LineOf(x.Ctx)
	return !line
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
