package anthropic

import (
	"github.com/llmtestserver/llmtestserver/internal/apierr"
)

// generation groups the models by the thinking and prefill rules they
// follow.
type generation int

const (
	// gen45 is Claude 4.5 and earlier: thinking "enabled" with a budget,
	// no "adaptive", and a final assistant message is a prefill.
	gen45 generation = iota
	// gen46 is Claude 4.6 (Opus, Sonnet): both thinking types ("enabled"
	// deprecated, thinking_warn.go in the SDK), and no prefill.
	gen46
	// genAdaptiveOnly is Opus 4.7 and later: only "adaptive" thinking,
	// and no prefill.
	genAdaptiveOnly
	// gen5 is the other 5-series, Fable and Mythos models: only
	// "adaptive" thinking, which is on when the request says nothing of
	// thinking, and no prefill. Sonnet 5 answers "enabled" with "use
	// adaptive" (mnfst/modelparams.dev#92, checked against the API; the
	// same 400 on Opus 5, Fable 5 and Opus 4.8, handochan/aelix-ai#258) and
	// "enables adaptive thinking by default", as Fable and Mythos 5 do
	// (cortexkit/anthropic-auth#100, langgenius/dify-official-plugins#3372).
	// That Haiku 5.5 follows them is inferred.
	gen5
)

// thinkingTypes reports which thinking types g accepts.
func (g generation) thinkingTypes() (enabled, adaptive bool) {
	switch g {
	case gen45:
		return true, false
	case genAdaptiveOnly, gen5:
		return false, true
	}
	return true, true
}

// thinksByDefault reports whether g thinks (adaptively) when the request
// sends no thinking.
func (g generation) thinksByDefault() bool { return g == gen5 }

// omitsThinkingByDefault reports whether g shows its thinking as
// thinking.display "omitted" when the request does not say: Sonnet 5 and
// later, Opus 4.7 and later, and Fable do (danny-avila/LibreChat#14042,
// checked live there).
func (g generation) omitsThinkingByDefault() bool { return g == gen5 || g == genAdaptiveOnly }

// alwaysThinks reports whether a model of line refuses thinking
// "disabled": Fable and Mythos 5 do (cortexkit/anthropic-auth#100, where
// Sonnet 5 accepts it).
func alwaysThinks(info ModelInfo) bool {
	return info.Generation == gen5 && (info.Line == "fable" || info.Line == "mythos")
}

// prefill reports whether g accepts a final assistant message.
func (g generation) prefill() bool { return g == gen45 }

// CheckModel runs the checks that depend on the model: max_tokens against
// the model's output limit, the thinking types it takes, and prefill.
func (r *MessagesRequest) CheckModel(info ModelInfo) *apierr.Error {
	if r.MaxTokens != nil && info.MaxOutput > 0 && *r.MaxTokens > int64(info.MaxOutput) {
		// The real API's wording; it names the model as the request did.
		return invalid("max_tokens", "max_tokens: %d > %d, which is the maximum allowed number of output tokens for %s",
			*r.MaxTokens, info.MaxOutput, r.Model)
	}
	enabled, adaptive := info.Generation.thinkingTypes()
	if t := r.Thinking; t != nil {
		switch {
		case t.Type == "enabled" && !enabled:
			// The real wording (the docs, quoted in anthropics/claude-code#56497).
			return invalid("thinking.type", "\"thinking.type.enabled\" is not supported for this model. Use \"thinking.type.adaptive\" and \"output_config.effort\" to control thinking behavior.")
		case t.Type == "disabled" && alwaysThinks(info):
			// Inferred wording, after the refusal of "enabled" above.
			return invalid("thinking.type", "\"thinking.type.disabled\" is not supported for this model. This model always thinks: use \"thinking.type.adaptive\" and \"output_config.effort\" to control thinking behavior.")
		case t.Type == "adaptive" && !adaptive:
			// The real wording, quoted from a production 400 on Sonnet 4.5
			// (vellum-ai/vellum-assistant#37276).
			return invalid("thinking.type", "adaptive thinking is not supported on this model")
		}
	}
	if n := len(r.Messages); n > 0 && r.Messages[n-1].Role == "assistant" && !info.Generation.prefill() {
		// The real wording (jobrunr/JavaClaw#36; the SDK's
		// MessageNewParams.Messages doc says such models answer 400).
		return invalid("messages", "This model does not support assistant message prefill. The conversation must end with a user message.")
	}
	return nil
}

// thinks reports whether the answer to r shows the model's reasoning: the
// request enables it, or sends no thinking to a model that thinks by
// default. A model outside the catalog thinks only when asked.
func (r *MessagesRequest) thinks() bool {
	if r.Thinking != nil {
		return r.ThinkingEnabled()
	}
	info, ok := Lookup(r.Model)
	return ok && info.Generation.thinksByDefault()
}

// omitsThinking reports whether the answer to r shows its thinking as
// thinking.display "omitted": asked for, or the model's default.
func (r *MessagesRequest) omitsThinking() bool {
	if r.Thinking != nil && r.Thinking.Display != "" {
		return r.Thinking.Display == "omitted"
	}
	info, ok := Lookup(r.Model)
	return ok && info.Generation.omitsThinkingByDefault()
}
