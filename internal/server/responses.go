package server

import (
	"encoding/json"
	"io"
	"net/http"
	"strconv"
	"strings"

	"github.com/llmtestserver/llmtestserver/internal/openai"
	"github.com/llmtestserver/llmtestserver/internal/runtime"
	"github.com/llmtestserver/llmtestserver/internal/tokens"
	"github.com/llmtestserver/llmtestserver/journal"
	"github.com/llmtestserver/llmtestserver/scenario"
)

// idLength is the length of the random part of generated response and item
// IDs, as the real API's.
const idLength = 48

// responses serves POST /v1/responses. A previous_response_id rebuilds the
// conversation from the session's history, so its identity and turns follow
// the chain; the answer is stored unless the request says store:false.
func (h *handler) responses(x *exchange) response {
	body, err := readBody(x.r, h.opts.MaxRequestBytes)
	if err != nil {
		return response{err: err}
	}
	req, err := openai.DecodeResponsesRequest(body)
	if err != nil {
		return response{err: err}
	}
	x.entry.Model, x.entry.Stream = req.Model, req.Stream
	var prior []openai.Item
	var chain []*runtime.StoredResponse
	if req.PreviousResponseID != "" {
		var ok bool
		if chain, ok = x.rt.Chain(req.PreviousResponseID); !ok {
			return response{err: openai.PreviousResponseNotFound(req.PreviousResponseID)}
		}
		for _, r := range chain {
			prior = append(append(prior, r.Input...), r.Output...)
		}
	}
	newID := func(prefix string) string { return x.rt.NewID(prefix, idLength) }
	input := req.InputItems(newID)
	items := append(prior, input...)
	if err := openai.ValidateToolOutputs(items); err != nil {
		return response{err: err}
	}
	norm := openai.NormalizeResponses(req.Model, req.Instructions, items, req)
	if len(chain) > 0 {
		// The chain's identity is explicit: every link shares its root's.
		norm.Conversation = chain[len(chain)-1].Conversation
	}
	res, reply, refused := x.answer(norm)
	if refused != nil {
		return *refused
	}
	answer := h.responseAnswer(x, req, norm, &reply, newID)
	if reply.Error != nil {
		// A failure inside the stream: response.failed after the 200.
		e := scriptedError(reply.Error)
		x.entry.ErrorCode = e.JournalCode()
		answer.Failure = &openai.ResponseError{Code: e.JournalCode(), Message: e.Message}
	}
	pacing := x.rt.Settings().Stream
	render := func() *openai.SSE {
		return answer.Stream(func(s string) []string { return tokens.Split(req.Model, s) }, pacing.TokensPerChunk)
	}
	out := response{reservation: res}
	if req.Stores() {
		stored := &runtime.StoredResponse{ID: answer.ID, Previous: req.PreviousResponseID,
			Conversation: norm.Conversation, Input: input, Output: answer.OutputItems(), Object: answer.Object(),
			Stream: render}
		out.delivered = func() { x.rt.StoreResponse(stored, chain) }
	}
	if !req.Stream {
		out.json = answer.Object()
		return out
	}
	out.sse, out.pacing = render(), pacing
	return out
}

// responseAnswer renders reply as a Responses API answer to req.
func (h *handler) responseAnswer(x *exchange, req *openai.ResponsesRequest, norm *scenario.Request,
	reply *scenario.Reply, newID func(string) string) *openai.ResponseAnswer {
	model := req.Model
	if reply.Model != "" {
		model = reply.Model
	}
	now := x.rt.Now().Unix()
	a := &openai.ResponseAnswer{
		ID: newID("resp_"), CreatedAt: now, CompletedAt: now, Model: model,
		Instructions: req.Instructions, PreviousResponseID: req.PreviousResponseID, Conversation: req.ConversationID(),
		MessageID: newID("msg_"), Text: reply.Text, Refusal: reply.Refusal, FinishReason: reply.FinishReason,
		Request: req,
	}
	if reply.JSON != nil {
		a.Text = string(reply.JSON)
		x.entry.SchemaErrors = checkSchema(norm.ResponseFormat, reply.JSON)
	}
	for _, c := range reply.ToolCalls {
		if c.ID == "" {
			c.ID = x.rt.NewID("call_", 24)
		}
		a.ToolCalls = append(a.ToolCalls, openai.ResponseToolCall{ID: newID(openai.FunctionCallItemPrefix),
			CallID: c.ID, Name: c.Name, Arguments: c.Arguments})
		x.entry.ToolCalls = append(x.entry.ToolCalls, journal.ToolCall{ID: c.ID, Name: c.Name, Arguments: c.Arguments})
	}
	x.entry.ReplyText = a.Text
	if a.Refusal != "" {
		x.entry.ReplyText = a.Refusal
	}
	a.Usage = usage(x.ctx, x.rt, norm, reply, completionTokens(x.ctx, req.Model, a.Text, a.Refusal, reply.ToolCalls))
	return a
}

