package openai

import (
	"github.com/llmtestserver/llmtestserver/internal/answer"
	"github.com/llmtestserver/llmtestserver/internal/httpx"
	"github.com/llmtestserver/llmtestserver/internal/provider"
)

// InputTokenCount answers POST /v1/responses/input_tokens (openai-go's
// InputTokenCountResponse, go-openai's ResponseInputTokensResponse).
type InputTokenCount struct {
	Object      string `json:"object"`
	InputTokens int    `json:"input_tokens"`
}

// serveResponseInputTokens serves POST /v1/responses/input_tokens: the
// input tokens POST /v1/responses would report in its usage for the same
// body, the reply's priming included, with previous_response_id rebuilding
// the stored chain as the response would. It takes no reply, reads no
// prompt cache and stores nothing; the request is journaled like any other
// (model, user text). The body is checked as POST /v1/responses checks
// it, with the same errors: the SDKs send the same parameters (openai-go's
// InputTokenCountParams, go-openai's CreateResponseRequest). That the API
// requires model here, as the SDK's optional model suggests it may not,
// is inferred: a count without a model has no tokenizer.
func serveResponseInputTokens(x *provider.Exchange) provider.Response {
	body, err := readBody(x)
	if err != nil {
		return provider.Response{Err: err}
	}
	req, err := DecodeResponsesRequest(body)
	if err != nil {
		return provider.Response{Err: err}
	}
	x.Entry.Model = req.Model
	// Counting assigns no item IDs: the count must not consume the
	// session's ID sequence, which seeded sessions replay.
	c, _, _, norm, err := prepareResponses(x, req, nil)
	if err != nil {
		return provider.Response{Err: err}
	}
	answer.RecordRequest(x, norm)
	x.Entry.Endpoint = "" // a count calls no model: filtering on responses must not see it
	x.Entry.Stream = false
	if !x.Serves(req.Model) {
		return provider.Response{Err: ResponsesModelNotFound(req.Model, x.Models(), len(x.Runtime.Settings().Models) > 0)}
	}
	if info, ok := LookupModel(req.Model); ok && info.Kind != KindChat && info.Kind != KindReasoning {
		// As find refuses it for POST /v1/responses (the wording here is inferred).
		return provider.Response{Err: NotAChatModel(x.Request.URL.Path)}
	}
	segments, _, cerr := c.promptSegments(x.Ctx, norm)
	if cerr != nil {
		return provider.Response{Err: httpx.ClientGone()}
	}
	prompt := chatPrompt(norm, segments, nil)
	return provider.Response{JSON: InputTokenCount{Object: "response.input_tokens", InputTokens: prompt.Tokens()}}
}
