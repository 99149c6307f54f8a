package gemini

import (
	"encoding/json"
	"slices"

	"github.com/llmtestserver/llmtestserver/internal/provider"
	"github.com/llmtestserver/llmtestserver/scenario"
)

// Response is a GenerateContentResponse as the API sends it, and each
// chunk of its stream (wire.md Part 3 §2.3): camelCase, numbers as
// numbers, no createTime or finishMessage (genai drops them).
type Response struct {
	Candidates     []Candidate     `json:"candidates,omitempty"`
	PromptFeedback *PromptFeedback `json:"promptFeedback,omitempty"`
	UsageMetadata  Usage           `json:"usageMetadata"`
	ModelVersion   string          `json:"modelVersion"`
	ResponseID     string          `json:"responseId"`
}

// Candidate is one alternative answer.
type Candidate struct {
	Content       *OutContent    `json:"content,omitempty"`
	FinishReason  string         `json:"finishReason,omitempty"`
	Index         int            `json:"index"`
	SafetyRatings []SafetyRating `json:"safetyRatings,omitempty"`
}

// OutContent is the model's content.
type OutContent struct {
	Role  string    `json:"role"`
	Parts []OutPart `json:"parts"`
}

// OutPart is one part of the model's content.
type OutPart struct {
	Text             *string          `json:"text,omitempty"`
	Thought          bool             `json:"thought,omitempty"`
	FunctionCall     *OutFunctionCall `json:"functionCall,omitempty"`
	ThoughtSignature string           `json:"thoughtSignature,omitempty"`
}

// OutFunctionCall is a call the model asks for; Args is always an object.
type OutFunctionCall struct {
	ID   string          `json:"id,omitempty"`
	Name string          `json:"name"`
	Args json.RawMessage `json:"args"`
}

// SafetyRating is a candidate's rating in one harm category.
type SafetyRating struct {
	Category    string `json:"category"`
	Probability string `json:"probability"`
	Blocked     bool   `json:"blocked,omitempty"`
}

// PromptFeedback is the verdict on the prompt.
type PromptFeedback struct {
	BlockReason string `json:"blockReason,omitempty"`
}

// Usage is usageMetadata: totalTokenCount is the prompt, the candidates
// and the thoughts; promptTokenCount includes the cached tokens.
type Usage struct {
	PromptTokenCount        int              `json:"promptTokenCount"`
	CandidatesTokenCount    int              `json:"candidatesTokenCount,omitempty"`
	TotalTokenCount         int              `json:"totalTokenCount"`
	CachedContentTokenCount int              `json:"cachedContentTokenCount,omitempty"`
	ThoughtsTokenCount      int              `json:"thoughtsTokenCount,omitempty"`
	PromptTokensDetails     []ModalityTokens `json:"promptTokensDetails,omitempty"`
	CacheTokensDetails      []ModalityTokens `json:"cacheTokensDetails,omitempty"`
}

// ModalityTokens counts the tokens of one modality.
type ModalityTokens struct {
	Modality   string `json:"modality"`
	TokenCount int    `json:"tokenCount"`
}

// finishReasons are the API's finish reasons (genai's FinishReason), which
// a script may name as its reply's FinishReason to send as they are.
var finishReasons = []string{"STOP", "MAX_TOKENS", "SAFETY", "RECITATION", "LANGUAGE", "OTHER", "BLOCKLIST",
	"PROHIBITED_CONTENT", "SPII", "MALFORMED_FUNCTION_CALL", "IMAGE_SAFETY", "UNEXPECTED_TOOL_CALL",
	"TOO_MANY_TOOL_CALLS", "IMAGE_PROHIBITED_CONTENT", "NO_IMAGE", "IMAGE_RECITATION", "IMAGE_OTHER"}

// finishReason is why a stopped, in the API's words. A function-call turn
// ends with STOP: the API has no finish reason of its own for it.
func finishReason(a *provider.Answer, reply *scenario.Reply) string {
	if reply != nil && slices.Contains(finishReasons, reply.FinishReason) {
		return reply.FinishReason
	}
	switch a.Finish {
	case scenario.FinishLength, scenario.FinishContextWindow:
		return "MAX_TOKENS"
	case scenario.FinishRefusal, scenario.FinishContentFilter:
		return "SAFETY"
	}
	return "STOP"
}

