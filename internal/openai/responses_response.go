package openai

import (
	"bytes"
	"encoding/json"
	"maps"

	"github.com/llmtestserver/llmtestserver/internal/plainjson"
)

// ResponseAnswer is what the server answers on the Responses API,
// independent of streaming: Object renders it as a response object and
// Stream as the event stream that ends with the same object.
type ResponseAnswer struct {
	// ID is the response's ID, "resp_…".
	ID string
	// CreatedAt is the creation time in unix seconds; CompletedAt the
	// completion time, 0 meaning CreatedAt. completed_at is null unless the
	// status is completed.
	CreatedAt, CompletedAt int64
	// Model is the model named in the answer.
	Model string
	// Instructions, PreviousResponseID and Conversation are echoed as
	// given ("" encodes as null). Conversation is a conversation ID and
	// encodes as {"id":…}.
	Instructions       string
	PreviousResponseID string
	Conversation       string
	// MessageID is the item ID ("msg_…") of the assistant message, which
	// carries Text or Refusal. The message is left out when the answer only
	// calls tools.
	MessageID string
	// Text is the assistant's message; Refusal a refusal instead of it.
	Text    string
	Refusal string
	// Logprobs, when include asks for message.output_text.logprobs, gives
	// the text's tokens log probabilities; LogprobTokens are those tokens
	// (they join into Text).
	Logprobs      *Logprobs
	LogprobTokens []string
	// ToolCalls are the calls the model asks for, after the message, each
	// with its item ID and call ID already filled.
	ToolCalls []ResponseToolCall
	// Reasoning, when set, is the reasoning item a reasoning model's
	// output starts with (see ResponseReasoning).
	Reasoning *ResponseReasoning
	// Effort, when set, is the effective reasoning effort that
	// reasoning.effort echoes in place of the request's: a reasoning
	// model's, the model's default when the request named none.
	Effort string
	// NoObfuscation leaves out the obfuscation padding of stream deltas,
	// as stream_options.include_obfuscation false asks.
	NoObfuscation bool
	// FinishReason "length" makes the response incomplete with reason
	// max_output_tokens, "content_filter" incomplete with reason
	// content_filter; anything else completes it.
	FinishReason string
	// Usage is the token accounting, in Chat Completions terms: prompt
	// tokens are input tokens (cached ones included), completion tokens
	// output tokens.
	Usage Usage
	// Failure, when set, makes the response failed with this error and no
	// output.
	Failure *ResponseError
	// Request supplies the settings the object echoes (tools, tool_choice,
	// text, parallel_tool_calls, store, metadata, max_output_tokens,
	// prompt_cache_key, temperature, top_p, truncation, user, reasoning,
	// service_tier…); nil echoes the API's defaults.
	Request *ResponsesRequest

	// echo, set by Detach, holds the settings rendered from Request once,
	// so that a stored answer needs neither Request nor its body, and
	// requestedTier the service_tier the request named.
	echo          *ResponseObject
	requestedTier string
}

// ResponseToolCall is one function call of an answer.
type ResponseToolCall struct {
	// ID is the item ID, "fc_…"; CallID the call_id, "call_…", which the
	// next request's function_call_output quotes.
	ID, CallID string
	Name       string
	// Arguments is the JSON text of the arguments; "" is sent as "{}".
	Arguments string
}

// ResponseError is the error of a failed response: {"code","message"}.
type ResponseError struct {
	Code    string `json:"code"`
	Message string `json:"message"`
}

// IncompleteDetails says why a response is incomplete.
type IncompleteDetails struct {
	Reason string `json:"reason"`
}

// ConversationRef is a response's conversation, always an object: go-openai
// decodes it into a struct.
type ConversationRef struct {
	ID string `json:"id"`
}

// ResponsesUsage is a response's token accounting.
type ResponsesUsage struct {
	InputTokens         int                 `json:"input_tokens"`
	InputTokensDetails  InputTokensDetails  `json:"input_tokens_details"`
	OutputTokens        int                 `json:"output_tokens"`
	OutputTokensDetails OutputTokensDetails `json:"output_tokens_details"`
	TotalTokens         int                 `json:"total_tokens"`
}

