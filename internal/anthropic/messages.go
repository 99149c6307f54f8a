package anthropic

import (
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"

	"github.com/llmtestserver/llmtestserver/internal/answer"
	"github.com/llmtestserver/llmtestserver/internal/apierr"
	"github.com/llmtestserver/llmtestserver/internal/provider"
	"github.com/llmtestserver/llmtestserver/internal/runtime"
	"github.com/llmtestserver/llmtestserver/scenario"
)

// messagesTurn is one POST /v1/messages (or, counting, one POST
// /v1/messages/count_tokens) on the core's pipeline (see answer.Turn).
type messagesTurn struct {
	x    *provider.Exchange
	req  *MessagesRequest
	norm *scenario.Request
	// counting says the turn only counts its prompt: the model's rules,
	// which limit what it generates, do not apply.
	counting bool
	// claimed is the thread turn the request continues, which it holds
	// until Settle; answer is the answer it delivers (see Delivered).
	claimed string
	answer  *provider.Answer
}

var (
	_ answer.Turn          = (*messagesTurn)(nil)
	_ answer.Settler       = (*messagesTurn)(nil)
	_ answer.Generator     = (*messagesTurn)(nil)
	_ answer.CountRenderer = (*messagesTurn)(nil)
)

// decodeMessages is the answer.Decoder of POST /v1/messages.
func decodeMessages(x *provider.Exchange, body []byte) (answer.Turn, *apierr.Error) {
	opts := optionsOf(x)
	opts.ResolveThread = func(r *MessagesRequest) *apierr.Error { return resolveThread(x.Runtime, r) }
	req, err := DecodeMessagesWith(x.Ctx, body, opts)
	if err != nil {
		return nil, err
	}
	t := &messagesTurn{x: x, req: req, norm: req.Normalize()}
	if req.Continues() {
		// Claimed once the whole conversation passed its checks, so that
		// a request refused for its body holds nothing.
		if err := claimThread(x.Runtime, req.Thread.PreviousMessageID); err != nil {
			return t, err
		}
		t.claimed = req.Thread.PreviousMessageID
	}
	return t, nil
}

// decodeCountTokens is the answer.Decoder of POST
// /v1/messages/count_tokens, whose body is a message's without max_tokens.
func decodeCountTokens(x *provider.Exchange, body []byte) (answer.Turn, *apierr.Error) {
	req, err := DecodeCountTokensWith(x.Ctx, body, optionsOf(x))
	if err != nil {
		return nil, err
	}
	return &messagesTurn{x: x, req: req, norm: req.Normalize(), counting: true}, nil
}

// countTokens is the body of POST /v1/messages/count_tokens.
type countTokens struct {
	InputTokens int `json:"input_tokens"`
}

// countBody answers POST /v1/messages/count_tokens: the prompt's tokens
// exactly as /v1/messages counts them in its usage (input, cache creation
// and cache read together).
func countBody(n int) any { return countTokens{InputTokens: n} }

// betaCountTokens is the beta API's count, which also reports its
// context management (BetaMessageTokensCount).
type betaCountTokens struct {
	ContextManagement json.RawMessage `json:"context_management"`
	InputTokens       int             `json:"input_tokens"`
}

// CountBody implements answer.CountRenderer: the beta API's count carries
// context_management.
func (t *messagesTurn) CountBody(n int) any {
	if !t.req.beta {
		return countBody(n)
	}
	return betaCountTokens{ContextManagement: countContextManagement(t.req, n), InputTokens: n}
}

// Request implements answer.Turn.
func (t *messagesTurn) Request() *scenario.Request { return t.norm }

// Generates implements answer.Generator: max_tokens 0 asks the API "to
// populate the prompt cache without generating a response" (the SDK's
// MessageNewParams.MaxTokens doc).
func (t *messagesTurn) Generates() bool { return t.req.MaxTokens == nil || *t.req.MaxTokens > 0 }

// Ignored implements answer.Turn.
func (t *messagesTurn) Ignored() []string { return t.req.Unknown }

// Rules refuses a model retired on the session's clock, as the real API
// does (404, as an unknown model), and what the model's own limits
// refuse; a model outside the catalog has none.
func (t *messagesTurn) Rules() *apierr.Error {
	info, ok := Lookup(t.req.Model)
	switch {
	case !ok:
		return nil
	case RetiredAt(t.req.Model, t.x.Runtime.Now()):
		// Counting too: a retired model is unknown to every route but
		// the models API.
		return answer.ModelNotFound(t.x, t.req.Model)
	case t.counting:
		return nil
	}
	return t.req.CheckModel(info)
}

// requestOverhead is the tokens every prompt counts beyond its content,
// the framing of the conversation the model reads: the API counts 8
// input tokens for a one-word prompt (audit R3) and 10 for a short one
// (R1), where the stand-in tokenizer counts the word as 1.
const requestOverhead = 7

// cacheLookback is how many blocks before a breakpoint Anthropic's cache
// lookup checks for an earlier hit ("about 20", as its documentation says).
const cacheLookback = 20

