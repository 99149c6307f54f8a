package openai

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"slices"
	"strconv"
	"strings"

	"github.com/llmtestserver/llmtestserver/internal/answer"
	"github.com/llmtestserver/llmtestserver/internal/apierr"
	"github.com/llmtestserver/llmtestserver/internal/httpx"
	"github.com/llmtestserver/llmtestserver/internal/provider"
	"github.com/llmtestserver/llmtestserver/internal/runtime"
	"github.com/llmtestserver/llmtestserver/internal/tokens"
	"github.com/llmtestserver/llmtestserver/scenario"
)

// idLength is the length of the hexadecimal part of generated response and
// item IDs ("resp_", "msg_", "fc_", "rs_"): real bodies of 2026 carry 50
// lowercase hexadecimal digits ("resp_0f23…"), those of 2025 48.
const idLength = 50

// serveResponses serves POST /v1/responses. A previous_response_id rebuilds the
// conversation from the session's history, so its identity and turns follow
// the chain: from the kept responses of the chain, and, when older ones were
// evicted, from the summary the oldest kept one holds of them. The answer is
// stored unless the request says store:false.
func serveResponses(x *provider.Exchange) provider.Response {
	body, err := readBody(x)
	if err != nil {
		return provider.Response{Err: err}
	}
	if err := refuseParams(x, body, CheckMovedParams, CheckResponsesParams); err != nil {
		return provider.Response{Err: err}
	}
	req, err := DecodeResponsesRequest(body)
	if err != nil {
		return provider.Response{Err: err}
	}
	x.Entry.Model, x.Entry.Stream = req.Model, req.Stream
	newID := func(prefix string) string { return x.Runtime.NewHexID(prefix, idLength) }
	c, conv, input, norm, err := prepareResponses(x, req, newID)
	if err == nil {
		err = conv.fits(x.Runtime, input)
	}
	if err != nil {
		return provider.Response{Err: err}
	}
	if c.base != nil {
		x.Earlier = runtime.Earlier{Messages: c.base.Messages - c.standIn, UserTurns: c.base.UserTurns}
	}
	var segments []runtime.PromptSegment
	var head int
	res, reply, refused := find(x, norm, func() *apierr.Error {
		// Counted before the reply is reserved, so that a prompt too long
		// for the model uses none, and once: the usage counts the same.
		var cerr error
		if segments, head, cerr = c.promptSegments(x.Ctx, norm); cerr != nil {
			// The client left, or the session went, while the prompt was
			// counted: nothing is answered and the prompt cache is untouched.
			return httpx.ClientGone()
		}
		prompt := chatPrompt(norm, segments, nil)
		return answer.CheckContext(x, &prompt, norm.MaxOutputTokens, contextWindow(norm.Model), func(int) *apierr.Error {
			return InputExceedsContextWindow()
		})
	})
	if refused != nil {
		return *refused
	}
	answer := responseAnswer(x, req, norm, &reply, newID, segments)
	if reply.Error != nil && reply.Error.AfterEvents == 0 {
		// A failure inside the stream: response.failed after the 200. One
		// after some events is the HTTP core's (Exchange.StreamError).
		e := Resolve(apierr.Scripted(reply.Error))
		x.Entry.ErrorCode, x.Entry.ErrorMessage = e.JournalCode(), e.Message
		answer.Failure = &ResponseError{Code: e.JournalCode(), Message: e.Message}
	}
	pacing := x.StreamSettings()
	out := provider.Response{Reservation: res}
	if req.Stores() {
		kept := answer
		if x.StreamError != nil {
			// The stream fails after some events (the HTTP core sends its
			// response.failed): the stored response is failed as well.
			e := Resolve(apierr.Scripted(x.StreamError))
			failed := *answer
			failed.Failure = &ResponseError{Code: e.JournalCode(), Message: e.Message}
			kept = &failed
		}
		stored := &StoredResponse{ID: answer.ID, Previous: req.PreviousResponseID, Model: req.Model,
			Conversation: norm.Conversation, Input: CloneItems(input), Answer: kept.Detach(),
			TokensPerChunk: pacing.TokensPerChunk}
		if len(c.chain) > 0 {
			stored.Before = c.summarize(req.Model, norm, segments, head)
		}
		out.Delivered = func() { x.Runtime.Store(stored) }
	}
	if conv != nil && answer.Failure == nil && x.StreamError == nil {
		// The turn joins the conversation once delivered, store:false or
		// not (the API documents no exception; inferred), and not when
		// the response failed.
		output := answer.OutputItems()
		out.Delivered = thenDeliver(out.Delivered, func() { appendTurn(x.Runtime, conv.ID, input, output) })
	}
	if !req.Stream {
		out.JSON = answer.Object()
		return out
	}
	out.SSE = NewResponsesStream(answer, func(s string) []string { return tokens.Split(req.Model, s) }, pacing.TokensPerChunk)
	out.Pacing = pacing
	return out
}

