package answer

import (
	"context"

	"github.com/llmtestserver/llmtestserver/internal/apierr"
	"github.com/llmtestserver/llmtestserver/internal/provider"
	"github.com/llmtestserver/llmtestserver/internal/runtime"
	"github.com/llmtestserver/llmtestserver/scenario"
)

// Decoder decodes and validates the body of one conversational request,
// which Serve has read, as the provider's API does, and returns the Turn
// that answers it, or the API's refusal in its words. With a refusal it
// may also return a Turn whose Request holds what was understood before
// the refusal (the model), which the journal then records.
type Decoder func(x *provider.Exchange, body []byte) (Turn, *apierr.Error)

// Turn is one conversational request as its codec understood it, and the
// parts of answering it that differ between providers. Serve asks for
// each at its step of the pipeline, in the order of the methods below.
type Turn interface {
	// Request is the normalized request that scenarios, the guard and the
	// journal see.
	Request() *scenario.Request
	// Ignored lists the request's fields the codec accepted without acting
	// on them, for the journal; nil for none.
	Ignored() []string
	// Rules refuses, in the provider's words, what the requested model
	// does not take of the request; nil when it takes it.
	Rules() *apierr.Error
	// Prompt cuts the prompt into the segments prompt caching compares,
	// each counted as the provider counts it, with its cache rule and the
	// model's context window. It stops with ctx's cause once ctx ends.
	Prompt(ctx context.Context) (Prompt, error)
	// TooLong is the provider's error for a prompt of n tokens that, with
	// the request's maximum output tokens, does not fit the context window.
	TooLong(n int) *apierr.Error
	// Spec says what the answer built from reply looks like: its ID, its
	// tool calls' IDs, its choices, its hidden reasoning. It may change
	// reply, the request's own copy, where the provider shows less than a
	// script holds (thinking the request did not enable).
	Spec(reply *scenario.Reply) Spec
	// Render renders a, built from reply, as the provider's JSON body, or
	// as its event stream when the request streams, cut into chunks as s
	// says.
	Render(a *provider.Answer, reply *scenario.Reply, s Stream) Rendered
	// Delivered returns what runs once the answer is delivered whole, such
	// as storing it (nil: nothing). failure, when set, is the error the
	// stream fails with part-way, in the provider's words.
	Delivered(failure *apierr.Error) func()
}

// Generator is implemented by a Turn that may ask for no output at all;
// Generates reports false for one that does (Anthropic's max_tokens 0),
// which Serve answers without a reply.
type Generator interface {
	Generates() bool
}

// CountRenderer is implemented by a Turn whose count body depends on the
// request (Anthropic's beta count, which reports its context
// management); Count renders the count with CountBody instead of its
// body function.
type CountRenderer interface {
	CountBody(tokens int) any
}

// Holder is implemented by a Turn whose answer starts a job that keeps
// its reply past the request (a background response): Hold hands it the
// reservation (nil for a chaos rule's reply), which the job gives back to
// its queue if it is cancelled before it has run.
type Holder interface {
	Hold(*runtime.Reservation)
}

// Settler is implemented by a Turn that holds something while it is
// answered, such as its claim on the message thread it continues, and
// lets it go in Settle, which runs once however the request ends: refused
// after decoding, answered (after Delivered), or not delivered.
type Settler interface {
	Settle()
}

// ModelRefuser is implemented by a Turn whose route words an unserved
// model its own way (the Responses API); the others are refused in their
// codec's words (provider.Codec.ModelNotFound).
type ModelRefuser interface {
	ModelNotFound(model string, served []string, allowList bool) *apierr.Error
}

// Stream is how an answer's events are cut: TokensPerChunk tokens a chunk,
// the tokens as Split cuts a text, which stops, returning nil, once the
// request's context ends.
type Stream struct {
	TokensPerChunk int
	Split          func(string) []string
}

// Rendered is a rendered answer: a JSON body, or an event stream.
type Rendered struct {
	JSON any
	SSE  provider.EventStream
	// Job and JobState name the job the answer starts (a background
	// response) and its state, for the journal (see provider.Response).
	Job, JobState string
}
