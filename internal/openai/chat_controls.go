package openai

import (
	"encoding/json"
	"fmt"
	"net/http"

	"github.com/llmtestserver/llmtestserver/internal/provider"
)

// The output controls of a chat request that change what the answer
// looks like: stop sequences, log probabilities and the service tier. Their
// limits and errors are the real API's as probes of 2026 report them
// (third-party captures, not a first-hand body; see each check).

// maxStopSequences is how many stop sequences one request may send.
const maxStopSequences = 4

// maxTopLogprobs is the largest top_logprobs the API takes. Some newer
// models are reported to take fewer (5, with another wording); that limit
// is per model and not enforced here.
const maxTopLogprobs = 20

// serviceTiers are the service_tier values the API accepts, in the order
// its error lists them. "scale", which the SDKs still name, is refused for
// every model by the 2026 API (reported by several independent probes).
var serviceTiers = []string{"auto", "default", "fast", "flex", "priority"}

// chatControls holds what decodeOutputControls read from the raw fields.
type chatControls struct {
	stops []string
	tier  string // the tier reported in the answer
}

// decodeOutputControls checks top_logprobs (against logprobs),
// service_tier and stop, in that order, and keeps what they ask for. The
// order between them is inferred; logprobs itself is a boolean, which the
// decoder's type check covers.
func (r *ChatRequest) decodeOutputControls() *Error {
	if n := r.TopLogprobs; n != nil {
		switch {
		case *n < 0:
			return invalidRequest(http.StatusBadRequest, "integer_below_min_value", "top_logprobs",
				"Invalid 'top_logprobs': integer below minimum value. Expected a value >= 0, but got %d instead.", *n)
		case *n > maxTopLogprobs:
			return invalidRequest(http.StatusBadRequest, "integer_above_max_value", "top_logprobs",
				"Invalid 'top_logprobs': integer above maximum value. Expected a value <= %d, but got %d instead.", maxTopLogprobs, *n)
		case !r.logprobsOn():
			// The real wording, with no code (2026 probes).
			return invalidRequest(http.StatusBadRequest, "", "top_logprobs",
				"The 'top_logprobs' parameter is only allowed when 'logprobs' is enabled.")
		}
	}
	if t := r.ServiceTier; t != nil {
		reported, ok := reportedTier(*t)
		if !ok {
			return invalidRequest(http.StatusBadRequest, "invalid_value", "service_tier",
				"Invalid value: '%s'. Supported values are: %s.", *t, supported(serviceTiers))
		}
		r.controls.tier = reported
	}
	stops, err := decodeStop(r.Stop)
	if err != nil {
		return err
	}
	r.controls.stops = stops
	return nil
}

// reportedTier is the service_tier an answer reports for the one asked
// for: the tier that served it, not the request's word. "auto" is served
// by the project's default tier ("default" unless configured), "fast" is
// priority processing under another name (openai-go's documentation says
// the answer shows "priority" for either).
func reportedTier(asked string) (string, bool) {
	switch asked {
	case "auto", "default":
		return "default", true
	case "fast", "priority":
		return "priority", true
	case "flex":
		return "flex", true
	}
	return "", false
}

// decodeStop reads stop: null, a string, or an array of at most four
// strings. Empty sequences stop nothing and are dropped. The array limit
// uses the API's usual wording for array_above_max_length; the type errors
// its invalid_type wording.
func decodeStop(raw json.RawMessage) ([]string, *Error) {
	switch k := provider.JSONKind(raw); k {
	case "", "null":
		return nil, nil
	case "string":
		var s string
		_ = json.Unmarshal(raw, &s) // a valid JSON string always decodes
		if s == "" {
			return nil, nil
		}
		return []string{s}, nil
	case "array":
		var items []json.RawMessage
		_ = json.Unmarshal(raw, &items) // a valid JSON array always decodes
		if len(items) > maxStopSequences {
			return nil, invalidRequest(http.StatusBadRequest, "array_above_max_length", "stop",
				"Invalid 'stop': array too long. Expected an array with maximum length %d, but got an array with length %d instead.",
				maxStopSequences, len(items))
		}
		var stops []string
		for i, item := range items {
			if k := provider.JSONKind(item); k != "string" {
				return nil, InvalidType(fmt.Sprintf("stop[%d]", i), "a string", describeJSONValue(k))
			}
			var s string
			_ = json.Unmarshal(item, &s)
			if s != "" {
				stops = append(stops, s)
			}
		}
		return stops, nil
	default:
		return nil, InvalidType("stop", "one of a string or array of strings", describeJSONValue(k))
	}
}

func (r *ChatRequest) logprobsOn() bool { return r.Logprobs != nil && *r.Logprobs }

// StopSequences are the request's stop sequences, empty ones left out.
func (r *ChatRequest) StopSequences() []string { return r.controls.stops }

// LogprobsTop reports whether the request asks for log probabilities and
// how many alternatives (top_logprobs) each token lists.
func (r *ChatRequest) LogprobsTop() (top int, on bool) {
	if !r.logprobsOn() {
		return 0, false
	}
	if r.TopLogprobs != nil {
		top = int(*r.TopLogprobs)
	}
	return top, true
}

// ReportedServiceTier is the service_tier the answer reports: "default"
// unless the request asked for another tier.
func (r *ChatRequest) ReportedServiceTier() string {
	if r.controls.tier == "" {
		return "default"
	}
	return r.controls.tier
}

// Obfuscation reports whether stream chunks carry obfuscation padding: the
// API's default, turned off by stream_options.include_obfuscation false.
func (r *ChatRequest) Obfuscation() bool {
	return r.StreamOptions == nil || r.StreamOptions.IncludeObfuscation == nil || *r.StreamOptions.IncludeObfuscation
}

// withControls sets on an answer what the request's output controls ask
// of it: the service tier it reports and its log probabilities, whose
// tokens split cuts.
func withControls(a *ChatAnswer, req *ChatRequest, split func(string) []string) {
	a.ServiceTier = req.ReportedServiceTier()
	if top, on := req.LogprobsTop(); on {
		a.Logprobs, a.Split = &Logprobs{Top: top}, split
	}
}
