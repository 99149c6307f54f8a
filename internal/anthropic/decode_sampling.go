package anthropic

import (
	"encoding/json"
	"math"
	"strconv"
	"strings"

	"github.com/llmtestserver/llmtestserver/internal/apierr"
	"github.com/llmtestserver/llmtestserver/internal/provider"
)

// decodeSampling checks the sampling knobs as the API's schema types them
// (the v2 SDK no longer sends them; raw clients and other SDKs do):
// temperature and top_p numbers in [0, 1], top_k a non-negative integer.
// The wordings are pydantic's (inferred); a string is no number, "NaN"
// included. Temperature and TopP are kept for the journal.
func (r *MessagesRequest) decodeSampling(top map[string]json.RawMessage) *apierr.Error {
	var err *apierr.Error
	if r.Temperature, err = unitNumber("temperature", top["temperature"]); err != nil {
		return err
	}
	if r.TopP, err = unitNumber("top_p", top["top_p"]); err != nil {
		return err
	}
	if raw := top["top_k"]; !absent(raw) {
		k, err := integer("top_k", raw)
		if err != nil {
			return err
		}
		if k < 0 {
			return fieldError("top_k", "Input should be greater than or equal to 0")
		}
		r.topK = true
	}
	return nil
}

// unitNumber is an optional number in [0, 1], nil when absent or null.
func unitNumber(path string, raw json.RawMessage) (*float64, *apierr.Error) {
	if absent(raw) {
		return nil, nil
	}
	if provider.JSONKind(raw) != "number" {
		return nil, fieldError(path, "Input should be a valid number")
	}
	f, err := strconv.ParseFloat(strings.TrimSpace(string(raw)), 64)
	if err != nil && !math.IsInf(f, 0) {
		return nil, fieldError(path, "Input should be a valid number")
	}
	if f < 0 {
		return nil, fieldError(path, "Input should be greater than or equal to 0")
	}
	if f > 1 {
		return nil, fieldError(path, "Input should be less than or equal to 1")
	}
	return &f, nil
}

// thinkingDocs is where the API's refusals of sampling with thinking
// point.
const thinkingDocs = "https://docs.claude.com/en/docs/build-with-claude/extended-thinking#important-considerations-when-using-extended-thinking"

// checkSamplingWithThinking refuses what thinking does not take, in the
// real wordings: a temperature other than 1 (MartialBE/one-hub#529, which
// quotes the docs' older host; the host is inferred from the top_k one),
// and any top_k (quarkiverse/quarkus-langchain4j#1812). Adaptive thinking
// is taken to refuse them alike (inferred: the sources probed "enabled").
// top_p is left alone: the docs allow 0.95 to 1, and no refusal is quoted.
// A 5-series model thinks unless told not to, so it refuses them without
// a thinking field too, as Sonnet 5 is reported to
// (langgenius/dify-official-plugins#3372).
func (r *MessagesRequest) checkSamplingWithThinking() *apierr.Error {
	if !r.thinks() {
		return nil
	}
	if r.Temperature != nil && *r.Temperature != 1 {
		return invalid("temperature", "`temperature` may only be set to 1 when thinking is enabled. Please consult our documentation at %s", thinkingDocs)
	}
	if r.topK {
		return invalid("top_k", "`top_k` must be unset when thinking is enabled. Please consult our documentation at %s", thinkingDocs)
	}
	return nil
}