// usageOf is a's usage as usageMetadata reports it.
func usageOf(a *provider.Answer) Usage {
	u := a.Usage
	out := Usage{PromptTokenCount: u.Input, CandidatesTokenCount: u.Output - u.Reasoning, ThoughtsTokenCount: u.Reasoning,
		TotalTokenCount: u.Input + u.Output, CachedContentTokenCount: u.CacheRead,
		PromptTokensDetails: []ModalityTokens{{Modality: "TEXT", TokenCount: u.Input}}}
	if u.CacheRead > 0 {
		out.CacheTokensDetails = []ModalityTokens{{Modality: "TEXT", TokenCount: u.CacheRead}}
	}
	return out
}

// refusalRatings are the ratings of a candidate the safety filter
// blocked: the blocking category HIGH, the others NEGLIGIBLE, as the API
// rates the four categories it reports.
func refusalRatings() []SafetyRating {
	return []SafetyRating{
		{Category: "HARM_CATEGORY_SEXUALLY_EXPLICIT", Probability: "NEGLIGIBLE"},
		{Category: "HARM_CATEGORY_HATE_SPEECH", Probability: "NEGLIGIBLE"},
		{Category: "HARM_CATEGORY_HARASSMENT", Probability: "NEGLIGIBLE"},
		{Category: "HARM_CATEGORY_DANGEROUS_CONTENT", Probability: "HIGH", Blocked: true},
	}
}

// render is how an answer is rendered: whether thoughts are shown, how
// many candidates, and the signature its thinking gets.
type render struct {
	thoughts   bool
	candidates int
	signature  string
}

// parts are a's parts in one candidate: the thoughts when shown, the
// text, the calls; the thinking's signature rides on the first part
// after the thoughts, as the API returns it.
func (r *render) parts(a *provider.Answer, thought, text string, calls []scenario.ToolCall, signed bool) []OutPart {
	var out []OutPart
	if thought != "" {
		out = append(out, OutPart{Text: &thought, Thought: true})
	}
	if text != "" {
		out = append(out, OutPart{Text: &text})
	}
	for _, c := range calls {
		out = append(out, OutPart{FunctionCall: &OutFunctionCall{ID: c.ID, Name: c.Name, Args: argsObject(c.Arguments)}})
	}
	if signed && r.signature != "" {
		for i := range out {
			if !out[i].Thought {
				out[i].ThoughtSignature = r.signature
				break
			}
		}
	}
	return out
}

// argsObject is a call's arguments as the object the API sends: a
// script's arguments that are no JSON object are sent as {} (genai fails
// on anything else).
func argsObject(arguments string) json.RawMessage {
	var obj map[string]json.RawMessage
	if json.Unmarshal([]byte(arguments), &obj) != nil || obj == nil {
		return json.RawMessage("{}")
	}
	return json.RawMessage(arguments)
}

// candidates repeats one candidate's content as r's candidates, each
// with its index.
func (r *render) candidatesOf(parts []OutPart, finish string, refused bool) []Candidate {
	out := make([]Candidate, max(r.candidates, 1))
	for i := range out {
		out[i].Index = i
		out[i].FinishReason = finish
		if refused {
			out[i].SafetyRatings = refusalRatings()
			continue
		}
		out[i].Content = &OutContent{Role: "model", Parts: parts}
	}
	return out
}

// NewResponse renders a as the whole response.
func (r *render) NewResponse(a *provider.Answer, reply *scenario.Reply) *Response {
	finish := finishReason(a, reply)
	refused := a.Refusal != "" && finish == "SAFETY"
	thought := ""
	if r.thoughts {
		thought = a.Thinking
	}
	parts := r.parts(a, thought, a.Text, a.ToolCalls, true)
	if len(parts) == 0 {
		empty := ""
		parts = []OutPart{{Text: &empty}}
	}
	return &Response{Candidates: r.candidatesOf(parts, finish, refused), UsageMetadata: usageOf(a),
		ModelVersion: a.Model, ResponseID: a.ID}
}
