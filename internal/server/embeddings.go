package server

import (
	"github.com/llmtestserver/llmtestserver/internal/openai"
	"github.com/llmtestserver/llmtestserver/scenario"
)

// embeddings serves POST /v1/embeddings: deterministic vectors computed
// from each input, unless a scenario that names the embeddings endpoint
// scripts them.
func (h *handler) embeddings(x *exchange) response {
	body, err := readBody(x.r, h.opts.MaxRequestBytes)
	if err != nil {
		return response{err: err}
	}
	// Counting the inputs stops when the client leaves (the error is then
	// journaled as 499) or the session is deleted (superseded, not
	// journaled).
	req, err := openai.DecodeEmbeddingsRequest(x.ctx, body)
	if err != nil {
		return response{err: err}
	}
	inputs := req.Inputs()
	norm := &scenario.Request{Endpoint: scenario.EndpointEmbeddings, Model: req.Model, User: req.User,
		Messages: make([]scenario.Message, len(inputs))}
	for i, in := range inputs {
		norm.Messages[i] = scenario.Message{Role: "user", Content: in}
	}
	x.entry.Model, x.entry.UserText = req.Model, norm.LastUserText()
	if !x.rt.Serves(req.Model, openai.CatalogIDs()) {
		return response{err: modelNotFound(x.rt, req.Model)}
	}
	vectors := req.Vectors()
	res := x.rt.ReserveScripted(norm, x.r.Header.Get(HeaderConversation))
	if res == nil {
		return response{json: openai.NewEmbeddingList(vectors, req.Model, req.EncodingFormat, req.PromptTokens())}
	}
	x.entry.Scenario = res.Scenario
	x.entry.Conversation, x.entry.Generation, x.entry.Turn = norm.Conversation, norm.Generation, norm.Turn
	reply, refused := settle(x, res, norm)
	if refused != nil {
		return *refused
	}
	for i := range min(len(vectors), len(reply.Vectors)) {
		vectors[i] = reply.Vectors[i]
	}
	return response{json: openai.NewEmbeddingList(vectors, req.Model, req.EncodingFormat, req.PromptTokens()), reservation: res}
}