// responseByID serves GET and DELETE /v1/responses/{id} and
// GET /v1/responses/{id}/input_items.
func (h *handler) responseByID(x *exchange, rest string) response {
	id, sub, _ := strings.Cut(rest, "/")
	switch {
	case sub == "input_items" && x.r.Method == http.MethodGet:
		return h.inputItems(x, id)
	case sub == "input_items":
		return response{err: openai.MethodNotAllowed(x.r.Method, x.r.URL.Path, http.MethodGet)}
	case sub != "":
		return response{err: openai.RouteNotFound(x.r.Method, x.r.URL.Path, "")}
	case x.r.Method == http.MethodGet:
		stored, ok := x.rt.Response(id)
		if !ok {
			return response{err: openai.ResponseNotFound(id)}
		}
		if !wantsStream(x.r) {
			return response{json: stored.Object}
		}
		return replay(stored.Stream(), x.r.URL.Query().Get("starting_after"))
	case x.r.Method == http.MethodDelete:
		if !x.rt.DeleteResponse(id) {
			return response{err: openai.ResponseNotFound(id)}
		}
		return response{json: openai.NewResponseDeleted(id)}
	default:
		return response{err: openai.MethodNotAllowed(x.r.Method, x.r.URL.Path, "GET, DELETE")}
	}
}

// wantsStream reports whether a GET of a response asks for its event
// stream: the real API documents ?stream=true, and openai-go sends a JSON
// body {"stream":true} on the GET instead.
func wantsStream(r *http.Request) bool {
	if r.URL.Query().Get("stream") == "true" {
		return true
	}
	if r.Body == nil {
		return false
	}
	var body struct {
		Stream bool `json:"stream"`
	}
	b, err := io.ReadAll(io.LimitReader(r.Body, 4096))
	return err == nil && json.Unmarshal(b, &body) == nil && body.Stream
}

// replay answers a streamed GET of a stored response: its events after the
// sequence number startingAfter (all of them when it is empty). Sequence
// numbers count the events from 0.
func replay(sse *openai.SSE, startingAfter string) response {
	if startingAfter == "" {
		return response{sse: sse}
	}
	n, err := strconv.Atoi(startingAfter)
	if err != nil || n < 0 {
		return response{err: openai.InvalidType("starting_after", "a non-negative integer", "another value")}
	}
	if n >= len(sse.Ends)-1 {
		n = len(sse.Ends) - 2 // keep the terminal event
	}
	cut := sse.Ends[n]
	rest := &openai.SSE{Body: sse.Body[cut:]}
	for _, end := range sse.Ends[n+1:] {
		rest.Ends = append(rest.Ends, end-cut)
	}
	return response{sse: rest}
}

// inputItems lists the input items of a stored response, paged like the
// real API (after, limit, order).
func (h *handler) inputItems(x *exchange, id string) response {
	stored, ok := x.rt.Response(id)
	if !ok {
		return response{err: openai.ResponseNotFound(id)}
	}
	q := x.r.URL.Query()
	limit := 0
	if s := q.Get("limit"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil {
			return response{err: openai.InvalidType("limit", "an integer", "a string")}
		}
		limit = n
	}
	page, more, err := openai.PageItems(stored.Input, q.Get("after"), limit, q.Get("order"))
	if err != nil {
		return response{err: err}
	}
	return response{json: openai.NewItemList(page, more)}
}
