package openai

// InputTokenCount answers POST /v1/responses/input_tokens (openai-go's
// InputTokenCountResponse, go-openai's ResponseInputTokensResponse).
type InputTokenCount struct {
	Object      string `json:"object"`
	InputTokens int    `json:"input_tokens"`
}

// inputTokenCount renders the count of POST /v1/responses/input_tokens:
// the input tokens POST /v1/responses would report in its usage for the
// same body, the reply's priming included, with previous_response_id
// rebuilding the stored chain as the response would (see
// decodeInputTokens). It takes no reply, reads no prompt cache and stores
// nothing. The body is checked as POST /v1/responses checks it, with the
// same errors: the SDKs send the same parameters (openai-go's
// InputTokenCountParams, go-openai's CreateResponseRequest). That the API
// requires model here, as the SDK's optional model suggests it may not,
// is inferred: a count without a model has no tokenizer.
func inputTokenCount(n int) any {
	return InputTokenCount{Object: "response.input_tokens", InputTokens: n}
}
