package openai

import (
	"bytes"
	"encoding/json"
	"unicode/utf8"
)

// SystemFingerprint is the system_fingerprint every completion carries.
const SystemFingerprint = "fp_llmtest0001"

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

// AssistantOutput is the message of a choice.
type AssistantOutput struct {
	Role        string   `json:"role"`
	Content     *string  `json:"content"`
	Refusal     *string  `json:"refusal"`
	Annotations []string `json:"annotations"`
}

// Usage is a chat completion's token accounting.
type Usage struct {
	PromptTokens            int                     `json:"prompt_tokens"`
	CompletionTokens        int                     `json:"completion_tokens"`
	TotalTokens             int                     `json:"total_tokens"`
	PromptTokensDetails     PromptTokensDetails     `json:"prompt_tokens_details"`
	CompletionTokensDetails CompletionTokensDetails `json:"completion_tokens_details"`
}

// PromptTokensDetails breaks prompt tokens down.
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

// ChatAnswer is what the server answers, independent of streaming.
type ChatAnswer struct {
	ID      string
	Created int64
	Model   string
	Text    string
	Usage   Usage
}

// Completion renders a as a non-streamed completion.
func (a *ChatAnswer) Completion() *ChatCompletion {
	text := a.Text
	return &ChatCompletion{
		ID: a.ID, Object: "chat.completion", Created: a.Created, Model: a.Model,
		Choices: []ChatChoice{{
			Message:      AssistantOutput{Role: "assistant", Content: &text, Annotations: []string{}},
			FinishReason: "stop",
		}},
		Usage: a.Usage, ServiceTier: "default", SystemFingerprint: SystemFingerprint,
	}
}

// chatChunk is one streamed event (object "chat.completion.chunk").
type chatChunk struct {
	ID                string        `json:"id"`
	Object            string        `json:"object"`
	Created           int64         `json:"created"`
	Model             string        `json:"model"`
	ServiceTier       string        `json:"service_tier"`
	SystemFingerprint string        `json:"system_fingerprint"`
	Choices           []chunkChoice `json:"choices"`
	Usage             *Usage        `json:"usage,omitempty"`
}

type chunkChoice struct {
	Index        int       `json:"index"`
	Delta        any       `json:"delta"`
	Logprobs     *struct{} `json:"logprobs"`
	FinishReason *string   `json:"finish_reason"`
}

type openingDelta struct {
	Role    string  `json:"role"`
	Content string  `json:"content"`
	Refusal *string `json:"refusal"`
}

type contentDelta struct {
	Content string `json:"content"`
}

// SSE renders a as the body of a chat stream: an opening chunk with the role,
// one chunk per piece of text, a closing chunk with the finish reason and an
// empty delta, the usage chunk when includeUsage is set, then [DONE]. Every
// chunk carries the same id and created, and every event ends with a blank
// line, which both SDKs' decoders need.
func (a *ChatAnswer) SSE(pieces []string, includeUsage bool) []byte {
	var buf bytes.Buffer
	base := chatChunk{ID: a.ID, Object: "chat.completion.chunk", Created: a.Created, Model: a.Model,
		ServiceTier: "default", SystemFingerprint: SystemFingerprint}
	emit := func(c chatChunk) {
		buf.WriteString("data: ")
		b, _ := json.Marshal(c) // chunk structs always encode
		buf.Write(b)
		buf.WriteString("\n\n")
	}
	choice := func(delta any, finish *string) []chunkChoice {
		return []chunkChoice{{Delta: delta, FinishReason: finish}}
	}
	c := base
	c.Choices = choice(openingDelta{Role: "assistant"}, nil)
	emit(c)
	for _, p := range pieces {
		c.Choices = choice(contentDelta{Content: p}, nil)
		emit(c)
	}
	stop := "stop"
	c.Choices = choice(struct{}{}, &stop)
	emit(c)
	if includeUsage {
		u := a.Usage
		c.Choices, c.Usage = []chunkChoice{}, &u
		emit(c)
	}
	buf.WriteString("data: [DONE]\n\n")
	return buf.Bytes()
}

// JoinValidUTF8 merges token pieces so that no piece ends inside a UTF-8
// sequence: a tokenizer may split a character across tokens, and JSON would
// turn each half into U+FFFD.
func JoinValidUTF8(pieces []string) []string {
	out := pieces[:0:0]
	pending := ""
	for _, p := range pieces {
		pending += p
		if utf8.ValidString(pending) {
			out = append(out, pending)
			pending = ""
		}
	}
	if pending != "" {
		out = append(out, pending)
	}
	return out
}
