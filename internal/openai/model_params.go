package openai

import (
	"net/http"
	"strconv"
	"strings"
)

// The rules a model's family adds to a request's parameters, in the real
// API's words. A model of no catalog family (see familyOf) gets none of
// them.

// catalogKind is the kind of a model's catalog family, and false for a
// model of none.
func catalogKind(model string) (ModelKind, bool) {
	info, ok := familyOf(model)
	return info.Kind, ok
}

// supportsAudio reports whether a model writes audio. The catalog holds no
// audio chat model yet, so the ID decides, as OpenAI names its audio models
// (gpt-4o-audio-preview, gpt-audio).
func supportsAudio(model string) bool { return strings.Contains(model, "audio") }

// formatNumber writes a number as the API's messages show it: 0.5, 0, 2.
func formatNumber(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) }

// chatModelRules applies the model's rules to a chat request's sampling
// knobs:
//   - reasoning models take only the default temperature and top_p (1),
//     unless they answer at effort none (gpt-5.1 on, by default), where
//     OpenAI documents that sampling works as for other models:
//     "Unsupported value: 'temperature' does not support 0.5 with this
//     model. Only the default (1) value is supported.", code
//     unsupported_value (seen for temperature; top_p worded the same is
//     inferred);
//   - other models do not know reasoning_effort: the real API answers it
//     as an unknown argument (seen for gpt-4o-mini), unless it is null;
//   - audio in modalities needs an audio model (the wording is inferred);
//   - reasoning models before gpt-5.5 take no stop sequences (see
//     takesStop), nor an effort they do not take (checkEffort).
func chatModelRules(model string, k *chatKnobs, stops []string) *Error {
	info, ok := familyOf(model)
	if !ok {
		return nil
	}
	kind := info.Kind
	if len(stops) > 0 && !takesStop(info) {
		return unsupportedWithModel("stop")
	}
	requested := ""
	if k.ReasoningEffort != nil {
		requested = *k.ReasoningEffort
	}
	if kind == KindReasoning {
		if err := checkEffort(info, model, requested, false); err != nil {
			return err
		}
	}
	if kind == KindReasoning && effectiveEffort(info.ID, requested) != "none" {
		for _, p := range []struct {
			name string
			v    *float64
		}{{"temperature", k.Temperature}, {"top_p", k.TopP}} {
			if p.v != nil && *p.v != 1 {
				return invalidRequest(http.StatusBadRequest, "unsupported_value", p.name,
					"Unsupported value: '%s' does not support %s with this model. Only the default (1) value is supported.", p.name, formatNumber(*p.v))
			}
		}
	}
	if kind != KindReasoning && k.ReasoningEffort != nil {
		return invalidRequest(http.StatusBadRequest, "", "", "Unrecognized request argument supplied: reasoning_effort")
	}
	for _, m := range k.Modalities {
		if m == "audio" && !supportsAudio(model) {
			return invalidRequest(http.StatusBadRequest, "invalid_value", "modalities",
				"Invalid value: 'audio'. This model does not support audio output.")
		}
	}
	return nil
}

// responsesModelRules applies the model's rules to a Responses request:
//   - reasoning models refuse a temperature or top_p other than the
//     default, unless they answer at effort none: "Unsupported
//     parameter: 'temperature' is not supported with this model.", code
//     unsupported_parameter (seen for o-series models; that 1 passes, and
//     top_p worded the same, are inferred);
//   - other models refuse reasoning.effort: "Unsupported parameter:
//     'reasoning.effort' is not supported with this model.", code
//     unsupported_parameter (seen for gpt-4o);
//   - a reasoning model refuses an effort it does not take (checkEffort).
func (r *ResponsesRequest) responsesModelRules() *Error {
	kind, ok := catalogKind(r.Model)
	if !ok {
		return nil
	}
	if kind == KindReasoning {
		info, _ := familyOf(r.Model)
		if err := checkEffort(info, r.Model, r.effort(), true); err != nil {
			return err
		}
		if effectiveEffort(r.Model, r.effort()) == "none" {
			return nil // reasoning off: sampling as any chat model's
		}
		for _, p := range []struct {
			name string
			v    *float64
		}{{"temperature", r.Temperature}, {"top_p", r.TopP}} {
			if p.v != nil && *p.v != 1 {
				return unsupportedWithModel(p.name)
			}
		}
		return nil
	}
	if r.reasoning.Effort != nil {
		return unsupportedWithModel("reasoning.effort")
	}
	return nil
}

// takesStop reports whether a model takes stop sequences. Reasoning models
// refuse them: "Unsupported parameter: 'stop' is not supported with this
// model.", code unsupported_parameter, param stop (seen for gpt-5,
// gpt-5-mini, gpt-5.2 and the o-series), up to gpt-5.5, the first that
// takes them again (reported by client libraries in 2026; that the later
// families take them too is inferred).
func takesStop(info ModelInfo) bool {
	if info.Kind != KindReasoning {
		return true
	}
	id := info.ID
	if info.Alias != "" {
		id = info.Alias
	}
	for _, p := range []string{"gpt-5.5", "gpt-5.6", "gpt-6", "gpt-rosalind", "gpt-daybreak"} {
		if strings.HasPrefix(id, p) {
			return true
		}
	}
	return false
}

func unsupportedWithModel(param string) *Error {
	return invalidRequest(http.StatusBadRequest, "unsupported_parameter", param,
		"Unsupported parameter: '%s' is not supported with this model.", param)
}
