package openai

import (
	"encoding/json"
	"net/http"

	"github.com/llmtestserver/llmtestserver/internal/answer"
	"github.com/llmtestserver/llmtestserver/internal/apierr"
	"github.com/llmtestserver/llmtestserver/internal/provider"
	"github.com/llmtestserver/llmtestserver/scenario"
)

// CompactionItemPrefix is the ID prefix of compaction items: "cmp_", as
// the items codex users quote and openai-go's own tests name them.
const CompactionItemPrefix = "cmp_"

// compactRequest is the body of POST /v1/responses/compact as openai-go
// sends it (ResponseCompactParams). prompt_cache_options and image are
// accepted and play no part here.
type compactRequest struct {
	Model                string          `json:"model"`
	Input                json.RawMessage `json:"input"`
	Instructions         string          `json:"instructions"`
	PreviousResponseID   string          `json:"previous_response_id"`
	PromptCacheKey       string          `json:"prompt_cache_key"`
	PromptCacheOptions   json.RawMessage `json:"prompt_cache_options"`
	PromptCacheRetention string          `json:"prompt_cache_retention"`
	ServiceTier          string          `json:"service_tier"`
	Image                json.RawMessage `json:"image"`
}

// CompactedResponse answers POST /v1/responses/compact (openai-go's
// CompactedResponse): every user message of the conversation, then one
// compaction item standing for the rest.
type CompactedResponse struct {
	ID        string         `json:"id"`
	Object    string         `json:"object"`
	CreatedAt int64          `json:"created_at"`
	Output    []Item         `json:"output"`
	Usage     ResponsesUsage `json:"usage"`
}

// serveCompact serves POST /v1/responses/compact. Compaction is no model
// turn a scenario scripts: it takes no reply and stores nothing, and is
// journalled and counted as POST /v1/responses/input_tokens is (see
// answer.Count), its input tokens those POST /v1/responses would report
// for the same conversation.
var serveCompact = answer.Count(decodeCompact, nil)

// compactTurn is a compaction request: the Responses turn of its body,
// whose count renders as the compacted response (answer.CountRenderer).
type compactTurn struct{ *responsesTurn }

var _ answer.CountRenderer = compactTurn{}

// CountBody implements answer.CountRenderer.
func (t compactTurn) CountBody(inputTokens int) any { return compacted(t.responsesTurn, inputTokens) }

// decodeCompact is the answer.Decoder of POST /v1/responses/compact.
func decodeCompact(x *provider.Exchange, body []byte) (answer.Turn, *apierr.Error) {
	t, err := decodeCompactTurn(x, body)
	if t == nil { // a nil *responsesTurn must not become a non-nil answer.Turn
		return nil, err
	}
	return compactTurn{t}, err
}

// decodeCompactTurn checks the body as the API does, with the checks POST
// /v1/responses makes of the same fields, then resolves the chain and the
// input as that route does.
func decodeCompactTurn(x *provider.Exchange, body []byte) (*responsesTurn, *Error) {
	if err := refuseParams(x, body, nil, CheckCompactParams); err != nil {
		return nil, err
	}
	req, err := decodeCompactRequest(body)
	if err != nil {
		return nil, err
	}
	newID := func(prefix string) string { return x.Runtime.NewHexID(prefix, idLength) }
	t := &responsesTurn{x: x, req: req, newID: newID}
	t.chain, t.conv, t.input, t.norm, err = prepareResponses(x, req, newID)
	if err != nil {
		t.norm = &scenario.Request{Model: req.Model}
		return t, err
	}
	return t, nil
}

// decodeCompactRequest reads a compact body into the ResponsesRequest of
// the same fields, so that the input and the chain are read as POST
// /v1/responses reads them. That one of input and previous_response_id is
// required, worded as POST /v1/responses words it, is inferred.
func decodeCompactRequest(body []byte) (*ResponsesRequest, *Error) {
	var c compactRequest
	if err := decodeBody(body, &c); err != nil {
		return nil, err
	}
	if err := checkResponsesModel(body, c.Model); err != nil {
		return nil, err
	}
	req := &ResponsesRequest{Model: c.Model, Input: c.Input, Instructions: c.Instructions,
		PreviousResponseID: c.PreviousResponseID, PromptCacheKey: c.PromptCacheKey,
		PromptCacheRetention: c.PromptCacheRetention, ServiceTier: c.ServiceTier}
	if present(req.Input) {
		if err := req.decodeInput(); err != nil {
			return nil, err
		}
	}
	if err := req.validateBounds(); err != nil {
		return nil, err
	}
	if len(req.items) == 0 && req.PreviousResponseID == "" {
		return nil, invalidRequest(http.StatusBadRequest, "missing_required_parameter", "",
			`One of "input" or "previous_response_id" must be provided.`)
	}
	return req, nil
}

// compacted renders the compacted response of t, whose prompt counts
// inputTokens: the conversation's user messages, in order, then a new
// compaction item whose encrypted_content the server recognizes when a
// later request sends it back. The response ID's "resp_" and length are
// those of a response (inferred: the SDK shows none).
func compacted(t *responsesTurn, inputTokens int) any {
	out := []Item{}
	for _, items := range [][]Item{t.chain.prior, t.input} {
		for _, it := range items {
			if it.Type == "message" && it.Role == "user" {
				out = append(out, it)
			}
		}
	}
	id := t.newID(CompactionItemPrefix)
	raw, _ := json.Marshal(struct { // strings always encode
		ID               string `json:"id"`
		Type             string `json:"type"`
		EncryptedContent string `json:"encrypted_content"`
	}{id, "compaction", compactionContent(id)})
	out = append(out, Item{Type: "compaction", ID: id, Raw: raw})
	return CompactedResponse{
		ID: t.newID("resp_"), Object: "response.compaction", CreatedAt: t.x.Runtime.Now().Unix(),
		Output: out,
		Usage: ResponsesUsage{InputTokens: inputTokens, OutputTokens: compactionTokens,
			TotalTokens: inputTokens + compactionTokens},
	}
}
