package openai

import (
	"net/http"

	"github.com/llmtestserver/llmtestserver/internal/provider"
)

// cancelResponse serves POST /v1/responses/{id}/cancel. Only a response
// created with background: true can be cancelled (the API reference and
// openai-go's Cancel doc). This server answers a background response by
// the time its request ends, so a cancel finds it already completed and,
// as a repeated cancel does, returns it unchanged; any other stored
// response gets the 400 a synchronous response gets. The wording is
// inferred: OpenAI's is not quoted anywhere we could read, and this is
// the one vLLM's OpenAI-compatible server gives (vllm-project/vllm#57999).
func cancelResponse(x *provider.Exchange, id string) provider.Response {
	stored, ok := lookup[*StoredResponse](x.Runtime, id)
	if !ok {
		return provider.Response{Err: ResponseNotFound(id)}
	}
	o := stored.Answer.Object()
	if !o.Background {
		return provider.Response{Err: invalidRequest(http.StatusBadRequest, "", "", "Cannot cancel a synchronous response.")}
	}
	return provider.Response{JSON: o}
}
