package openai

import (
	"github.com/llmtestserver/llmtestserver/scenario"
)

// SystemFingerprint is the system_fingerprint every completion carries.
const SystemFingerprint = "fp_llmtest0001"

// serviceTier is the service_tier every completion reports.
const serviceTier = "default"

// ChatCompletion is a non-streamed chat answer (object "chat.completion").
type ChatCompletion struct {
	ID                string       `json:"id"`
	Object            string       `json:"object"`
	Created           int64        `json:"created"`
	Model             string       `json:"model"`
	Choices           []ChatChoice `json:"choices"`
	Usage             Usage        `json:"usage"`
	ServiceTier       string       `json:"service_tier"`
	SystemFingerprint string       `json:"system_fingerprint"`
}

// ChatChoice is one element of a completion's choices.
type ChatChoice struct {
	Index        int             `json:"index"`
	Message      AssistantOutput `json:"message"`
	Logprobs     *struct{}       `json:"logprobs"`
	FinishReason string          `json:"finish_reason"`
}

// AssistantOutput is the message of a choice. Content is null when the
// message only calls tools or refuses; Refusal is null unless it refuses;
// tool_calls is omitted when there are none.
type AssistantOutput struct {
	Role        string           `json:"role"`
	Content     *string          `json:"content"`
	Refusal     *string          `json:"refusal"`
	Annotations []struct{}       `json:"annotations"`
	ToolCalls   []OutputToolCall `json:"tool_calls,omitempty"`
}

// OutputToolCall is a tool call of an answer, in both the message and the
// first stream fragment of the call.
type OutputToolCall struct {
	ID       string       `json:"id"`
	Type     string       `json:"type"`
	Function FunctionCall `json:"function"`
}

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

// ChatAnswer is what the server answers, independent of streaming. At most
// one of Text (optionally with ToolCalls), ToolCalls and Refusal is
// expected; every choice of the answer is the same.
type ChatAnswer struct {
	ID      string
	Created int64
	Model   string
	// N is the number of choices; values below 1 mean 1.
	N int
	// Text is the assistant's message.
	Text string
	// Refusal is a refusal instead of a message.
	Refusal string
	// ToolCalls are the calls the model asks for, with IDs already filled.
	// Empty arguments are sent as "{}", as the API never sends none.
	ToolCalls []scenario.ToolCall
	// FinishReason is the finish reason; empty means "tool_calls" when
	// there are tool calls and "stop" otherwise.
	FinishReason string
	// Usage is the token accounting, covering all choices.
	Usage Usage
}

func (a *ChatAnswer) choices() int { return max(a.N, 1) }

func (a *ChatAnswer) finishReason() string {
	switch {
	case a.FinishReason != "":
		return a.FinishReason
	case len(a.ToolCalls) > 0:
		return "tool_calls"
	default:
		return "stop"
	}
}

func arguments(c scenario.ToolCall) string {
	if c.Arguments == "" {
		return "{}"
	}
	return c.Arguments
}

// Completion renders a as a non-streamed completion.
func (a *ChatAnswer) Completion() *ChatCompletion {
	msg := AssistantOutput{Role: "assistant", Annotations: []struct{}{}}
	switch {
	case a.Refusal != "":
		refusal := a.Refusal
		msg.Refusal = &refusal
	case a.Text != "" || len(a.ToolCalls) == 0:
		text := a.Text
		msg.Content = &text
	}
	for _, c := range a.ToolCalls {
		msg.ToolCalls = append(msg.ToolCalls, OutputToolCall{ID: c.ID, Type: "function",
			Function: FunctionCall{Name: c.Name, Arguments: arguments(c)}})
	}
	choices := make([]ChatChoice, a.choices())
	for i := range choices {
		choices[i] = ChatChoice{Index: i, Message: msg, FinishReason: a.finishReason()}
	}
	return &ChatCompletion{
		ID: a.ID, Object: "chat.completion", Created: a.Created, Model: a.Model,
		Choices: choices, Usage: a.Usage, ServiceTier: serviceTier, SystemFingerprint: SystemFingerprint,
	}
}
