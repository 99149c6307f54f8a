package provider

import (
	"context"
	"net/http"

	"github.com/llmtestserver/llmtestserver/internal/apierr"
	"github.com/llmtestserver/llmtestserver/internal/runtime"
	"github.com/llmtestserver/llmtestserver/journal"
	"github.com/llmtestserver/llmtestserver/scenario"
)

// Exchange is one provider request in progress.
type Exchange struct {
	// Ctx is cancelled when the client leaves, and with
	// runtime.ErrSuperseded when the session is deleted.
	Ctx context.Context
	// Runtime is the session's runtime.
	Runtime *runtime.Runtime
	// Request is the HTTP request.
	Request *http.Request
	// Codec is the codec serving the request.
	Codec Codec
	// Entry is the journal entry, filled in as the request is understood.
	Entry journal.Entry
	// Earlier counts the turns of a continued chain that the request no
	// longer carries (see runtime.ReserveAfter).
	Earlier runtime.Earlier
	// MaxBody bounds the request's body.
	MaxBody int64
	// RateLimit is what the request's check against the session's rate
	// limits saw, or nil when it was not checked; its answer reports it
	// in headers (see RateLimiter).
	RateLimit *runtime.RateCheck
	// Fault, StreamError and Pacing are the settled reply's fault, its
	// error to send inside the stream after its events (none included),
	// and its own stream pacing (see answer.settle). The HTTP core fires the fault
	// and the error as it delivers the response.
	Fault       *scenario.Fault
	StreamError *scenario.Error
	Pacing      *scenario.Pacing
	// Dispatcher is the whole server, on which Dispatch answers a batch's
	// lines.
	Dispatcher http.Handler
	// Deferred says that the answer is a job's (a batch's line, a
	// background response): the reply's delay and hang are the job's
	// timing on the session's clock, not this request's, so the request
	// does not wait them out.
	Deferred bool
}

// Response is what a route answers; the HTTP core writes it. Routes never
// write to the ResponseWriter themselves.
type Response struct {
	// Err is an error answer; otherwise JSON, Body or SSE is the answer.
	Err *apierr.Error
	// JSON is a JSON body (it may be a StreamingJSON).
	JSON any
	// Body, if set, is a body that is not JSON (a video's bytes, a file's
	// content), sent as it is with ContentType.
	Body        []byte
	ContentType string
	// Header holds headers of a successful answer beyond those the codec
	// sets on every answer (OpenAI's openai-poll-after-ms on a video's
	// poll).
	Header http.Header
	// SSE is an event stream, paced like Pacing.
	SSE    EventStream
	Pacing runtime.StreamSettings
	// Reservation is rolled back if the answer is not delivered.
	Reservation *runtime.Reservation
	// Delivered, if set, runs once the answer is written whole, such as
	// storing a response for later retrieval.
	Delivered func()
	// Finally, if set, runs once whatever the request gets is written,
	// whole or not, or once the request ends without an answer: after
	// Delivered, and before the answer's last bytes, so that a client
	// that has read its answer (and sends its next request) finds what
	// Finally undid undone, such as a claim the request held.
	Finally func()
	// Job and JobState, for a route that creates, polls, cancels or
	// deletes a job (a video, a batch, a background response, a file, or
	// fetches its content), are the job's ID and its state as the request
	// left it, in the API's own words; the journal records them.
	Job, JobState string
	// Model, for a route whose body names no model (a model's route, a
	// stored completion's), is the model the request concerns, which the
	// journal records.
	Model string
}

// Serves reports whether the session serves model: its allow-list has it
// (or the alias of which model is a snapshot, for a codec that is an
// Aliaser), or it has none and the codec's catalog does.
func (x *Exchange) Serves(model string) bool {
	catalog := x.Codec.Catalog()
	if x.Runtime.Serves(model, catalog) {
		return true
	}
	a, ok := x.Codec.(Aliaser)
	if !ok {
		return false
	}
	alias := a.AliasOf(model)
	return alias != "" && x.Runtime.Serves(alias, catalog)
}

// Aliaser is implemented by a codec whose catalog has dated snapshots of
// aliases, so that an allow-list naming an alias serves its snapshots too:
// the code under test may send back the snapshot an answer named.
type Aliaser interface {
	// AliasOf is the alias of which model is a snapshot, or "".
	AliasOf(model string) string
}

// Models lists what the session serves to this codec: its allow-list, or
// else the codec's catalog.
func (x *Exchange) Models() []string {
	return x.Runtime.Models(x.Codec.Catalog())
}

// StreamSettings are the stream settings of the answer: the session's,
// with the settled reply's own pacing in their place when it has one.
// Codecs chunk and pace their streams with them.
func (x *Exchange) StreamSettings() runtime.StreamSettings {
	s := x.Runtime.Settings().Stream
	if p := x.Pacing; p != nil {
		s.TTFT, s.TokensPerSecond = p.TTFT, p.TokensPerSecond
		if p.TokensPerChunk > 0 {
			s.TokensPerChunk = p.TokensPerChunk
		}
	}
	return s
}
