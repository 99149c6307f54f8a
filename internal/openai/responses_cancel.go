package openai

import (
	"net/http"

	"github.com/llmtestserver/llmtestserver/internal/provider"
)

// cancelResponse serves POST /v1/responses/{id}/cancel. Only a response
// created with background: true can be cancelled (the API reference and
// openai-go's Cancel doc); any other stored response gets the 400 a
// synchronous response gets. A background response still queued or in
// progress is cancelled: it shows status cancelled with no output from
// then on, and the reply it took goes back to its queue, as it was never
// delivered. One that has ended (or a streamed one, delivered as it was
// generated) is returned unchanged, as a repeated cancel is. The wording
// of the 400 is inferred: OpenAI's is not quoted anywhere we could read,
// and this is the one vLLM's OpenAI-compatible server gives
// (vllm-project/vllm#57999).
func cancelResponse(x *provider.Exchange, id string) provider.Response {
	stored, ok := lookup[*StoredResponse](x.Runtime, id)
	if !ok {
		return provider.Response{Err: ResponseNotFound(id)}
	}
	if !stored.Answer.background() {
		return provider.Response{Err: invalidRequest(http.StatusBadRequest, "", "", "Cannot cancel a synchronous response.")}
	}
	j, s, found, cancelled := x.Runtime.CancelJob(responseJobKind, id)
	if !found {
		return provider.Response{JSON: stored.Answer.Object()}
	}
	if cancelled {
		// Given back where it was taken: a fork shares its parent's jobs,
		// not its queues.
		if r := j.Data.(backgroundJob).reservation; r != nil && r.Of(x.Runtime) {
			r.Rollback()
		}
	}
	o := objectAt(stored.Answer, s)
	return provider.Response{JSON: o, Job: id, JobState: o.Status}
}
