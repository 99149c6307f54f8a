package anthropic

import "github.com/llmtestserver/llmtestserver/internal/provider"

// optionsOf are the decoding options of x: the session's tolerance of
// unknown fields, and whether the request asked for betas (an
// anthropic-beta header, or the ?beta=true of older SDKs' Beta service).
func optionsOf(x *provider.Exchange) DecodeOptions {
	opts := DecodeOptions{AllowUnknown: x.Runtime.Settings().AllowUnknownParameters}
	if r := x.Request; r != nil {
		opts.Beta = r.URL.Query().Get("beta") == "true" || r.Header.Get("Anthropic-Beta") != ""
	}
	return opts
}
