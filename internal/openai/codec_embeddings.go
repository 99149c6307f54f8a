package openai

import (
	"github.com/llmtestserver/llmtestserver/internal/answer"
	"github.com/llmtestserver/llmtestserver/internal/provider"
	"github.com/llmtestserver/llmtestserver/scenario"
)

// serveEmbeddings serves POST /v1/embeddings: deterministic vectors computed
// from each input, unless a scenario that names the embeddings endpoint
// scripts them.
func serveEmbeddings(x *provider.Exchange) provider.Response {
	body, err := x.ReadBody()
	if err != nil {
		return provider.Response{Err: err}
	}
	// Counting the inputs stops when the client leaves (the error is then
	// journaled as 499) or the session is deleted (superseded, not
	// journaled).
	req, err := DecodeEmbeddingsRequest(x.Ctx, body)
	if err != nil {
		return provider.Response{Err: err}
	}
	inputs := req.Inputs()
	norm := &scenario.Request{Endpoint: scenario.EndpointEmbeddings, Model: req.Model, User: req.User,
		Messages: make([]scenario.Message, len(inputs))}
	for i, in := range inputs {
		norm.Messages[i] = scenario.Message{Role: "user", Content: in}
	}
	answer.RecordRequest(x, norm)
	if !x.Serves(req.Model) {
		return provider.Response{Err: answer.ModelNotFound(x, req.Model)}
	}
	// The real API limits embeddings per model too, on their input tokens.
	if refused := answer.Limit(x, norm); refused != nil {
		return *refused
	}
	vectors := req.Vectors()
	res, reply, refused := answer.Scripted(x, norm)
	if refused != nil {
		return *refused
	}
	if res == nil {
		return provider.Response{JSON: NewEmbeddingList(vectors, req.Model, req.EncodingFormat, req.PromptTokens())}
	}
	for i := range min(len(vectors), len(reply.Vectors)) {
		vectors[i] = reply.Vectors[i]
	}
	return provider.Response{JSON: NewEmbeddingList(vectors, req.Model, req.EncodingFormat, req.PromptTokens()), Reservation: res}
}
