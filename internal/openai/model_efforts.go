package openai

import (
	"net/http"
	"slices"
)

// modelEfforts are the reasoning efforts each model takes, where the real
// API's refusals name them: gpt-5.1 "Supported values are: 'none', 'low',
// 'medium', and 'high'", gpt-5.4 the same and 'xhigh', gpt-5.6 the same
// and 'max' (seen in 2025-2026 bodies); the o-series before minimal
// existed, gpt-5 before none, and gpt-5-pro at high only (documented). A
// model not listed, by its alias, takes any effort the API knows: its set
// is not seen.
var modelEfforts = map[string][]string{
	"o1": {"low", "medium", "high"}, "o3": {"low", "medium", "high"},
	"o3-mini": {"low", "medium", "high"}, "o4-mini": {"low", "medium", "high"},
	"gpt-5": {"minimal", "low", "medium", "high"}, "gpt-5-mini": {"minimal", "low", "medium", "high"},
	"gpt-5-nano": {"minimal", "low", "medium", "high"}, "gpt-5-pro": {"high"},
	"gpt-5.1":       {"none", "low", "medium", "high"},
	"gpt-5.4":       {"none", "low", "medium", "high", "xhigh"},
	"gpt-5.6-sol":   {"none", "low", "medium", "high", "xhigh", "max"},
	"gpt-5.6-terra": {"none", "low", "medium", "high", "xhigh", "max"},
	"gpt-5.6-luna":  {"none", "low", "medium", "high", "xhigh", "max"},
}

// effortsOf returns the efforts the model of catalog entry info takes, and
// false when they are not known.
func effortsOf(info ModelInfo) ([]string, bool) {
	id := info.ID
	if info.Alias != "" {
		id = info.Alias
	}
	efforts, ok := modelEfforts[id]
	return efforts, ok
}

// checkEffort refuses an effort the model does not take, in the words of
// each API: Chat Completions "Unsupported value: 'reasoning_effort' does
// not support 'minimal' with this model. Supported values are: …", the
// Responses API "Unsupported value: 'minimal' is not supported with the
// 'gpt-5.1' model. Supported values are: …" (param reasoning.effort), both
// with code unsupported_value (seen).
func checkEffort(info ModelInfo, model, effort string, responses bool) *Error {
	efforts, ok := effortsOf(info)
	if !ok || effort == "" || slices.Contains(efforts, effort) {
		return nil
	}
	if responses {
		return invalidRequest(http.StatusBadRequest, "unsupported_value", "reasoning.effort",
			"Unsupported value: '%s' is not supported with the '%s' model. Supported values are: %s.", effort, model, supported(efforts))
	}
	return invalidRequest(http.StatusBadRequest, "unsupported_value", "reasoning_effort",
		"Unsupported value: 'reasoning_effort' does not support '%s' with this model. Supported values are: %s.", effort, supported(efforts))
}