// InputTokensDetails breaks input tokens down; CachedTokens and
// CacheWriteTokens are part of InputTokens. openai-go v3.98 requires
// cache_write_tokens; OpenAI's automatic prompt cache reports none written
// (real 2026 bodies carry 0), so it is 0 here.
type InputTokensDetails struct {
	CacheWriteTokens int `json:"cache_write_tokens"`
	CachedTokens     int `json:"cached_tokens"`
}

// OutputTokensDetails breaks output tokens down.
type OutputTokensDetails struct {
	ReasoningTokens int `json:"reasoning_tokens"`
}

// NewResponsesUsage converts chat-style accounting to the Responses shape.
// A zero total is filled from the two counts.
func NewResponsesUsage(u Usage) ResponsesUsage {
	total := u.TotalTokens
	if total == 0 {
		total = u.PromptTokens + u.CompletionTokens
	}
	return ResponsesUsage{
		InputTokens:         u.PromptTokens,
		InputTokensDetails:  InputTokensDetails{CachedTokens: u.PromptTokensDetails.CachedTokens},
		OutputTokens:        u.CompletionTokens,
		OutputTokensDetails: OutputTokensDetails{ReasoningTokens: u.CompletionTokensDetails.ReasoningTokens},
		TotalTokens:         total,
	}
}

// ResponseObject is the response object (object "response") as GET
// /v1/responses/{id} and the non-streamed POST return it, and as the
// terminal stream event carries it. Nullable fields are pointers; created_at
// and completed_at are integers, as go-openai requires. There is no
// output_text field: the real API does not send one. The fields follow the
// order of real 2026 bodies, which also carry access_programs (required by
// openai-go v3.98), billing, frequency_penalty, presence_penalty and
// moderation.
type ResponseObject struct {
	ID                   string             `json:"id"`
	Object               string             `json:"object"`
	CreatedAt            int64              `json:"created_at"`
	Status               string             `json:"status"`
	AccessPrograms       accessPrograms     `json:"access_programs"`
	Background           bool               `json:"background"`
	Billing              billing            `json:"billing"`
	CompletedAt          *int64             `json:"completed_at"`
	Conversation         *ConversationRef   `json:"conversation"`
	Error                *ResponseError     `json:"error"`
	FrequencyPenalty     float64            `json:"frequency_penalty"`
	IncompleteDetails    *IncompleteDetails `json:"incomplete_details"`
	Instructions         *string            `json:"instructions"`
	MaxOutputTokens      *int64             `json:"max_output_tokens"`
	MaxToolCalls         *int64             `json:"max_tool_calls"`
	Model                string             `json:"model"`
	Moderation           *struct{}          `json:"moderation"`
	Output               []Item             `json:"output"`
	ParallelToolCalls    bool               `json:"parallel_tool_calls"`
	PresencePenalty      float64            `json:"presence_penalty"`
	PreviousResponseID   *string            `json:"previous_response_id"`
	PromptCacheKey       *string            `json:"prompt_cache_key"`
	PromptCacheRetention *string            `json:"prompt_cache_retention"`
	Reasoning            responsesReasoning `json:"reasoning"`
	SafetyIdentifier     *string            `json:"safety_identifier"`
	ServiceTier          string             `json:"service_tier"`
	Store                bool               `json:"store"`
	Temperature          float64            `json:"temperature"`
	Text                 textSetting        `json:"text"`
	ToolChoice           json.RawMessage    `json:"tool_choice"`
	Tools                []json.RawMessage  `json:"tools"`
	TopLogprobs          int64              `json:"top_logprobs"`
	TopP                 float64            `json:"top_p"`
	Truncation           string             `json:"truncation"`
	Usage                *ResponsesUsage    `json:"usage"`
	User                 *string            `json:"user"`
	Metadata             map[string]string  `json:"metadata"`
}

// accessPrograms is a response's access_programs: the access programs the
// response ran under. "standard" is assumed: it is the first value
// openai-go lists, the one an account outside any program gets (real
// bodies seen through a gateway show "daybreak_blue").
type accessPrograms struct {
	Cyber string `json:"cyber"`
}

