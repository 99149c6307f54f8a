package openai

import (
	"encoding/json"
	"net/http"
	"strings"

	"github.com/llmtestserver/llmtestserver/internal/plainjson"
	"github.com/llmtestserver/llmtestserver/internal/provider"
)

// Item is one conversation item of the Responses API in normalized form:
// what a request's input holds, what a response outputs, and what
// GET /v1/responses/{id}/input_items lists. It encodes as the API lists
// items:
//
//   - message: {"type":"message","id","status","role","content":[parts]}
//   - function_call: {"type","id","status","call_id","name","arguments"}
//   - function_call_output: {"type","id","status","call_id","output"}, the
//     output a string or, when sent as parts, the parts
//   - item_reference: {"type","id"}
//
// Other item types (reasoning, hosted tool calls…) keep the JSON they were
// sent as in Raw and encode as that; the reasoning items the server outputs
// carry their rendered JSON there too (see ResponseReasoning). An empty
// Status encodes as "completed".
type Item struct {
	Type   string
	ID     string
	Status string
	// Role and Content are a message's.
	Role    string
	Content []ItemPart
	// CallID is a function_call's or function_call_output's call_id;
	// Name and Arguments are a function_call's (Name also a
	// function_call_output's that names its tool).
	CallID    string
	Name      string
	Arguments string
	// Namespace is the namespace of a function_call's tool, or of the tool
	// a function_call_output names instead of a call_id.
	Namespace string
	// Output is a function_call_output's output text: the string sent, or
	// the text of its parts joined by newlines. OutputParts holds the parts
	// when output was sent as an array.
	Output      string
	OutputParts []ItemPart
	// Raw is the item as sent, for item types not modelled here.
	Raw json.RawMessage
}

// ItemPart is one content part of a message or of a function_call_output.
// Text holds the text of input_text and output_text parts and the refusal
// text of refusal parts. Part types not modelled here keep their JSON in
// Raw.
type ItemPart struct {
	Type     string
	Text     string
	ImageURL string
	FileID   string
	Detail   string
	Filename string
	FileData string
	FileURL  string
	Raw      json.RawMessage
	// Logprobs is an output_text part's logprobs array; nil renders [].
	Logprobs json.RawMessage
}

// Text is the text of a message's input_text and output_text parts (or a
// refusal's text when it has nothing else), joined by newlines.
func (it *Item) Text() string { return joinText(it.Content) }

func joinText(parts []ItemPart) string {
	var texts, refusals []string
	for _, p := range parts {
		switch p.Type {
		case "input_text", "output_text":
			texts = append(texts, p.Text)
		case "refusal":
			refusals = append(refusals, p.Text)
		}
	}
	if len(texts) == 0 {
		return strings.Join(refusals, "\n")
	}
	return strings.Join(texts, "\n")
}

func (it *Item) status() string {
	if it.Status == "" {
		return "completed"
	}
	return it.Status
}

// MarshalJSON encodes the item as the API lists it.
func (it Item) MarshalJSON() ([]byte, error) {
	switch it.Type {
	case "message":
		content := it.Content
		if content == nil {
			content = []ItemPart{}
		}
		return plainjson.Marshal(struct {
			Type    string     `json:"type"`
			ID      string     `json:"id"`
			Status  string     `json:"status"`
			Role    string     `json:"role"`
			Content []ItemPart `json:"content"`
		}{it.Type, it.ID, it.status(), it.Role, content})
	case "function_call":
		return plainjson.Marshal(struct {
			Type      string `json:"type"`
			ID        string `json:"id"`
			Status    string `json:"status"`
			CallID    string `json:"call_id"`
			Name      string `json:"name"`
			Arguments string `json:"arguments"`
		}{it.Type, it.ID, it.status(), it.CallID, it.Name, it.Arguments})
	case "function_call_output":
		var output any = it.Output
		if it.OutputParts != nil {
			output = it.OutputParts
		}
		return plainjson.Marshal(struct {
			Type   string `json:"type"`
			ID     string `json:"id"`
			Status string `json:"status"`
			CallID string `json:"call_id"`
			Output any    `json:"output"`
		}{it.Type, it.ID, it.status(), it.CallID, output})
	}
	if len(it.Raw) > 0 {
		return it.Raw, nil
	}
	return plainjson.Marshal(struct {
		Type string `json:"type"`
		ID   string `json:"id"`
	}{it.Type, it.ID})
}

