package anthropic

import (
	"encoding/json"

	"github.com/llmtestserver/llmtestserver/internal/apierr"
	"github.com/llmtestserver/llmtestserver/internal/provider"
)

// decodeSampling keeps temperature and top_p for the journal. The server
// samples nothing and has always accepted whatever the body holds there,
// so a value that is not a number is left out rather than refused.
func (r *MessagesRequest) decodeSampling(top map[string]json.RawMessage) *apierr.Error {
	r.Temperature, r.TopP = sampling(top["temperature"]), sampling(top["top_p"])
	return nil
}

// sampling is raw as a number, or nil when it is absent or no number.
func sampling(raw json.RawMessage) *float64 {
	var f float64
	if provider.JSONKind(raw) != "number" || json.Unmarshal(raw, &f) != nil {
		return nil
	}
	return &f
}
