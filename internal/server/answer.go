package server

import (
	"encoding/json"
	"fmt"

	"github.com/llmtestserver/llmtestserver/internal/jsonschema"
	"github.com/llmtestserver/llmtestserver/internal/openai"
	"github.com/llmtestserver/llmtestserver/internal/runtime"
	"github.com/llmtestserver/llmtestserver/journal"
	"github.com/llmtestserver/llmtestserver/scenario"
)

// recordRequest copies what the journal shows of a request.
func (x *exchange) recordRequest(req *scenario.Request) {
	x.entry.Model, x.entry.Stream, x.entry.UserText = req.Model, req.Stream, req.LastUserText()
	x.entry.PromptCacheKey = req.PromptCacheKey
	for _, r := range req.ToolResults() {
		x.entry.ToolResults = append(x.entry.ToolResults, journal.ToolResult{CallID: r.CallID, Name: r.Name, Content: r.Content})
	}
}

// resolve returns the reply to render: the scripted one, or what its Go
// responder computes (with the scripted delay, unless it sets its own). A
// responder that panics or returns an invalid reply is a fault of the test,
// answered as a server error that says so.
func resolve(res *runtime.Reservation, req *scenario.Request) (reply scenario.Reply, err *openai.Error) {
	reply = res.Reply
	if reply.Func == nil {
		return reply, nil
	}
	defer func() {
		if p := recover(); p != nil {
			err = responderError(res.Scenario, fmt.Sprint("panic: ", p))
		}
	}()
	delay := reply.Delay
	reply = reply.Func(req)
	if reply.Delay == 0 {
		reply.Delay = delay // the scripted delay holds unless the responder sets its own
	}
	if reply.Func != nil {
		return reply, responderError(res.Scenario, "it returned another Go responder")
	}
	if verr := reply.Validate(); verr != nil {
		return reply, responderError(res.Scenario, verr.Error())
	}
	return reply, nil
}

func responderError(name, problem string) *openai.Error {
	e := openai.ServerError()
	e.Code = "llm_test_server_responder_failed"
	e.Message = fmt.Sprintf("The Go responder of scenario %q failed: %s", name, problem)
	return e
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

// scriptedError renders a scripted error reply in the API's envelope,
// filling type and message from the status when the script left them out.
func scriptedError(e *scenario.Error) *openai.Error {
	out := openai.StatusError(e.Status, e.Code, e.Param, e.Message)
	if e.Type != "" {
		out.Type = e.Type
	}
	for k, v := range e.Headers {
		if out.Header == nil {
			out.Header = make(map[string][]string)
		}
		out.Header.Set(k, v)
	}
	return out
}

// clientGone is the journal's record of a request whose client left while
// its reply was held back. The client never reads it.
func clientGone() *openai.Error {
	return openai.ClientClosed("The client closed the request before the reply was delivered.")
}

// answer finds the reply to a conversational request: it journals what the
// request carries, checks the model, reserves the reply of the first
// scenario that answers and settles it. It returns instead the response to
// send when there is no reply to render.
func (x *exchange) answer(norm *scenario.Request) (*runtime.Reservation, scenario.Reply, *response) {
	x.recordRequest(norm)
	if !x.rt.Serves(norm.Model, openai.CatalogIDs()) {
		return nil, scenario.Reply{}, &response{err: modelNotFound(x.rt, norm.Model)}
	}
	if info, ok := openai.LookupModel(norm.Model); ok && info.Kind != openai.KindChat && info.Kind != openai.KindReasoning {
		return nil, scenario.Reply{}, &response{err: openai.NotAChatModel(x.r.URL.Path)}
	}
	res, err := x.rt.ReserveAfter(norm, x.r.Header.Get(HeaderConversation), x.earlier)
	x.entry.Conversation, x.entry.Generation, x.entry.Turn = norm.Conversation, norm.Generation, norm.Turn
	if err != nil {
		return nil, scenario.Reply{}, &response{err: err}
	}
	x.entry.Scenario = res.Scenario
	reply, refused := settle(x, res, norm)
	return res, reply, refused
}

// settle turns a reservation into the reply to render: the scripted one,
// or what its Go responder computes from req, held back for its delay. It
// returns instead the response to send when there is no answer to render:
// the client left during the delay (the reply goes back to its queue), the
// responder failed, or the reply is a scripted error.
func settle(x *exchange, res *runtime.Reservation, req *scenario.Request) (scenario.Reply, *response) {
	reply, err := resolve(res, req)
	if err != nil {
		return reply, &response{err: err, reservation: res}
	}
	if werr := runtime.Wait(x.ctx, reply.Delay); werr != nil {
		res.Rollback()
		return reply, &response{err: clientGone()}
	}
	if reply.Error != nil && !(reply.Error.InStream && req.Stream) {
		return reply, &response{err: scriptedError(reply.Error), reservation: res}
	}
	return reply, nil
}