// billing is a response's billing: real bodies always show the developer
// paying.
type billing struct {
	Payer string `json:"payer"`
}

type textSetting struct {
	Format    json.RawMessage `json:"format"`
	Verbosity string          `json:"verbosity"`
}

// Status is the response's final status: "failed", "incomplete" or
// "completed".
func (a *ResponseAnswer) Status() string {
	switch {
	case a.Failure != nil:
		return "failed"
	case a.incompleteReason() != "":
		return "incomplete"
	default:
		return "completed"
	}
}

func (a *ResponseAnswer) incompleteReason() string {
	switch a.FinishReason {
	case "length":
		return "max_output_tokens"
	case "content_filter":
		return "content_filter"
	}
	return ""
}

// hasMessage reports whether the output holds an assistant message: always
// unless the answer only calls tools.
func (a *ResponseAnswer) hasMessage() bool {
	return a.Text != "" || a.Refusal != "" || len(a.ToolCalls) == 0
}

// messagePart is the message's one content part: the refusal, else the text.
func (a *ResponseAnswer) messagePart() ItemPart {
	if a.Refusal != "" {
		return ItemPart{Type: "refusal", Text: a.Refusal}
	}
	return ItemPart{Type: "output_text", Text: a.Text, Logprobs: a.textLogprobs()}
}

func callArguments(c ResponseToolCall) string {
	if c.Arguments == "" {
		return "{}"
	}
	return c.Arguments
}

// OutputItems are the response's output items, as Object lists them and as
// a history keeps them for previous_response_id chains: the reasoning item
// of a reasoning model, the message (unless the answer only calls tools),
// then one function_call per tool call. A
// failed answer has none. When the response is incomplete its last item is
// marked incomplete.
func (a *ResponseAnswer) OutputItems() []Item {
	if a.Failure != nil {
		return []Item{}
	}
	out := make([]Item, 0, len(a.ToolCalls)+2)
	if a.Reasoning != nil {
		out = append(out, a.Reasoning.item(false))
	}
	if a.hasMessage() {
		out = append(out, Item{Type: "message", ID: a.MessageID, Status: "completed", Role: "assistant",
			Content: []ItemPart{a.messagePart()}})
	}
	for _, c := range a.ToolCalls {
		out = append(out, Item{Type: "function_call", ID: c.ID, Status: "completed", CallID: c.CallID,
			Name: c.Name, Arguments: callArguments(c)})
	}
	if a.Status() == "incomplete" && len(out) > 0 {
		out[len(out)-1].Status = "incomplete"
	}
	return out
}

// Object renders the answer as the response object.
func (a *ResponseAnswer) Object() *ResponseObject {
	o := a.settings()
	o.Status = a.Status()
	o.Output = a.OutputItems()
	usage := NewResponsesUsage(a.Usage)
	o.Usage = &usage
	switch o.Status {
	case "completed":
		done := a.CompletedAt
		if done == 0 {
			done = a.CreatedAt
		}
		o.CompletedAt = &done
	case "incomplete":
		o.IncompleteDetails = &IncompleteDetails{Reason: a.incompleteReason()}
	case "failed":
		f := *a.Failure
		o.Error = &f
	}
	return o
}

// snapshot is the object as response.created and response.in_progress
// carry it: in progress, no output, no usage, and service_tier as the
// request asked for it, "auto" when it did not (seen in real streams; the
// resolved tier shows only at the end; that an explicit tier shows as sent
// is inferred).
func (a *ResponseAnswer) snapshot() *ResponseObject {
	o := a.settings()
	o.Status = "in_progress"
	o.Output = []Item{}
	o.ServiceTier = a.snapshotTier()
	return o
}

// snapshotTier is the service_tier of the in-progress snapshots: the
// request's, "auto" when it named none.
func (a *ResponseAnswer) snapshotTier() string {
	switch {
	case a.Request != nil && a.Request.ServiceTier != "":
		return a.Request.ServiceTier
	case a.Request == nil && a.requestedTier != "":
		return a.requestedTier
	}
	return "auto"
}

