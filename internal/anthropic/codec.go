package anthropic

import (
	"crypto/sha256"
	"encoding/base64"
	"net/http"
	"strings"
	"time"

	"github.com/llmtestserver/llmtestserver/internal/answer"
	"github.com/llmtestserver/llmtestserver/internal/apierr"
	"github.com/llmtestserver/llmtestserver/internal/httpx"
	"github.com/llmtestserver/llmtestserver/internal/provider"
	"github.com/llmtestserver/llmtestserver/internal/runtime"
	"github.com/llmtestserver/llmtestserver/internal/tokens"
)

// Codec is Anthropic's wire format on the provider seam: the Messages API,
// token counting and the model catalog. Its SDK appends /v1 to the base
// URL itself, so it is served from the server's root.
type Codec struct{}

var _ provider.Codec = Codec{}

// Name implements provider.Codec.
func (Codec) Name() string { return "anthropic" }

// BasePath implements provider.Codec.
func (Codec) BasePath() string { return "" }

// Routes implements provider.Codec.
func (Codec) Routes() []provider.Route {
	return []provider.Route{
		{Method: http.MethodPost, Path: "/v1/messages", Serve: serveMessages},
		{Method: http.MethodPost, Path: "/v1/messages/count_tokens", Serve: serveCountTokens},
		{Method: http.MethodGet, Path: "/v1/models", Serve: serveModels},
		{Method: http.MethodGet, Path: "/v1/models/", Serve: serveModel},
	}
}

// Claims implements provider.Codec: Anthropic's SDKs send anthropic-version
// on every request, and its curl examples an x-api-key.
func (Codec) Claims(r *http.Request) bool {
	return r.Header.Get("Anthropic-Version") != "" || r.Header.Get("X-Api-Key") != "" ||
		strings.HasPrefix(r.URL.Path, "/v1/messages")
}

// APIKey implements provider.Codec: x-api-key, or a bearer token, which
// is what v2 of the Go SDK sends.
func (Codec) APIKey(h http.Header) (string, bool) {
	key, _ := APIKey(h)
	return key, key != ""
}

// AuthError implements provider.Codec.
func (Codec) AuthError(missing bool, _ string) *apierr.Error { return AuthError(missing) }

// Resolve implements provider.Codec.
func (Codec) Resolve(e *apierr.Error) *apierr.Error {
	out := *e
	out.Status, out.Type = statusAndType(e)
	if out.Message == "" {
		out.Message = errorTypes[out.Type]
	}
	return &out
}

// RenderError implements provider.Codec.
func (Codec) RenderError(e *apierr.Error, serial uint64) (int, any) {
	return Envelope(e, RequestID(serial))
}

// SetHeaders implements provider.Codec.
func (Codec) SetHeaders(h http.Header, serial uint64, _ time.Duration) { SetHeaders(h, serial) }

// Catalog implements provider.Codec.
func (Codec) Catalog() []string { return catalogIDs }

// catalogIDs is the catalog's IDs, listed once: requests ask for them every
// time, and must not change them.
var catalogIDs = CatalogIDs()

// ModelNotFound implements provider.Codec.
func (Codec) ModelNotFound(model string, served []string, allowList bool) *apierr.Error {
	return ModelNotFound(model, served, allowList)
}

// recordHeaders copies into the journal the version and the betas the
// request asked for; the real API requires neither of this server.
func recordHeaders(x *provider.Exchange) {
	x.Entry.APIVersion = x.Request.Header.Get("Anthropic-Version")
	for _, v := range x.Request.Header.Values("Anthropic-Beta") {
		for b := range strings.SplitSeq(v, ",") {
			if b = strings.TrimSpace(b); b != "" {
				x.Entry.Betas = append(x.Entry.Betas, b)
			}
		}
	}
}

// readBody reads x's body, answering one that broke off as the real API
// answers a body that is not JSON.
func readBody(x *provider.Exchange) ([]byte, *apierr.Error) {
	recordHeaders(x)
	body, err := x.ReadBody()
	if provider.IsBodyUnreadable(err) {
		return nil, InvalidJSON()
	}
	return body, err
}

// cacheLookback is how many blocks before a breakpoint Anthropic's cache
// lookup checks for an earlier hit ("about 20", as its documentation says).
const cacheLookback = 20

// prompt cuts req's prompt into the segments the cache compares, counted
// with the stand-in tokenizer (o200k_base: Claude's own is not public), and
// the breakpoints cache_control sets on them.
func prompt(x *provider.Exchange, req *MessagesRequest) ([]runtime.PromptSegment, []runtime.Breakpoint, error) {
	parts := req.PromptParts()
	c := answer.Counter{Ctx: x.Ctx, Model: req.Model}
	segments := make([]runtime.PromptSegment, len(parts))
	var bps []runtime.Breakpoint
	for i, p := range parts {
		segments[i] = runtime.PromptSegment{Text: p.Key, Tokens: p.Tokens + c.Count(p.Text)}
		if p.Breakpoint {
			bps = append(bps, runtime.Breakpoint{Segment: i, TTL: p.TTL})
		}
	}
	return segments, bps, c.Err
}

