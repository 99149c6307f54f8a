package openai

import (
	"bytes"
	"encoding/json"
	"slices"
	"strings"
)

// What a kept answer or item costs beyond the bytes of its strings: the
// structs, slice headers and pointers that hold them. They are rounded-up
// sizes of the Go values on 64-bit platforms, so that Size is an upper
// bound of what a history keeps, not a heap measurement (metadataOverhead,
// one metadata entry of the echo, is shared with stored chat completions).
const (
	answerOverhead   = 1 << 10 // ResponseAnswer, its echoed ResponseObject and their pointers
	itemOverhead     = 256     // one Item
	partOverhead     = 160     // one ItemPart
	toolCallOverhead = 96      // one ResponseToolCall
)

// Detach returns a copy of a that a history can keep: the settings the
// object echoes are rendered once from a.Request, which the copy drops, and
// every string and JSON text is copied, so that the copy references neither
// the request nor its body. Object and Stream render the copy exactly as
// they render a, but for NoObfuscation, which the copy leaves false: a
// replayed stream pads its deltas unless the GET's own
// include_obfuscation says otherwise.
func (a *ResponseAnswer) Detach() *ResponseAnswer {
	d := &ResponseAnswer{
		ID: strings.Clone(a.ID), CreatedAt: a.CreatedAt, CompletedAt: a.CompletedAt, Model: strings.Clone(a.Model),
		Instructions: strings.Clone(a.Instructions), PreviousResponseID: strings.Clone(a.PreviousResponseID),
		Conversation: strings.Clone(a.Conversation), MessageID: strings.Clone(a.MessageID),
		Text: strings.Clone(a.Text), Refusal: strings.Clone(a.Refusal), FinishReason: strings.Clone(a.FinishReason),
		Usage: a.Usage, Reasoning: a.Reasoning.clone(), Effort: strings.Clone(a.Effort),
		requestedTier: strings.Clone(a.snapshotTier()),
	}
	for _, c := range a.ToolCalls {
		d.ToolCalls = append(d.ToolCalls, ResponseToolCall{ID: strings.Clone(c.ID), CallID: strings.Clone(c.CallID),
			Name: strings.Clone(c.Name), Arguments: strings.Clone(c.Arguments)})
	}
	if a.Failure != nil {
		d.Failure = &ResponseError{Code: strings.Clone(a.Failure.Code), Message: strings.Clone(a.Failure.Message)}
	}
	if a.Logprobs != nil {
		lp := *a.Logprobs
		d.Logprobs, d.LogprobTokens = &lp, slices.Clone(a.LogprobTokens)
	}
	d.echo = cloneEcho(a.settings())
	return d
}

// cloneEcho copies every string and JSON text of the settings part of o.
func cloneEcho(o *ResponseObject) *ResponseObject {
	c := *o
	c.ID, c.Model = strings.Clone(o.ID), strings.Clone(o.Model)
	c.Instructions, c.PreviousResponseID = clonePtr(o.Instructions), clonePtr(o.PreviousResponseID)
	c.PromptCacheKey, c.PromptCacheRetention = clonePtr(o.PromptCacheKey), clonePtr(o.PromptCacheRetention)
	c.SafetyIdentifier, c.User = clonePtr(o.SafetyIdentifier), clonePtr(o.User)
	c.Reasoning = responsesReasoning{Effort: clonePtr(o.Reasoning.Effort), Summary: clonePtr(o.Reasoning.Summary)}
	c.ServiceTier, c.Truncation = strings.Clone(o.ServiceTier), strings.Clone(o.Truncation)
	if o.Conversation != nil {
		c.Conversation = &ConversationRef{ID: strings.Clone(o.Conversation.ID)}
	}
	c.Text = textSetting{Format: bytes.Clone(o.Text.Format), Verbosity: strings.Clone(o.Text.Verbosity)}
	c.ToolChoice = bytes.Clone(o.ToolChoice)
	c.Tools = make([]json.RawMessage, len(o.Tools))
	for i, t := range o.Tools {
		c.Tools[i] = bytes.Clone(t)
	}
	c.Metadata = make(map[string]string, len(o.Metadata))
	for k, v := range o.Metadata {
		c.Metadata[strings.Clone(k)] = strings.Clone(v)
	}
	return &c
}

func clonePtr(s *string) *string {
	if s == nil {
		return nil
	}
	c := strings.Clone(*s)
	return &c
}

