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

// responsesTurn is one POST /v1/responses (or, counting, one POST
// /v1/responses/input_tokens) on the core's pipeline (see answer.Turn). A
// previous_response_id rebuilds the conversation from the session's
// history, so its identity and turns follow the chain: from the kept
// responses of the chain, and, when older ones were evicted, from the
// summary the oldest kept one holds of them. The answer is stored unless
// the request says store:false.
type responsesTurn struct {
	x     *provider.Exchange
	req   *ResponsesRequest
	norm  *scenario.Request
	newID func(prefix string) string
	// chain is the previous_response_id chain the request continues, conv
	// the conversation it names (nil for none), input its own items.
	chain continued
	conv  *StoredConversation
	input []Item
	// segments and head are the prompt as Prompt cut it, which the stored
	// response's summary of the chain is made from.
	segments []runtime.PromptSegment
	head     int
	// itemIDs are the IDs of the answer's function_call items, drawn as
	// its tool calls get theirs; answer is the rendered answer.
	itemIDs []string
	answer  *ResponseAnswer
	// tokensPerChunk is the stream setting the answer was rendered with,
	// which a stored response replays its stream with.
	tokensPerChunk int
	// For a background response (see responses_background.go): held is
	// the reservation of its reply, plan its job's plan, and stuck says
	// that its stream breaks off by a scripted fault, which leaves it
	// stuck rather than delivered.
	held  *runtime.Reservation
	plan  runtime.JobPlan
	stuck bool
}

var (
	_ answer.Turn         = (*responsesTurn)(nil)
	_ answer.ModelRefuser = (*responsesTurn)(nil)
	_ answer.Holder       = (*responsesTurn)(nil)
	_ answer.Settler      = (*responsesTurn)(nil)
)

// decodeResponses is the answer.Decoder of POST /v1/responses.
func decodeResponses(x *provider.Exchange, body []byte) (answer.Turn, *apierr.Error) {
	return decodeResponsesTurn(x, body, func(prefix string) string { return x.Runtime.NewHexID(prefix, idLength) })
}

// decodeInputTokens is the answer.Decoder of POST
// /v1/responses/input_tokens. Counting assigns no item IDs: the count must
// not consume the session's ID sequence, which seeded sessions replay.
func decodeInputTokens(x *provider.Exchange, body []byte) (answer.Turn, *apierr.Error) {
	return decodeResponsesTurn(x, body, nil)
}

// decodeResponsesTurn checks the parameters and the body as the API does,
// then resolves what the request continues (its chain, its conversation,
// its item references): a refusal past the body's own checks keeps the
// model and the stream flag for the journal.
func decodeResponsesTurn(x *provider.Exchange, body []byte, newID func(string) string) (answer.Turn, *apierr.Error) {
	if err := refuseParams(x, body, CheckMovedParams, CheckResponsesParams); err != nil {
		return nil, err
	}
	req, err := DecodeResponsesRequest(body)
	if err != nil {
		return nil, err
	}
	t := &responsesTurn{x: x, req: req, newID: newID}
	t.chain, t.conv, t.input, t.norm, err = prepareResponses(x, req, newID)
	if err == nil {
		err = t.conv.fits(x.Runtime, t.input)
	}
	if err != nil {
		t.norm = &scenario.Request{Model: req.Model, Stream: req.Stream}
		return t, err
	}
	if c := &t.chain; c.base != nil {
		x.Earlier = runtime.Earlier{Messages: c.base.Messages - c.standIn, UserTurns: c.base.UserTurns}
	}
	// A background response's reply is its job's: its delay and a
	// FailJob error are the job's, not the create's.
	x.Deferred = t.inBackground() && newID != nil
	return t, nil
}

// Request implements answer.Turn.
func (t *responsesTurn) Request() *scenario.Request { return t.norm }

// Ignored implements answer.Turn.
func (t *responsesTurn) Ignored() []string { return nil }

