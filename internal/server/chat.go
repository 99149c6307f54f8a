package server

import (
	"fmt"

	"github.com/llmtestserver/llmtestserver/internal/openai"
	"github.com/llmtestserver/llmtestserver/internal/tokens"
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
	x.entry.Model, x.entry.Stream, x.entry.UserText = req.Model, req.Stream, norm.LastUserText()
	if !x.rt.Serves(req.Model) {
		return response{err: openai.ModelNotFound(req.Model)}
	}
	res, err := x.rt.Reserve(norm)
	if err != nil {
		return response{err: err}
	}
	x.entry.Scenario = res.Scenario
	if !wait(x, res, res.Reply.Delay) {
		return response{err: clientGone(), reservation: nil}
	}
	text := res.Reply.Text
	x.entry.ReplyText = text
	answer := &openai.ChatAnswer{
		ID:      fmt.Sprintf("chatcmpl-%024d", x.rt.NextSerial()),
		Created: x.rt.Now().Unix(),
		Model:   req.Model,
		Text:    text,
		Usage:   openai.NewUsage(promptTokens(req), tokens.Count(req.Model, text)),
	}
	if req.Stream {
		pieces := openai.JoinValidUTF8(tokens.Split(req.Model, text))
		return response{sse: answer.SSE(pieces, req.IncludeUsage()), reservation: res}
	}
	return response{json: answer.Completion(), reservation: res}
}

func promptTokens(req *openai.ChatRequest) int {
	msgs := make([]tokens.Message, len(req.Messages))
	for i, m := range req.Messages {
		msgs[i] = tokens.Message{Role: m.Role, Name: m.Name, Content: m.Content.Text}
	}
	return tokens.Chat(req.Model, msgs)
}

// clientGone is the journal's record of a request whose client left while
// its reply was held back. The client never reads it.
func clientGone() *openai.Error {
	return &openai.Error{Status: statusClientClosed, Type: "client_closed_request",
		Message: "The client closed the request before the reply was delivered."}
}
