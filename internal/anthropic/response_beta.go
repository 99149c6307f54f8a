package anthropic

import (
	"encoding/json"
	"strconv"

	"github.com/llmtestserver/llmtestserver/internal/provider"
	"github.com/llmtestserver/llmtestserver/scenario"
)

// The beta API's messages (BetaMessage, and message_delta of its streams)
// carry three fields more, api:"required" in the SDK: context_management,
// the context edits the request's context_management applied;
// usage.iterations, the per-iteration usage of a request that compaction
// or a fallback split; and usage.fallback_credit. The server applies no
// edit, runs one iteration and falls back to no model, so all are null,
// except context_management, which names no applied edit for a request
// that sent context_management (inferred: the SDK's
// BetaContextManagementResponse requires applied_edits).
var (
	jsonNull       = json.RawMessage("null")
	noAppliedEdits = json.RawMessage(`{"applied_edits":[]}`)
)

// contextManagementOf is the context_management of a beta reply a to r:
// the scripted applied edits, else none applied when r sent
// context_management, else null.
func contextManagementOf(r *MessagesRequest, a *provider.Answer) json.RawMessage {
	if len(a.AppliedEdits) > 0 {
		b, _ := json.Marshal(struct {
			AppliedEdits []scenario.AppliedEdit `json:"applied_edits"`
		}{a.AppliedEdits})
		return b
	}
	if r.contextManagement {
		return noAppliedEdits
	}
	return jsonNull
}

// iteration is one element of the beta usage.iterations, as the SDK's
// Beta*IterationUsage types have it.
type iteration struct {
	Type                     string        `json:"type"`
	Model                    string        `json:"model,omitempty"`
	InputTokens              int           `json:"input_tokens"`
	CacheCreationInputTokens int           `json:"cache_creation_input_tokens"`
	CacheReadInputTokens     int           `json:"cache_read_input_tokens"`
	CacheCreation            cacheCreation `json:"cache_creation"`
	OutputTokens             int           `json:"output_tokens"`
}

// iterationsOf is the beta usage.iterations of a: the scripted passes,
// each naming the answer's model unless it names its own (a compaction
// pass names none), else null.
func iterationsOf(a *provider.Answer) json.RawMessage {
	if len(a.Iterations) == 0 {
		return jsonNull
	}
	out := make([]iteration, 0, len(a.Iterations))
	for _, it := range a.Iterations {
		model := it.Model
		if model == "" && it.Type != "compaction" {
			model = a.Model
		}
		out = append(out, iteration{Type: it.Type, Model: model, InputTokens: it.InputTokens, OutputTokens: it.OutputTokens})
	}
	b, _ := json.Marshal(out)
	return b
}

// newBetaMessage is NewMessage with the beta API's fields, for a request
// r sent to the beta API.
func newBetaMessage(a *provider.Answer, category string, r *MessagesRequest) any {
	m := newMessage(a, category)
	m.ContextManagement = contextManagementOf(r, a)
	m.Usage.Iterations, m.Usage.FallbackCredit = iterationsOf(a), jsonNull
	return m
}

// countContextManagement is the context_management of a beta token count:
// with context_management sent, the input tokens before any edit, which
// the server never makes (BetaCountTokensContextManagementResponse).
func countContextManagement(r *MessagesRequest, n int) json.RawMessage {
	if !r.contextManagement {
		return jsonNull
	}
	return json.RawMessage(`{"original_input_tokens":` + strconv.Itoa(n) + `}`)
}