// MarshalJSON encodes the part in the API's shape for its type.
func (p ItemPart) MarshalJSON() ([]byte, error) {
	switch p.Type {
	case "input_text":
		return plainjson.Marshal(struct {
			Type string `json:"type"`
			Text string `json:"text"`
		}{p.Type, p.Text})
	case "output_text":
		logprobs := p.Logprobs
		if logprobs == nil {
			logprobs = json.RawMessage("[]")
		}
		return plainjson.Marshal(struct {
			Type        string          `json:"type"`
			Annotations []struct{}      `json:"annotations"`
			Logprobs    json.RawMessage `json:"logprobs"`
			Text        string          `json:"text"`
		}{p.Type, []struct{}{}, logprobs, p.Text})
	case "refusal":
		return plainjson.Marshal(struct {
			Type    string `json:"type"`
			Refusal string `json:"refusal"`
		}{p.Type, p.Text})
	case "input_image":
		detail := p.Detail
		if detail == "" {
			detail = "auto"
		}
		return plainjson.Marshal(struct {
			Type     string  `json:"type"`
			Detail   string  `json:"detail"`
			FileID   *string `json:"file_id"`
			ImageURL *string `json:"image_url"`
		}{p.Type, detail, nullable(p.FileID), nullable(p.ImageURL)})
	case "input_file":
		return plainjson.Marshal(struct {
			Type     string `json:"type"`
			FileID   string `json:"file_id,omitempty"`
			Filename string `json:"filename,omitempty"`
			FileData string `json:"file_data,omitempty"`
			FileURL  string `json:"file_url,omitempty"`
		}{p.Type, p.FileID, p.Filename, p.FileData, p.FileURL})
	}
	if len(p.Raw) > 0 {
		return p.Raw, nil
	}
	return plainjson.Marshal(struct {
		Type string `json:"type"`
	}{p.Type})
}

// ItemList is the body of GET /v1/responses/{id}/input_items: openai-go's
// CursorPage, with first_id and last_id null on an empty page and has_more
// always present, so that the auto-pager stops.
type ItemList struct {
	Object  string  `json:"object"`
	Data    []Item  `json:"data"`
	FirstID *string `json:"first_id"`
	LastID  *string `json:"last_id"`
	HasMore bool    `json:"has_more"`
}

// NewItemList wraps one page of items in the list envelope.
func NewItemList(page []Item, hasMore bool) *ItemList {
	l := &ItemList{Object: "list", Data: page, HasMore: hasMore}
	if l.Data == nil {
		l.Data = []Item{}
	}
	if len(page) > 0 {
		l.FirstID, l.LastID = nullable(page[0].ID), nullable(page[len(page)-1].ID)
	}
	return l
}

// ResponseDeleted is the body of DELETE /v1/responses/{id}. go-openai
// decodes it and fails on an empty body; openai-go discards it.
type ResponseDeleted struct {
	ID      string `json:"id"`
	Object  string `json:"object"`
	Deleted bool   `json:"deleted"`
}

// NewResponseDeleted is the deletion body for response id.
func NewResponseDeleted(id string) *ResponseDeleted {
	return &ResponseDeleted{ID: id, Object: "response", Deleted: true}
}

// itemPage answers a list request for items (input_items, a
// conversation's items): the page its query asks for, newest first by
// default, in the item list envelope. afterMissing words an after that
// names no item (see pageOf).
func itemPage(r *http.Request, items []Item, afterMissing string) provider.Response {
	p, err := readPageQuery(r, true)
	if err != nil {
		return provider.Response{Err: err}
	}
	page, more, err := pageOf(items, func(it *Item) string { return it.ID }, p, afterMissing)
	if err != nil {
		return provider.Response{Err: err}
	}
	return provider.Response{JSON: NewItemList(page, more)}
}
