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