// prepareResponses is what a Responses request amounts to before any
// reply, for POST /v1/responses and for counting its input tokens alike:
// the previous_response_id chain it continues, the conversation it names,
// its input items (given IDs by newID, item references resolved) and its
// normalized request over the whole conversation.
func prepareResponses(x *provider.Exchange, req *ResponsesRequest, newID func(string) string) (continued, *StoredConversation, []Item, *scenario.Request, *Error) {
	var c continued
	if req.PreviousResponseID != "" {
		var ok bool
		if c, ok = continueChain(x.Runtime, req.PreviousResponseID); !ok {
			return c, nil, nil, nil, PreviousResponseNotFound(req.PreviousResponseID)
		}
	}
	conv, err := openConversation(x.Runtime, req.ConversationID())
	if err != nil {
		return c, nil, nil, nil, err
	}
	if conv != nil {
		c.prior = conv.Items
	}
	input, err := ResolveReferences(x.Runtime, req.InputItems(newID), req.Stores())
	if err == nil {
		err = resolveCallOutputs(c.prior, input)
	}
	if err != nil {
		return c, nil, nil, nil, err
	}
	items := append(slices.Clip(c.prior), input...)
	if err := checkDuplicates("input", items); err != nil {
		return c, nil, nil, nil, err
	}
	if err := ValidateToolOutputs(items); err != nil {
		return c, nil, nil, nil, err
	}
	norm := NormalizeResponses(req.Model, req.Instructions, items, req)
	if len(c.chain) > 0 {
		// The chain's identity is explicit: every link shares its root's.
		norm.Conversation = c.chain[len(c.chain)-1].Conversation
	}
	return c, conv, input, norm, nil
}

// responseAnswer renders reply as a Responses API answer to req, whose
// prompt is segments.
func responseAnswer(x *provider.Exchange, req *ResponsesRequest, norm *scenario.Request,
	reply *scenario.Reply, newID func(string) string, segments []runtime.PromptSegment) *ResponseAnswer {
	id, messageID := newID("resp_"), newID("msg_")
	var itemIDs []string
	a := answer.Build(x, norm, reply, answer.Spec{
		ID:             id,
		ToolCallPrefix: "call_", ToolCallIDLength: 24,
		AfterToolCall: func() { itemIDs = append(itemIDs, newID(FunctionCallItemPrefix)) },
		Prompt:        chatPrompt(norm, segments, nil),
		Reasoning:     reasoningRule(req.Model, req.effort()),
	})
	a.Model = answeredModel(norm.Model, reply.Model)
	now := a.Created.Unix()
	ra := &ResponseAnswer{
		ID: a.ID, CreatedAt: now, CompletedAt: now, Model: a.Model,
		Instructions: req.Instructions, PreviousResponseID: req.PreviousResponseID, Conversation: req.ConversationID(),
		MessageID: messageID, Text: a.Text, Refusal: a.Refusal, Request: req,
		Usage:     usageOf(a.Usage),
		Reasoning: newResponseReasoning(req, req.Model, a.Thinking, newID), Effort: responseEffort(req, req.Model),
		NoObfuscation: req.noObfuscation(),
	}
	if ra.Logprobs = responseLogprobs(req); ra.Logprobs != nil {
		ra.LogprobTokens = logprobTokens(ra.Text, func(s string) []string { p, _ := tokens.SplitContext(x.Ctx, req.Model, s); return p })
	}
	if reply.FinishReason != "" || a.Finish == scenario.FinishLength {
		ra.FinishReason = finishReason(a.Finish)
	}
	for i, c := range a.ToolCalls {
		ra.ToolCalls = append(ra.ToolCalls, ResponseToolCall{ID: itemIDs[i],
			CallID: c.ID, Name: c.Name, Arguments: c.Arguments})
	}
	return ra
}