// minCacheTokens is the shortest prefix a breakpoint caches for model; a
// model outside the catalog gets the smallest floor of the current ones.
func minCacheTokens(model string) int {
	if info, ok := Lookup(model); ok {
		return info.MinCacheTokens
	}
	return 1024
}

// serveMessages serves POST /v1/messages.
func serveMessages(x *provider.Exchange) provider.Response {
	body, err := readBody(x)
	if err != nil {
		return provider.Response{Err: err}
	}
	req, err := DecodeMessages(body)
	if err != nil {
		return provider.Response{Err: err}
	}
	x.Entry.Ignored = req.Unknown
	norm := req.Normalize()
	var segments []runtime.PromptSegment
	var bps []runtime.Breakpoint
	var window int
	res, reply, refused := answer.Find(x, norm, func() *apierr.Error {
		// The model's own limits, as the real API checks them.
		if info, ok := Lookup(req.Model); ok {
			if err := req.CheckModel(info); err != nil {
				return err
			}
			window = info.ContextWindow
		}
		// The prompt is counted before the reply is reserved, so that one
		// too long for the model uses none, and once: the usage counts the
		// same.
		var perr error
		if segments, bps, perr = prompt(x, req); perr != nil {
			return httpx.ClientGone()
		}
		p := answer.Prompt{Segments: segments}
		return answer.CheckContext(x, &p, norm.MaxOutputTokens, window, func(n int) *apierr.Error {
			return PromptTooLong(n, norm.MaxOutputTokens, window)
		})
	})
	if refused != nil {
		return *refused
	}
	if reply.Error != nil && reply.Error.AfterEvents == 0 {
		// A failure inside the stream: a 200 whose only event is the error.
		// One after some events is the HTTP core's (Exchange.StreamError).
		e := Codec{}.Resolve(apierr.Scripted(reply.Error))
		x.Entry.ErrorCode, x.Entry.ErrorMessage = e.JournalCode(), e.Message
		return provider.Response{SSE: ErrorEvents(e), Reservation: res}
	}
	if !req.ThinkingEnabled() {
		// The real API shows no reasoning unless the request enables it.
		reply.Thinking = ""
	}
	rule := runtime.BreakpointRule{MinTokens: minCacheTokens(req.Model), Lookback: cacheLookback}
	a := answer.Build(x, norm, &reply, answer.Spec{
		ID:             x.Runtime.NewID("msg_01", 22),
		ToolCallPrefix: "toolu_01", ToolCallIDLength: 22,
		Prompt: answer.Prompt{Segments: segments,
			Cache: answer.Cache{Breakpoints: bps, Rule: rule}},
	})
	if a.Thinking != "" {
		a.ThinkingSignature = signature(a.Thinking)
	}
	if !req.Stream {
		return provider.Response{JSON: NewMessage(&a, ""), Reservation: res}
	}
	stream := x.StreamSettings()
	split := func(s string) []string { p, _ := tokens.SplitContext(x.Ctx, req.Model, s); return p }
	return provider.Response{SSE: NewStream(&a, split, stream.TokensPerChunk), Pacing: stream, Reservation: res}
}

// signature is the signature of a thinking block: opaque to clients, which
// send it back unchanged, and the same for the same thinking.
func signature(thinking string) string {
	sum := sha256.Sum256([]byte("llmtestserver thinking\x00" + thinking))
	return base64.StdEncoding.EncodeToString(append(sum[:], sum[:]...))
}

// countTokens is the body of POST /v1/messages/count_tokens.
type countTokens struct {
	InputTokens int `json:"input_tokens"`
}

// serveCountTokens serves POST /v1/messages/count_tokens: the prompt's
// tokens exactly as /v1/messages counts them in its usage (input, cache
// creation and cache read together), touching neither the prompt cache
// nor any scenario.
func serveCountTokens(x *provider.Exchange) provider.Response {
	body, err := readBody(x)
	if err != nil {
		return provider.Response{Err: err}
	}
	req, err := DecodeCountTokens(body)
	if err != nil {
		return provider.Response{Err: err}
	}
	x.Entry.Ignored = req.Unknown
	answer.RecordRequest(x, req.Normalize())
	x.Entry.Endpoint = "" // a count calls no model: filtering on messages must not see it
	if !x.Serves(req.Model) {
		return provider.Response{Err: answer.ModelNotFound(x, req.Model)}
	}
	segments, _, perr := prompt(x, req)
	if perr != nil {
		return provider.Response{Err: httpx.ClientGone()}
	}
	n := 0
	for _, s := range segments {
		n += s.Tokens
	}
	return provider.Response{JSON: countTokens{InputTokens: n}}
}

func serveModels(x *provider.Exchange) provider.Response {
	recordHeaders(x)
	return provider.Response{JSON: ModelList(x.Models())}
}

// serveModel serves GET /v1/models/{id}.
func serveModel(x *provider.Exchange) provider.Response {
	recordHeaders(x)
	id := strings.TrimPrefix(x.Request.URL.Path, "/v1/models/")
	x.Entry.Model = id
	if !x.Serves(id) {
		return provider.Response{Err: answer.ModelNotFound(x, id)}
	}
	return provider.Response{JSON: ModelObject(id)}
}
