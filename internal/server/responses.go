package server

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"slices"
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
// the chain: from the kept responses of the chain, and, when older ones were
// evicted, from the summary the oldest kept one holds of them. The answer is
// stored unless the request says store:false.
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
	var c continued
	if req.PreviousResponseID != "" {
		var ok bool
		if c, ok = continueChain(x.rt, req.PreviousResponseID); !ok {
			return response{err: openai.PreviousResponseNotFound(req.PreviousResponseID)}
		}
	}
	newID := func(prefix string) string { return x.rt.NewID(prefix, idLength) }
	input := req.InputItems(newID)
	items := append(slices.Clip(c.prior), input...)
	if err := openai.ValidateToolOutputs(items); err != nil {
		return response{err: err}
	}
	norm := openai.NormalizeResponses(req.Model, req.Instructions, items, req)
	if len(c.chain) > 0 {
		// The chain's identity is explicit: every link shares its root's.
		norm.Conversation = c.chain[len(c.chain)-1].Conversation
	}
	if c.base != nil {
		x.earlier = runtime.Earlier{Messages: c.base.Messages - c.standIn, UserTurns: c.base.UserTurns}
	}
	res, reply, refused := x.answer(norm)
	if refused != nil {
		return *refused
	}
	segments, head, cerr := c.promptSegments(x.ctx, norm)
	if cerr != nil {
		// The client left, or the session went, while the prompt was
		// counted: nothing is answered and the prompt cache is untouched.
		res.Rollback()
		return response{err: clientGone()}
	}
	answer := h.responseAnswer(x, req, norm, &reply, newID, segments)
	if reply.Error != nil {
		// A failure inside the stream: response.failed after the 200.
		e := scriptedError(reply.Error)
		x.entry.ErrorCode = e.JournalCode()
		answer.Failure = &openai.ResponseError{Code: e.JournalCode(), Message: e.Message}
	}
	pacing := x.rt.Settings().Stream
	out := response{reservation: res}
	if req.Stores() {
		stored := &runtime.StoredResponse{ID: answer.ID, Previous: req.PreviousResponseID, Model: req.Model,
			Conversation: norm.Conversation, Input: openai.CloneItems(input), Answer: answer.Detach(),
			TokensPerChunk: pacing.TokensPerChunk}
		if len(c.chain) > 0 {
			stored.Before = c.summarize(req.Model, norm, segments, head)
		}
		out.delivered = func() { x.rt.StoreResponse(stored) }
	}
	if !req.Stream {
		out.json = answer.Object()
		return out
	}
	out.sse = answer.Stream(func(s string) []string { return tokens.Split(req.Model, s) }, pacing.TokensPerChunk)
	out.pacing = pacing
	return out
}

// responseAnswer renders reply as a Responses API answer to req, whose
// prompt is segments.
func (h *handler) responseAnswer(x *exchange, req *openai.ResponsesRequest, norm *scenario.Request,
	reply *scenario.Reply, newID func(string) string, segments []runtime.PromptSegment) *openai.ResponseAnswer {
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
	a.Usage = usageOf(x.rt, norm, reply, segments, completionTokens(x.ctx, req.Model, a.Text, a.Refusal, reply.ToolCalls))
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
			return response{json: stored.Answer.Object()}
		}
		split := func(s string) []string { return tokens.Split(stored.Model, s) }
		return replay(stored.Answer.Stream(split, stored.TokensPerChunk), x.r.URL.Query().Get("starting_after"))
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

// continued is what a request that continues a previous_response_id chain
// starts from.
type continued struct {
	// chain are the kept responses of the chain, oldest first.
	chain []*runtime.StoredResponse
	// base, when the oldest kept response continued one no longer kept,
	// summarizes the turns before it; standIn is the number of messages
	// its stand-in items normalize to (0 or 1).
	base    *runtime.Summary
	standIn int
	// prior are the conversation's items before the new input: the
	// stand-in items, then each kept response's input and output items.
	prior []openai.Item
}

// continueChain rebuilds the conversation that the kept response id ends,
// and false if id is not kept.
func continueChain(rt *runtime.Runtime, id string) (continued, bool) {
	chain, ok := rt.Chain(id)
	if !ok {
		return continued{}, false
	}
	c := continued{chain: chain}
	if chain[0].Previous != "" {
		c.base = &chain[0].Before
		c.prior = c.base.StandIn()
		c.standIn = len(openai.NormalizeResponses("", "", c.prior, nil).Messages)
	}
	for _, r := range chain {
		c.prior = append(append(c.prior, r.Input...), r.Output()...)
	}
	return c, true
}

// promptSegments cuts norm's prompt as usage does, with the message the
// stand-in items made replaced by a segment that resumes the summary's
// prefix and counts its tokens. head is the number of segments before the
// messages (tools and system text).
func (c *continued) promptSegments(ctx context.Context, norm *scenario.Request) (segments []runtime.PromptSegment, head int, err error) {
	if segments, err = promptSegments(ctx, norm); err != nil {
		return nil, 0, err
	}
	head = len(segments) - len(norm.Messages)
	if c.base == nil {
		return segments, head, nil
	}
	out := make([]runtime.PromptSegment, 0, len(segments)+1-c.standIn)
	out = append(out, segments[:head]...)
	out = append(out, runtime.PromptSegment{Tokens: c.base.PromptTokens, Resume: &c.base.Cache})
	return append(out, segments[head+c.standIn:]...), head, nil
}

// summarize returns the summary a response to norm keeps of the turns
// before its input: those of the chain it continues. segments and head are
// norm's prompt as promptSegments cut it.
func (c *continued) summarize(model string, norm *scenario.Request, segments []runtime.PromptSegment, head int) runtime.Summary {
	var s runtime.Summary
	prior := openai.NormalizeResponses(model, "", c.prior, nil)
	own := len(prior.Messages) - c.standIn // messages of the kept chain
	start := head                          // their first segment
	if c.base != nil {
		s.Messages, s.UserTurns, s.PromptTokens = c.base.Messages, c.base.UserTurns, c.base.PromptTokens
		start++
	}
	s.Messages += own
	for _, m := range norm.Messages[c.standIn : c.standIn+own] {
		if m.Role == "user" {
			s.UserTurns++
		}
	}
	for _, seg := range segments[start : start+own] {
		s.PromptTokens += seg.Tokens
	}
	states := runtime.PrefixStates(segments)
	if head > 0 {
		s.Cache.After = states[head-1]
	}
	s.Cache.State = s.Cache.After
	if end := start + own; end > 0 {
		s.Cache.State = states[end-1]
	}
	s.SetSystem(prior.System)
	var pending []openai.Item
	for _, it := range c.chain[len(c.chain)-1].Output() {
		if it.Type == "function_call" {
			pending = append(pending, it)
		}
	}
	s.Pending = openai.CloneItems(pending)
	return s
}
