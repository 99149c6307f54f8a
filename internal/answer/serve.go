package answer

import (
	"github.com/llmtestserver/llmtestserver/internal/apierr"
	"github.com/llmtestserver/llmtestserver/internal/httpx"
	"github.com/llmtestserver/llmtestserver/internal/provider"
	"github.com/llmtestserver/llmtestserver/internal/tokens"
	"github.com/llmtestserver/llmtestserver/journal"
	"github.com/llmtestserver/llmtestserver/scenario"
)

// Serve returns the route that answers a codec's conversational requests
// with decode, running every step of the pipeline (see the package
// documentation).
func Serve(decode Decoder) func(*provider.Exchange) provider.Response {
	return func(x *provider.Exchange) provider.Response { return serve(x, decode) }
}

func serve(x *provider.Exchange, decode Decoder) (res provider.Response) {
	turn, refused := understand(x, decode)
	if refused != nil {
		return *refused
	}
	if s, ok := turn.(Settler); ok {
		// However the turn ends from here: refused, answered, or not
		// delivered.
		defer func() { res.Finally = s.Settle }()
	}
	req := turn.Request()
	prompt, refused := admit(x, turn, true)
	if refused != nil {
		return *refused
	}
	if g, ok := turn.(Generator); ok && !g.Generates() {
		return nothingGenerated(x, turn, &prompt)
	}
	reservation, reply, refused := find(x, req)
	if refused != nil {
		return *refused
	}
	stop := cutAtStop(&reply, req.StopSequences)
	a := build(x, req, &reply, turn.Spec(&reply), &prompt)
	a.StopSequence = stop
	var failure *apierr.Error
	if x.StreamError != nil {
		failure = x.Codec.Resolve(apierr.Scripted(x.StreamError))
	}
	res = respond(x, turn, &a, &reply, failure)
	res.Reservation = reservation
	if h, ok := turn.(Holder); ok {
		h.Hold(reservation)
	}
	return res
}

// respond renders a, built from reply, as the turn's response: steps 10
// and 11. failure is the error a stream fails with part-way, if any.
func respond(x *provider.Exchange, turn Turn, a *provider.Answer, reply *scenario.Reply, failure *apierr.Error) provider.Response {
	settings := x.StreamSettings()
	out := turn.Render(a, reply, Stream{TokensPerChunk: settings.TokensPerChunk, Split: tokens.Splitter(x.Ctx, turn.Request().Model)})
	return provider.Response{JSON: out.JSON, SSE: out.SSE, Pacing: settings, Delivered: turn.Delivered(failure),
		Job: out.Job, JobState: out.JobState}
}

// nothingGenerated answers a turn that asks for no output (Anthropic's
// max_tokens 0, which writes the prompt cache and generates nothing): an
// answer with no content that stopped at its limit, its prompt counted
// and cached, after the rate limits and without taking a reply, so that
// no scenario is needed for it and none is used up.
func nothingGenerated(x *provider.Exchange, turn Turn, prompt *Prompt) provider.Response {
	req := turn.Request()
	if refused := Limit(x, req); refused != nil {
		return *refused
	}
	reply := scenario.Reply{FinishReason: string(scenario.FinishLength)}
	a := build(x, req, &reply, turn.Spec(&reply), prompt)
	return respond(x, turn, &a, &reply, nil)
}

// Count returns the route that counts the prompt tokens of a request that
// decode understands, without answering it: the steps of Serve up to the
// prompt's count, the model's rules included but not the context window,
// taking no reply and leaving the prompt cache alone. body renders the
// count, unless the turn is a CountRenderer (body may be nil when every
// turn decode returns is one). The journal records the request with no endpoint and not
// streamed: a count calls no model, so filtering on the endpoint it
// counts for must not see it.
func Count(decode Decoder, body func(tokens int) any) func(*provider.Exchange) provider.Response {
	return func(x *provider.Exchange) provider.Response {
		turn, refused := understand(x, decode)
		x.Entry.Endpoint, x.Entry.Stream = "", false
		if refused != nil {
			return *refused
		}
		prompt, refused := admit(x, turn, false)
		if refused != nil {
			return *refused
		}
		if c, ok := turn.(CountRenderer); ok {
			return provider.Response{JSON: c.CountBody(prompt.Tokens())}
		}
		return provider.Response{JSON: body(prompt.Tokens())}
	}
}

// understand reads the body and decodes it, and records what the request
// carries: steps 1 to 3.
func understand(x *provider.Exchange, decode Decoder) (Turn, *provider.Response) {
	body, err := x.ReadBody()
	if err != nil {
		return nil, &provider.Response{Err: err}
	}
	turn, err := decode(x, body)
	if turn != nil {
		RecordRequest(x, turn.Request())
		x.Entry.Ignored = turn.Ignored()
	}
	if err != nil {
		return nil, &provider.Response{Err: err}
	}
	return turn, nil
}

// admit checks that the session serves the model and that the model takes
// the request, and counts its prompt, checking it against the context
// window when window says so: steps 4 and 5. The prompt is counted before
// any reply is reserved, so that a prompt too long for the model takes
// none, and once: the usage counts the same.
func admit(x *provider.Exchange, turn Turn, window bool) (Prompt, *provider.Response) {
	req := turn.Request()
	if !x.Serves(req.Model) {
		return Prompt{}, &provider.Response{Err: modelNotFound(x, turn, req.Model)}
	}
	if err := turn.Rules(); err != nil {
		return Prompt{}, &provider.Response{Err: err}
	}
	prompt, err := turn.Prompt(x.Ctx)
	if err != nil {
		// The client left, or the session went, while the prompt was
		// counted: nothing is answered and the prompt cache is untouched.
		return Prompt{}, &provider.Response{Err: httpx.ClientGone()}
	}
	if window {
		if err := checkContext(x, &prompt, req.MaxOutputTokens, turn.TooLong); err != nil {
			return Prompt{}, &provider.Response{Err: err}
		}
	}
	return prompt, nil
}

// modelNotFound refuses a model the session does not serve, in the words
// of the turn's route when it has its own, else in its codec's.
func modelNotFound(x *provider.Exchange, turn Turn, model string) *apierr.Error {
	if r, ok := turn.(ModelRefuser); ok {
		return r.ModelNotFound(model, x.Models(), len(x.Runtime.Settings().Models) > 0)
	}
	return ModelNotFound(x, model)
}

// RecordRequest copies what the journal shows of a request: its endpoint,
// model, last user text and the normalized request (see journalRequest).
func RecordRequest(x *provider.Exchange, req *scenario.Request) {
	x.Entry.Model, x.Entry.Stream, x.Entry.UserText = req.Model, req.Stream, req.LastUserText()
	x.Entry.Endpoint, x.Entry.Request = string(req.Endpoint), journalRequest(req)
	x.Entry.PromptCacheKey = req.PromptCacheKey
	for _, r := range req.ToolResults() {
		x.Entry.ToolResults = append(x.Entry.ToolResults, journal.ToolResult{CallID: r.CallID, Name: r.Name, Content: r.Content})
	}
}

// ModelNotFound refuses a model the session does not serve, in the codec's
// words, naming those it does.
func ModelNotFound(x *provider.Exchange, model string) *apierr.Error {
	return x.Codec.ModelNotFound(model, x.Models(), len(x.Runtime.Settings().Models) > 0)
}