// Prompt cuts the prompt into the blocks the cache compares, counted with
// the stand-in tokenizer (o200k_base: Claude's own is not public), with
// the breakpoints cache_control sets on them and the model's rule for
// them.
func (t *messagesTurn) Prompt(ctx context.Context) (answer.Prompt, error) {
	parts := t.req.PromptParts()
	c := answer.Counter{Ctx: ctx, Model: t.req.Model}
	p := answer.Prompt{Segments: make([]runtime.PromptSegment, len(parts))}
	for i, part := range parts {
		p.Segments[i] = runtime.PromptSegment{Text: part.Key, Tokens: part.Tokens + c.Count(part.Text)}
		if part.Breakpoint {
			p.Cache.Breakpoints = append(p.Cache.Breakpoints, runtime.Breakpoint{Segment: i, TTL: part.TTL})
		}
	}
	// Last, after every breakpoint, so that no cached prefix holds it.
	p.Segments = append(p.Segments, runtime.PromptSegment{Text: "request overhead", Tokens: requestOverhead})
	p.Cache.Rule = runtime.BreakpointRule{MinTokens: minCacheTokens(t.req.Model), Lookback: cacheLookback}
	if info, ok := Lookup(t.req.Model); ok {
		p.Window = info.ContextWindow
	}
	return p, c.Err
}

// minCacheTokens is the shortest prefix a breakpoint caches for model; a
// model outside the catalog gets the smallest floor of the current ones.
func minCacheTokens(model string) int {
	if info, ok := Lookup(model); ok {
		return info.MinCacheTokens
	}
	return 1024
}

// TooLong implements answer.Turn.
func (t *messagesTurn) TooLong(n int) *apierr.Error {
	window := 0
	if info, ok := Lookup(t.req.Model); ok {
		window = info.ContextWindow
	}
	return PromptTooLong(n, t.norm.MaxOutputTokens, window)
}

// Spec shapes the message's IDs; the real API shows no reasoning unless
// the request enables thinking or the model thinks by default (thinks).
func (t *messagesTurn) Spec(reply *scenario.Reply) answer.Spec {
	if !t.req.thinks() {
		reply.Thinking = ""
	}
	// msg_011C and 20 base-58 characters, as the API's 2026 IDs (R3:
	// msg_011Cf4RCSGGVqdrib7eAZKZx); toolu_01 and 22 as its tool calls'.
	return answer.Spec{ID: t.x.Runtime.NewBase58ID("msg_011C", 20), ToolCallPrefix: "toolu_01", ToolCallIDLength: 22}
}

// Render renders a as the message, or its event stream, its thinking
// signed.
func (t *messagesTurn) Render(a *provider.Answer, reply *scenario.Reply, s answer.Stream) answer.Rendered {
	if a.Thinking != "" {
		a.ThinkingSignature = signature(a.Thinking)
		if t.req.omitsThinking() {
			a.ThinkingOmitted, a.ThinkingSignature = true, omittedSignature(a.Thinking)
		}
	}
	category := ""
	if reply != nil {
		category = reply.RefusalCategory
	}
	if len(a.WebSearches) > 0 {
		// The answer's own copy, its searches given IDs.
		a.WebSearches = append([]scenario.WebSearch(nil), a.WebSearches...)
		for i := range a.WebSearches {
			if a.WebSearches[i].ID == "" {
				a.WebSearches[i].ID = t.x.Runtime.NewID("srvtoolu_01", 22)
			}
		}
	}
	t.answer = a
	switch {
	case !t.req.Stream && t.req.beta:
		return answer.Rendered{JSON: newBetaMessage(a, category, t.req)}
	case !t.req.Stream:
		return answer.Rendered{JSON: NewMessage(a, category)}
	}
	events := NewStream(a, category, s.Split, s.TokensPerChunk)
	if t.req.beta {
		st := events.(*stream)
		st.contextManagement, st.iterations = contextManagementOf(t.req, a), iterationsOf(a)
	}
	return answer.Rendered{SSE: events}
}

// Delivered keeps the turn of a request with a thread field, under the
// reply's id, once the reply is delivered whole, and marks the turn it
// continues as continued. A reply that failed part-way or was refused is
// kept by no thread (the API "holds either the whole reply or none of
// it", and the SDK starts a new thread after either: its recordReply and
// recordPartialReply). Without a thread the Messages API stores nothing.
func (t *messagesTurn) Delivered(failure *apierr.Error) func() {
	if t.req.Thread == nil || failure != nil || t.answer == nil {
		return nil
	}
	if reason, _ := stopReason(t.answer); reason == "refusal" {
		return nil
	}
	rt, continued := t.x.Runtime, t.claimed
	return func() {
		if rt.Store(newThreadTurn(t.req, t.answer)) && continued != "" {
			markContinued(rt, continued)
		}
	}
}

// Settle implements answer.Settler: a continue that was not delivered
// lets go of the turn it claimed.
func (t *messagesTurn) Settle() {
	if t.claimed != "" {
		releaseThread(t.x.Runtime, t.claimed)
	}
}

// signature is the signature of a thinking block: opaque to clients, which
// send it back unchanged, and the same for the same thinking.
func signature(thinking string) string {
	sum := thinkingDigest(thinking)
	return base64.StdEncoding.EncodeToString(append(sum[:], sum[:]...))
}

func thinkingDigest(thinking string) [sha256.Size]byte {
	return sha256.Sum256([]byte("llmtestserver thinking\x00" + thinking))
}

// omittedSignature is the signature of a thinking block shown with
// thinking.display "omitted", which the client sends back with an empty
// text: it vouches for itself (a tag over the thinking's digest), so that
// the replay check needs no text (see validSignature).
func omittedSignature(thinking string) string {
	digest := thinkingDigest(thinking)
	return base64.StdEncoding.EncodeToString(append(omittedTag(digest[:]), digest[:]...))
}

func omittedTag(digest []byte) []byte {
	tag := sha256.Sum256(append([]byte("llmtestserver omitted\x00"), digest...))
	return tag[:]
}