// settings fills everything but status, output, usage and the terminal
// details: identity, and the request settings the API echoes with its
// defaults.
func (a *ResponseAnswer) settings() *ResponseObject {
	if a.echo != nil {
		o := *a.echo // the caller sets only fields of its own; shared slices are read-only
		return &o
	}
	o := &ResponseObject{
		ID: a.ID, Object: "response", CreatedAt: a.CreatedAt, Model: a.Model,
		AccessPrograms: accessPrograms{Cyber: "standard"}, Billing: billing{Payer: "developer"},
		Instructions: nullable(a.Instructions), PreviousResponseID: nullable(a.PreviousResponseID),
		ParallelToolCalls: true, ServiceTier: "default", Store: true, Temperature: 1, TopP: 1,
		Text:       textSetting{Format: json.RawMessage(`{"type":"text"}`), Verbosity: "medium"},
		ToolChoice: json.RawMessage(`"auto"`), Tools: []json.RawMessage{}, Truncation: "disabled",
		Metadata: map[string]string{},
	}
	if a.Conversation != "" {
		o.Conversation = &ConversationRef{ID: a.Conversation}
	}
	defer a.echoEffort(o) // over the request's reasoning, which the rest echoes
	r := a.Request
	if r == nil {
		return o
	}
	o.Background = r.Background
	o.MaxOutputTokens = r.MaxOutputTokens
	o.MaxToolCalls = r.MaxToolCalls
	if r.ParallelToolCalls != nil {
		o.ParallelToolCalls = *r.ParallelToolCalls
	}
	o.PromptCacheKey = nullable(r.PromptCacheKey)
	o.PromptCacheRetention = nullable(r.PromptCacheRetention)
	o.Reasoning = r.reasoning
	o.SafetyIdentifier = nullable(r.SafetyIdentifier)
	switch r.ServiceTier {
	case "", "auto":
	case "fast":
		o.ServiceTier = "priority" // the API reports fast mode as priority
	default:
		o.ServiceTier = r.ServiceTier
	}
	o.Store = r.Stores()
	if r.Temperature != nil {
		o.Temperature = *r.Temperature
	}
	if r.TopP != nil {
		o.TopP = *r.TopP
	}
	if r.TopLogprobs != nil {
		o.TopLogprobs = *r.TopLogprobs
	}
	if r.Truncation != "" {
		o.Truncation = r.Truncation
	}
	o.User = nullable(r.User)
	if r.Metadata != nil {
		o.Metadata = maps.Clone(r.Metadata)
	}
	if present(r.ToolChoice) {
		o.ToolChoice = compactJSON(r.ToolChoice)
	}
	if r.verbosity != "" {
		o.Text.Verbosity = r.verbosity
	}
	if f := r.textFormat(); f != nil {
		o.Text.Format = f
	}
	for _, t := range r.tools {
		o.Tools = append(o.Tools, t.echo())
	}
	return o
}

// textFormat is text.format as sent, or nil.
func (r *ResponsesRequest) textFormat() json.RawMessage {
	if !present(r.Text) {
		return nil
	}
	var t struct {
		Format json.RawMessage `json:"format"`
	}
	if json.Unmarshal(r.Text, &t) != nil || !present(t.Format) {
		return nil
	}
	return compactJSON(t.Format)
}

// echo renders a tool as the response lists it: a function tool with every
// field present (strict defaults to true on the Responses API), any other
// tool as sent.
func (t responsesTool) echo() json.RawMessage {
	if t.Type != "function" {
		return compactJSON(t.Raw)
	}
	strict := true
	if t.Strict != nil {
		strict = *t.Strict
	}
	params := t.Parameters
	if params == nil {
		params = json.RawMessage("null")
	}
	b, _ := plainjson.Marshal(struct { // strings, a bool and valid JSON always encode
		Type        string          `json:"type"`
		Description *string         `json:"description"`
		Name        string          `json:"name"`
		Parameters  json.RawMessage `json:"parameters"`
		Strict      bool            `json:"strict"`
	}{"function", t.Description, t.Name, params, strict})
	return b
}

func compactJSON(raw json.RawMessage) json.RawMessage {
	var b bytes.Buffer
	if json.Compact(&b, raw) != nil {
		return raw
	}
	return b.Bytes()
}