// ModelNotFound implements answer.ModelRefuser: the Responses API words an
// unknown model its own way.
func (t *responsesTurn) ModelNotFound(model string, served []string, allowList bool) *apierr.Error {
	return ResponsesModelNotFound(model, served, allowList)
}

// Rules refuses a model that is no chat model, as the real API does (on
// input_tokens too, inferred).
func (t *responsesTurn) Rules() *apierr.Error {
	if err := notAChatModel(t.x, t.norm.Model); err != nil {
		return err
	}
	// A background response needs room for its job, checked before any
	// reply is taken; a count (no IDs drawn) starts none.
	if t.req.Background && t.newID != nil && !t.x.Runtime.HasJobRoom(responseJobKind, responseJobBytes) {
		return apierr.JobsFull("background responses", "jobs.capacity and jobs.max_bytes")
	}
	return nil
}

// Hold implements answer.Holder: a background response gives its reply
// back if it is cancelled before it has run.
func (t *responsesTurn) Hold(r *runtime.Reservation) {
	if t.req.Background {
		t.held = r
	}
}

// Settle implements answer.Settler: a background stream that a scripted
// fault breaks off is stored, stuck, however its request ends.
func (t *responsesTurn) Settle() {
	if !t.stuck || t.answer == nil {
		return
	}
	t.store(nil)()
	events := 0
	if f := t.x.Fault; f != nil {
		events = f.AfterEvents
	}
	t.startJob(stuckPlan(events))
}

// Prompt implements answer.Turn.
func (t *responsesTurn) Prompt(ctx context.Context) (answer.Prompt, error) {
	var err error
	t.segments, t.head, err = t.chain.promptSegments(ctx, t.norm)
	p := chatPrompt(t.norm, t.segments)
	p.Overhead += compactionOverhead(t.chain.prior, t.input)
	return p, err
}

// TooLong implements answer.Turn.
func (t *responsesTurn) TooLong(int) *apierr.Error { return InputExceedsContextWindow() }

// Spec draws the response's and its message's IDs, then, as each tool call
// gets its call ID, the ID of its function_call item, so that a session's
// IDs follow one another as they always did.
func (t *responsesTurn) Spec(*scenario.Reply) answer.Spec {
	id := t.newID("resp_")
	t.answer = &ResponseAnswer{ID: id, MessageID: t.newID("msg_")}
	return answer.Spec{
		ID:             id,
		ToolCallPrefix: "call_", ToolCallIDLength: 24,
		AfterToolCall: func() { t.itemIDs = append(t.itemIDs, t.newID(FunctionCallItemPrefix)) },
		Reasoning:     reasoningRule(t.req.Model, t.req.effort()),
	}
}

// Render renders a as the response object, or its event stream.
func (t *responsesTurn) Render(a *provider.Answer, reply *scenario.Reply, s answer.Stream) answer.Rendered {
	req := t.req
	a.Model = answeredModel(t.norm.Model, reply.Model)
	now := a.Created.Unix()
	ra := t.answer
	*ra = ResponseAnswer{
		ID: a.ID, CreatedAt: now, CompletedAt: now, Model: a.Model,
		Instructions: req.Instructions, PreviousResponseID: req.PreviousResponseID, Conversation: req.ConversationID(),
		MessageID: ra.MessageID, Text: a.Text, Refusal: a.Refusal, Request: req,
		Usage:     usageOf(a.Usage),
		Reasoning: newResponseReasoning(req, req.Model, a.Thinking, t.newID), Effort: responseEffort(req, req.Model),
		NoObfuscation: req.noObfuscation(),
	}
	if ra.Logprobs = responseLogprobs(req); ra.Logprobs != nil {
		ra.LogprobTokens = logprobTokens(ra.Text, s.Split)
	}
	if reply.FinishReason != "" || a.Finish == scenario.FinishLength {
		ra.FinishReason = finishReason(a.Finish)
	}
	for i, c := range a.ToolCalls {
		ra.ToolCalls = append(ra.ToolCalls, ResponseToolCall{ID: t.itemIDs[i],
			CallID: c.ID, Name: c.Name, Arguments: c.Arguments})
	}
	t.tokensPerChunk = s.TokensPerChunk
	if req.Background {
		t.plan = runtime.PlanOf(reply.Job)
		if f := t.x.Fault; req.Stream && f != nil && f.Kind != scenario.FaultHang {
			t.stuck = true
		}
	}
	if t.inBackground() {
		ra.Failure = jobFailure(reply)
		queued := string(runtime.JobQueued)
		return answer.Rendered{JSON: ra.pending(queued), Job: ra.ID, JobState: queued}
	}
	if !req.Stream {
		return answer.Rendered{JSON: ra.Object()}
	}
	return answer.Rendered{SSE: NewResponsesStreamUntil(t.x.Ctx.Done(), ra, s.Split, s.TokensPerChunk)}
}

