package server

import (
	"encoding/json"
	"fmt"

	"github.com/llmtestserver/llmtestserver/internal/jsonschema"
	"github.com/llmtestserver/llmtestserver/internal/openai"
	"github.com/llmtestserver/llmtestserver/internal/runtime"
	"github.com/llmtestserver/llmtestserver/internal/tokens"
	"github.com/llmtestserver/llmtestserver/journal"
	"github.com/llmtestserver/llmtestserver/scenario"
)

// chat serves POST /v1/chat/completions.
func (h *handler) chat(x *exchange) response {
	body, err := readBody(x.r, h.opts.MaxRequestBytes)
	if err != nil {
		return response{err: err}
	}
	req, err := openai.DecodeChatRequest(body)
	if err != nil {
		return response{err: err}
	}
	norm := req.Normalize()
	res, reply, refused := x.answer(norm)
	if refused != nil {
		return *refused
	}
	if reply.Error != nil {
		// A failure inside the stream: a 200 whose only event is the error.
		e := scriptedError(reply.Error)
		x.entry.ErrorCode = e.JournalCode()
		event := openai.ErrorEvent(e)
		return response{sse: &openai.SSE{Body: event, Ends: []int{len(event)}}, reservation: res}
	}
	answer := h.chatAnswer(x, req, norm, &reply)
	if !req.Stream {
		return response{json: answer.Completion(), reservation: res}
	}
	stream := x.rt.Settings().Stream
	split := func(s string) []string { return tokens.Split(req.Model, s) }
	return response{sse: answer.Stream(split, stream.TokensPerChunk, req.IncludeUsage()), pacing: stream, reservation: res}
}

// recordRequest copies what the journal shows of a request.
func (x *exchange) recordRequest(req *scenario.Request) {
	x.entry.Model, x.entry.Stream, x.entry.UserText = req.Model, req.Stream, req.LastUserText()
	x.entry.PromptCacheKey = req.PromptCacheKey
	for _, r := range req.ToolResults() {
		x.entry.ToolResults = append(x.entry.ToolResults, journal.ToolResult{CallID: r.CallID, Name: r.Name, Content: r.Content})
	}
}

// resolve returns the reply to render: the scripted one, or what its Go
// responder computes (with the scripted delay, unless it sets its own). A responder that panics or returns an invalid reply is
// a fault of the test, answered as a server error that says so.
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

// chatAnswer renders reply as a chat answer to req, generating tool call
// IDs, counting tokens and checking structured output against the request's
// schema.
func (h *handler) chatAnswer(x *exchange, req *openai.ChatRequest, norm *scenario.Request, reply *scenario.Reply) *openai.ChatAnswer {
	model := req.Model
	if reply.Model != "" {
		model = reply.Model
	}
	a := &openai.ChatAnswer{
		ID:           x.rt.NewID("chatcmpl-", 29),
		Created:      x.rt.Now().Unix(),
		Model:        model,
		N:            req.Choices(),
		Text:         reply.Text,
		Refusal:      reply.Refusal,
		FinishReason: reply.FinishReason,
	}
	if reply.JSON != nil {
		a.Text = string(reply.JSON)
		x.entry.SchemaErrors = checkSchema(norm.ResponseFormat, reply.JSON)
	}
	for _, c := range reply.ToolCalls {
		if c.ID == "" {
			c.ID = x.rt.NewID("call_", 24)
		}
		a.ToolCalls = append(a.ToolCalls, c)
		x.entry.ToolCalls = append(x.entry.ToolCalls, journal.ToolCall{ID: c.ID, Name: c.Name, Arguments: c.Arguments})
	}
	x.entry.ReplyText = a.Text
	if a.Refusal != "" {
		x.entry.ReplyText = a.Refusal
	}
	a.Usage = usage(x.rt, norm, reply, completionTokens(req.Model, a.Text, a.Refusal, a.ToolCalls)*a.N)
	return a
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
	return &openai.Error{Status: statusClientClosed, Type: "client_closed_request",
		Message: "The client closed the request before the reply was delivered."}
}
