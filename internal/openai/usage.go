package openai

import (
	"github.com/llmtestserver/llmtestserver/internal/provider"
	"github.com/llmtestserver/llmtestserver/scenario"
)

// Token usage in the words of the OpenAI APIs, and the neutral answer's
// finish kinds in theirs.

// Usage is a chat completion's token accounting.
type Usage struct {
	PromptTokens            int                     `json:"prompt_tokens"`
	CompletionTokens        int                     `json:"completion_tokens"`
	TotalTokens             int                     `json:"total_tokens"`
	PromptTokensDetails     PromptTokensDetails     `json:"prompt_tokens_details"`
	CompletionTokensDetails CompletionTokensDetails `json:"completion_tokens_details"`
}

// PromptTokensDetails breaks prompt tokens down. CachedTokens is part of
// PromptTokens, as in the real API.
type PromptTokensDetails struct {
	CachedTokens int `json:"cached_tokens"`
	AudioTokens  int `json:"audio_tokens"`
}

// CompletionTokensDetails breaks completion tokens down.
type CompletionTokensDetails struct {
	ReasoningTokens          int `json:"reasoning_tokens"`
	AudioTokens              int `json:"audio_tokens"`
	AcceptedPredictionTokens int `json:"accepted_prediction_tokens"`
	RejectedPredictionTokens int `json:"rejected_prediction_tokens"`
}

// NewUsage fills the totals from the two counts.
func NewUsage(prompt, completion int) Usage {
	return Usage{PromptTokens: prompt, CompletionTokens: completion, TotalTokens: prompt + completion}
}

// usageOf is a neutral usage in Chat Completions' words.
func usageOf(u provider.Usage) Usage {
	out := NewUsage(u.Input, u.Output)
	out.PromptTokensDetails.CachedTokens = u.CacheRead
	out.CompletionTokensDetails.ReasoningTokens = u.Reasoning
	return out
}

// finishReason is OpenAI's word for a finish kind. OpenAI has no finish
// reason for a refusal: the real API stops a refused answer with "stop".
// Anthropic's own kinds say what OpenAI's nearest word does: a paused turn
// or a stop sequence stops ("stop"), a full context window cuts the
// answer ("length").
func finishReason(k scenario.FinishKind) string {
	switch k {
	case scenario.FinishRefusal, scenario.FinishPauseTurn, scenario.FinishStopSequence:
		return "stop"
	case scenario.FinishContextWindow:
		return "length"
	}
	return k
}