// Delivered stores the response unless the request says store:false, as
// failed when the stream fails part-way (the API keeps failed responses),
// and, when the request names a conversation and the response did not
// fail, appends its input and output items to it: store:false or not (the
// API documents no exception; inferred).
func (t *responsesTurn) Delivered(failure *apierr.Error) func() {
	var store, join func()
	if t.req.Stores() {
		store = t.store(failure)
		if t.inBackground() {
			stored := store
			store = func() { stored(); t.startJob(t.plan) }
		}
	}
	if t.conv != nil && failure == nil {
		output := t.answer.OutputItems()
		join = func() { appendTurn(t.x.Runtime, t.conv.ID, t.input, output) }
	}
	return thenDeliver(store, join)
}

// store returns what keeps the answer in the history, as failed with
// failure when the stream failed part-way.
func (t *responsesTurn) store(failure *apierr.Error) func() {
	kept := t.answer
	if failure != nil {
		failed := *kept
		failed.Failure = &ResponseError{Code: failure.JournalCode(), Message: failure.Message}
		kept = &failed
	}
	stored := &StoredResponse{ID: kept.ID, Previous: t.req.PreviousResponseID, Model: t.req.Model,
		Conversation: t.norm.Conversation, Input: CloneItems(t.input), Answer: kept.Detach(),
		TokensPerChunk: t.tokensPerChunk}
	if len(t.chain.chain) > 0 {
		stored.Before = t.chain.summarize(t.req.Model, t.norm, t.segments, t.head)
	}
	return func() { t.x.Runtime.Store(stored) }
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
	case sub == "cancel" && x.Request.Method == http.MethodPost:
		return cancelResponse(x, id)
	case sub == "cancel":
		return provider.Response{Err: apierr.MethodNotAllowed(x.Request.Method, x.Request.URL.Path, http.MethodPost)}
	case sub != "":
		return provider.Response{Err: apierr.RouteNotFound(x.Request.Method, x.Request.URL.Path, "")}
	case x.Request.Method == http.MethodGet:
		stored, ok := lookup[*StoredResponse](x.Runtime, id)
		if !ok {
			return provider.Response{Err: ResponseNotFound(id)}
		}
		if !wantsStream(x.Request) {
			if o, ok := backgroundObject(x, stored); ok {
				return provider.Response{JSON: o, Job: id, JobState: o.Status}
			}
			return provider.Response{JSON: stored.Answer.Object()}
		}
		// A stream of a background response still running comes once it
		// has run, on the session's clock, as the real one streams it as
		// it is generated.
		if err := x.Runtime.Wait(x.Ctx, untilEnded(x, id)); err != nil {
			return provider.Response{Err: httpx.ClientGone()}
		}
		split := tokens.Splitter(x.Ctx, stored.Model)
		a := stored.Answer
		if x.Request.URL.Query().Get("include_obfuscation") == "false" {
			plain := *a
			plain.NoObfuscation = true
			a = &plain
		}
		return replay(a.StreamUntil(x.Ctx.Done(), split, stored.TokensPerChunk), x.Request.URL.Query().Get("starting_after"))
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
