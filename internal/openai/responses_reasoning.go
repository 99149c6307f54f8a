package openai

import (
	"slices"
	"strings"

	"github.com/llmtestserver/llmtestserver/internal/plainjson"
	"github.com/llmtestserver/llmtestserver/internal/provider"
)

// ResponseReasoning is the reasoning item a reasoning model's output starts
// with. Real 2026 bodies render it as
// {"id":"rs_…","type":"reasoning","content":[],"encrypted_content":"…","summary":[…]}
// with encrypted_content present only when the request's include asks for
// it, and no status.
type ResponseReasoning struct {
	// ID is the item ID, "rs_…".
	ID string
	// Summary are the texts of the summary's summary_text parts: none
	// unless the request asked for a summary (reasoning.summary) and the
	// reply scripts Thinking.
	Summary []string
	// EncryptedContent is the opaque encrypted_content, "" to leave the
	// field out.
	EncryptedContent string
}

// includeEncryptedReasoning is the include value that asks for the
// reasoning items' encrypted_content, which a client that does not store
// responses (store false) needs to pass its reasoning back.
const includeEncryptedReasoning = "reasoning.encrypted_content"

// newResponseReasoning is the reasoning item of an answer of model to req,
// and nil when the model is no reasoning model or reasons at effort
// "none", whose output has no reasoning item in real bodies. thinking is
// the reply's Thinking, as the answer kept it; newID draws the item's ID.
// encrypted_content is filled whenever include asks for it: the real API
// requires that for store false, and a 2026 body with store true that asked
// for it carried it too.
func newResponseReasoning(req *ResponsesRequest, model, thinking string, newID func(string) string) *ResponseReasoning {
	if !isReasoningModel(model) || effectiveEffort(model, req.effort()) == "none" {
		return nil
	}
	r := &ResponseReasoning{ID: newID("rs_")}
	if req.reasoning.Summary != nil && *req.reasoning.Summary != "" {
		r.Summary = summaryParts(thinking)
	}
	if slices.Contains(req.Include, includeEncryptedReasoning) {
		r.EncryptedContent = encryptedContent(r.ID, thinking)
	}
	return r
}

// effort is the reasoning effort the request names, "" when none.
func (r *ResponsesRequest) effort() string {
	if r == nil || r.reasoning.Effort == nil {
		return ""
	}
	return *r.reasoning.Effort
}

// responseEffort is what reasoning.effort of an answer of model to req
// echoes: a reasoning model's effective effort, and "" (the request's
// own, null when it sent none) for any other model.
func responseEffort(req *ResponsesRequest, model string) string {
	if !isReasoningModel(model) {
		return ""
	}
	return effectiveEffort(model, req.effort())
}

// echoEffort puts the answer's effective effort into o's reasoning.
func (a *ResponseAnswer) echoEffort(o *ResponseObject) {
	if a.Effort != "" {
		effort := a.Effort
		o.Reasoning.Effort = &effort
	}
}

// clone copies every string of r, for a history to keep.
func (r *ResponseReasoning) clone() *ResponseReasoning {
	if r == nil {
		return nil
	}
	c := &ResponseReasoning{ID: strings.Clone(r.ID), EncryptedContent: strings.Clone(r.EncryptedContent)}
	for _, s := range r.Summary {
		c.Summary = append(c.Summary, strings.Clone(s))
	}
	return c
}

// size is an upper bound of the bytes r keeps.
func (r *ResponseReasoning) size() int64 {
	if r == nil {
		return 0
	}
	n := int64(itemOverhead + len(r.ID) + len(r.EncryptedContent))
	for _, s := range r.Summary {
		n += int64(partOverhead + len(s))
	}
	return n
}

// summaryPart is one part of a reasoning summary.
type summaryPart struct {
	Type string `json:"type"`
	Text string `json:"text"`
}

// reasoningItem is the JSON of a reasoning item.
type reasoningItem struct {
	ID               string        `json:"id"`
	Type             string        `json:"type"`
	Content          []struct{}    `json:"content"`
	EncryptedContent string        `json:"encrypted_content,omitempty"`
	Summary          []summaryPart `json:"summary"`
}