func ptrLen(s *string) int64 {
	if s == nil {
		return 0
	}
	return int64(len(*s))
}

// Size is an upper bound of the bytes a detached answer keeps: its strings,
// the echoed settings (instructions, tools, formats, metadata…) and the
// overhead of the values that hold them. Object and Stream render from
// these; what they render is not kept.
func (a *ResponseAnswer) Size() int64 {
	n := int64(answerOverhead + len(a.ID) + len(a.Model) + len(a.Instructions) + len(a.PreviousResponseID) +
		len(a.Conversation) + len(a.MessageID) + len(a.Text) + len(a.Refusal) + len(a.FinishReason) +
		len(a.Effort) + len(a.requestedTier))
	n += a.Reasoning.size()
	// Each token keeps a string header besides its bytes, which Text
	// counts once more: an upper bound, as Size must be.
	if a.Logprobs != nil {
		n += int64(len(a.LogprobTokens)*16 + len(a.Text))
	}
	for _, c := range a.ToolCalls {
		n += int64(toolCallOverhead + len(c.ID) + len(c.CallID) + len(c.Name) + len(c.Arguments))
	}
	if a.Failure != nil {
		n += int64(len(a.Failure.Code) + len(a.Failure.Message))
	}
	if o := a.echo; o != nil {
		n += int64(len(o.ID)+len(o.Model)+len(o.ServiceTier)+len(o.Truncation)+
			len(o.Text.Format)+len(o.Text.Verbosity)+len(o.ToolChoice)) +
			ptrLen(o.Instructions) + ptrLen(o.PreviousResponseID) + ptrLen(o.PromptCacheKey) +
			ptrLen(o.PromptCacheRetention) + ptrLen(o.SafetyIdentifier) + ptrLen(o.User) +
			ptrLen(o.Reasoning.Effort) + ptrLen(o.Reasoning.Summary)
		if o.Conversation != nil {
			n += int64(len(o.Conversation.ID))
		}
		for _, t := range o.Tools {
			n += int64(24 + len(t))
		}
		for k, v := range o.Metadata {
			n += int64(metadataOverhead + len(k) + len(v))
		}
	}
	return n
}

// CloneItems returns a deep copy of items: every string and JSON text is
// copied, so that the copy references nothing of the request it came from.
func CloneItems(items []Item) []Item {
	out := make([]Item, len(items))
	for i, it := range items {
		out[i] = Item{Type: strings.Clone(it.Type), ID: strings.Clone(it.ID), Status: strings.Clone(it.Status),
			Role: strings.Clone(it.Role), Content: cloneParts(it.Content), CallID: strings.Clone(it.CallID),
			Name: strings.Clone(it.Name), Arguments: strings.Clone(it.Arguments), Output: strings.Clone(it.Output),
			OutputParts: cloneParts(it.OutputParts), Raw: bytes.Clone(it.Raw)}
	}
	return out
}

func cloneParts(parts []ItemPart) []ItemPart {
	if parts == nil {
		return nil
	}
	out := make([]ItemPart, len(parts))
	for i, p := range parts {
		out[i] = ItemPart{Type: strings.Clone(p.Type), Text: strings.Clone(p.Text), ImageURL: strings.Clone(p.ImageURL),
			FileID: strings.Clone(p.FileID), Detail: strings.Clone(p.Detail), Filename: strings.Clone(p.Filename),
			FileData: strings.Clone(p.FileData), FileURL: strings.Clone(p.FileURL), Raw: bytes.Clone(p.Raw)}
	}
	return out
}

// ItemsSize is an upper bound of the bytes items keep: their strings, JSON
// texts and parts, and the overhead of the values that hold them.
func ItemsSize(items []Item) int64 {
	var n int64
	for i := range items {
		it := &items[i]
		n += int64(itemOverhead + len(it.Type) + len(it.ID) + len(it.Status) + len(it.Role) + len(it.CallID) +
			len(it.Name) + len(it.Arguments) + len(it.Output) + len(it.Raw))
		n += partsSize(it.Content) + partsSize(it.OutputParts)
	}
	return n
}

func partsSize(parts []ItemPart) int64 {
	var n int64
	for i := range parts {
		p := &parts[i]
		n += int64(partOverhead + len(p.Type) + len(p.Text) + len(p.ImageURL) + len(p.FileID) + len(p.Detail) +
			len(p.Filename) + len(p.FileData) + len(p.FileURL) + len(p.Raw))
	}
	return n
}
