package anthropic

import (
	"encoding/json"
	"strconv"

	"github.com/llmtestserver/llmtestserver/internal/provider"
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

// contextManagementOf is the context_management of a beta reply to r.
func contextManagementOf(r *MessagesRequest) json.RawMessage {
	if r.contextManagement {
		return noAppliedEdits
	}
	return jsonNull
}

// newBetaMessage is NewMessage with the beta API's fields, for a request
// r sent to the beta API.
func newBetaMessage(a *provider.Answer, category string, r *MessagesRequest) any {
	m := newMessage(a, category)
	m.ContextManagement = contextManagementOf(r)
	m.Usage.Iterations, m.Usage.FallbackCredit = jsonNull, jsonNull
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