// item renders r as an output item; added renders it as
// response.output_item.added carries it, before its summary: summary [].
func (r *ResponseReasoning) item(added bool) Item {
	body := reasoningItem{ID: r.ID, Type: "reasoning", Content: []struct{}{},
		EncryptedContent: r.EncryptedContent, Summary: []summaryPart{}}
	if !added {
		for _, s := range r.Summary {
			body.Summary = append(body.Summary, summaryPart{Type: "summary_text", Text: s})
		}
	}
	raw, _ := plainjson.Marshal(body) // strings and empty slices always encode
	return Item{Type: "reasoning", ID: r.ID, Raw: raw}
}

// streamReasoning renders the reasoning item at output index 0, as real
// streams do: response.output_item.added, then for each summary part
// response.reasoning_summary_part.added, its
// response.reasoning_summary_text.delta events, response.reasoning_summary_text.done
// and response.reasoning_summary_part.done, then response.output_item.done.
func (a *ResponseAnswer) streamReasoning(w *eventWriter, split func(string) []string, per int) {
	r := a.Reasoning
	w.emit("response.output_item.added", itemEvent{OutputIndex: 0, Item: r.item(true)})
	for i, text := range r.Summary {
		at := summaryAt{ItemID: r.ID, OutputIndex: 0, SummaryIndex: i}
		w.emit("response.reasoning_summary_part.added", summaryPartEvent{summaryAt: at, Part: summaryPart{Type: "summary_text"}})
		for _, p := range chunkPieces(text, split, per) {
			w.emit("response.reasoning_summary_text.delta", summaryDelta{summaryAt: at, Delta: p, Obfuscation: a.obfuscation(r.ID, w.seq, p)})
		}
		w.emit("response.reasoning_summary_text.done", summaryDone{summaryAt: at, Text: text})
		w.emit("response.reasoning_summary_part.done", summaryPartEvent{summaryAt: at, Part: summaryPart{Type: "summary_text", Text: text}})
	}
	w.emit("response.output_item.done", itemEvent{OutputIndex: 0, Item: r.item(false)})
}

// obfuscation is the padding of a delta of item itemID sent as event seq,
// "" (left out) when the request asked for none.
func (a *ResponseAnswer) obfuscation(itemID string, seq int, delta string) string {
	if a.NoObfuscation {
		return ""
	}
	return obfuscation(itemID, seq, delta)
}

type summaryAt struct {
	ItemID       string `json:"item_id"`
	OutputIndex  int    `json:"output_index"`
	SummaryIndex int    `json:"summary_index"`
}

type summaryPartEvent struct {
	summaryAt
	Part summaryPart `json:"part"`
}

type summaryDelta struct {
	summaryAt
	Delta       string `json:"delta"`
	Obfuscation string `json:"obfuscation,omitempty"`
}

type summaryDone struct {
	summaryAt
	Text string `json:"text"`
}

// responsesStreamOptions is the stream_options of a Responses request.
type responsesStreamOptions struct {
	IncludeObfuscation *bool `json:"include_obfuscation"`
}

// noObfuscation reports whether the request turns the stream's
// obfuscation padding off.
func (r *ResponsesRequest) noObfuscation() bool {
	o := r.StreamOptions
	return o != nil && o.IncludeObfuscation != nil && !*o.IncludeObfuscation
}

// decodeReasoningItem checks a reasoning item of a request's input, which a
// client that does not store responses sends back from the previous
// output (openai-go's ResponseReasoningItemParam): its summary, which the
// SDK marks required, must be an array. The item is kept as sent.
func decodeReasoningItem(o rawObject) *Error {
	summary, ok := o.members["summary"]
	switch k := provider.JSONKind(summary); {
	case !ok || k == "null":
		return MissingParameter(o.param("summary"))
	case k != "array":
		return InvalidType(o.param("summary"), "an array", describeJSONValue(k))
	}
	return nil
}