// serveResponseByID serves GET and DELETE /v1/responses/{id} and
// GET /v1/responses/{id}/input_items.
func serveResponseByID(x *provider.Exchange) provider.Response {
	rest := strings.TrimPrefix(x.Request.URL.Path, "/v1/responses/")
	id, sub, _ := strings.Cut(rest, "/")
	switch {
	case sub == "input_items" && x.Request.Method == http.MethodGet:
		return inputItems(x, id)
	case sub == "input_items":
		return provider.Response{Err: apierr.MethodNotAllowed(x.Request.Method, x.Request.URL.Path, http.MethodGet)}
	case sub != "":
		return provider.Response{Err: apierr.RouteNotFound(x.Request.Method, x.Request.URL.Path, "")}
	case x.Request.Method == http.MethodGet:
		stored, ok := lookup[*StoredResponse](x.Runtime, id)
		if !ok {
			return provider.Response{Err: ResponseNotFound(id)}
		}
		if !wantsStream(x.Request) {
			return provider.Response{JSON: stored.Answer.Object()}
		}
		split := func(s string) []string { return tokens.Split(stored.Model, s) }
		a := stored.Answer
		if x.Request.URL.Query().Get("include_obfuscation") == "false" {
			plain := *a
			plain.NoObfuscation = true
			a = &plain
		}
		return replay(a.Stream(split, stored.TokensPerChunk), x.Request.URL.Query().Get("starting_after"))
	case x.Request.Method == http.MethodDelete:
		// The history keeps other records (stored chat completions): only
		// a response is deleted here.
		if _, ok := lookup[*StoredResponse](x.Runtime, id); !ok || !x.Runtime.Forget(id) {
			return provider.Response{Err: ResponseNotFound(id)}
		}
		return provider.Response{JSON: NewResponseDeleted(id)}
	default:
		return provider.Response{Err: apierr.MethodNotAllowed(x.Request.Method, x.Request.URL.Path, "GET, DELETE")}
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
func replay(sse *SSE, startingAfter string) provider.Response {
	if startingAfter == "" {
		return provider.Response{SSE: sse}
	}
	n, err := strconv.Atoi(startingAfter)
	if err != nil || n < 0 {
		return provider.Response{Err: InvalidType("starting_after", "a non-negative integer", "another value")}
	}
	if n >= len(sse.Ends)-1 {
		n = len(sse.Ends) - 2 // keep the terminal event
	}
	cut := sse.Ends[n]
	rest := &SSE{Body: sse.Body[cut:]}
	for _, end := range sse.Ends[n+1:] {
		rest.Ends = append(rest.Ends, end-cut)
	}
	return provider.Response{SSE: rest}
}

// inputItems lists the input items of a stored response, paged like the
// real API (after, limit, order).
func inputItems(x *provider.Exchange, id string) provider.Response {
	stored, ok := lookup[*StoredResponse](x.Runtime, id)
	if !ok {
		return provider.Response{Err: ResponseNotFound(id)}
	}
	return itemPage(x.Request, stored.Input, "Invalid 'after': no input item with id '%s' in this response.")
}

// continued is what a request that continues a previous_response_id chain
// starts from.
type continued struct {
	// chain are the kept responses of the chain, oldest first.
	chain []*StoredResponse
	// base, when the oldest kept response continued one no longer kept,
	// summarizes the turns before it; standIn is the number of messages
	// its stand-in items normalize to (0 or 1).
	base    *Summary
	standIn int
	// prior are the conversation's items before the new input: the
	// stand-in items, then each kept response's input and output items.
	prior []Item
}

// continueChain rebuilds the conversation that the kept response id ends,
// and false if id is not kept.
func continueChain(rt *runtime.Runtime, id string) (continued, bool) {
	links, ok := rt.Chain(id)
	if !ok {
		return continued{}, false
	}
	chain := make([]*StoredResponse, 0, len(links))
	for _, l := range links {
		if r, ok := l.(*StoredResponse); ok {
			chain = append(chain, r)
		}
	}
	if len(chain) == 0 || chain[len(chain)-1].ID != id {
		// id names another kind of record (a conversation, a stored chat
		// completion).
		return continued{}, false
	}
	c := continued{chain: chain}
	if chain[0].Previous != "" {
		c.base = &chain[0].Before
		c.prior = c.base.StandIn()
		c.standIn = len(NormalizeResponses("", "", c.prior, nil).Messages)
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
func (c *continued) summarize(model string, norm *scenario.Request, segments []runtime.PromptSegment, head int) Summary {
	var s Summary
	prior := NormalizeResponses(model, "", c.prior, nil)
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
	var pending []Item
	for _, it := range c.chain[len(c.chain)-1].Output() {
		if it.Type == "function_call" {
			pending = append(pending, it)
		}
	}
	s.Pending = CloneItems(pending)
	return s
}
