package server

import (
	"github.com/llmtestserver/llmtestserver/internal/openai"
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
	split := func(s string) []string { p, _ := tokens.SplitContext(x.ctx, req.Model, s); return p }
	return response{sse: answer.Stream(split, stream.TokensPerChunk, req.IncludeUsage()), pacing: stream, reservation: res}
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
	a.Usage = usage(x.ctx, x.rt, norm, reply, completionTokens(x.ctx, req.Model, a.Text, a.Refusal, a.ToolCalls)*a.N)
	return a
}
