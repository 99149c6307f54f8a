package server

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/llmtestserver/llmtestserver/internal/openai"
	"github.com/llmtestserver/llmtestserver/internal/runtime"
	"github.com/llmtestserver/llmtestserver/journal"
)

// statusClientClosed is what the journal records for a request whose client
// went away before the answer was delivered.
const statusClientClosed = openai.StatusClientClosed

// response is what a provider handler answers; deliver writes it. Handlers
// never write to the ResponseWriter themselves.
type response struct {
	err    *openai.Error          // an error answer; otherwise:
	json   any                    // a JSON body, or
	sse    eventStream            // an event stream,
	pacing runtime.StreamSettings // paced like this
	// reservation is rolled back if the answer is not delivered.
	reservation *runtime.Reservation
	// delivered, if set, runs once the answer is written whole, such as
	// storing a response for later retrieval.
	delivered func()
}

// exchange is one provider request in progress.
type exchange struct {
	ctx   context.Context // cancelled with runtime.ErrSuperseded on deletion
	rt    *runtime.Runtime
	r     *http.Request
	entry journal.Entry // filled in by the handler as it learns things
	// earlier counts the turns of a continued chain that its request no
	// longer carries (see runtime.ReserveAfter).
	earlier runtime.Earlier
}

// serveProvider runs a provider request on rt: it registers the request as
// in flight, checks the bearer token, routes, delivers and journals.
func (h *handler) serveProvider(w http.ResponseWriter, r *http.Request, rt *runtime.Runtime) {
	ctx, end, ok := rt.Begin(r.Context(), func() { interrupt(w) })
	if !ok {
		writeError(w, openai.RequestSuperseded())
		return
	}
	defer end()
	x := &exchange{ctx: ctx, rt: rt, r: r,
		entry: journal.Entry{Time: rt.Now(), Method: r.Method, Path: r.URL.Path}}
	var res response
	if err := rt.Authorize(r.Header.Get("Authorization")); err != nil {
		if rt == h.sessions.Default() && err.Code == "invalid_api_key" {
			err = withSessionHint(err)
		}
		res = response{err: err}
	} else {
		res = h.route(x)
	}
	if superseded(ctx) {
		h.supersede(w, res)
		return
	}
	if ctx.Err() != nil && res.err == nil {
		// The client left while the answer was computed, which stopped
		// counting its tokens: deliver nothing and give the reply back.
		if res.reservation != nil {
			res.reservation.Rollback()
		}
		res = response{err: clientGone()}
	}
	serial := rt.NextSerial()
	w.Header().Set("X-Request-Id", fmt.Sprintf("req_%032x", serial))
	w.Header().Set("Openai-Version", "2020-10-01")
	w.Header().Set("Openai-Processing-Ms", strconv.FormatInt(rt.Now().Sub(x.entry.Time).Milliseconds(), 10))
	status, finish := deliver(ctx, w, &res)
	x.entry.Status = status
	// The last bytes go out only once the request is on record, so a client
	// that has its answer can rely on the journal (and history) showing it.
	defer finish()
	if superseded(ctx) {
		// Deleted while answering: what was written completes (a paced
		// stream just stops), and nothing is recorded.
		return
	}
	if res.err != nil {
		x.entry.ErrorCode = res.err.JournalCode()
	}
	if x.entry.Status == statusClientClosed {
		x.entry.ReplyText = ""
	}
	x.entry.Duration = rt.Now().Sub(x.entry.Time)
	rt.Record(x.entry)
}

// supersedeWriteGrace is how long a request whose session was deleted may
// still write: enough for a 409 or the rest of an answer to a client that
// reads, not for one that never does.
const supersedeWriteGrace = 500 * time.Millisecond

// interrupt ends the reads and writes of the request w answers, once its
// session is deleted: a body still being sent stops at once, and a client
// that does not read its answer holds the handler for supersedeWriteGrace at
// most. The runtime calls it from Retire, and never once the request has
// ended (see runtime.Begin), so it never touches a connection that serves
// another request by then. Deadlines are all net/http offers here; a writer
// that does not support them (an in-memory transport) has no connection to
// hold.
func interrupt(w http.ResponseWriter) {
	rc := http.NewResponseController(w)
	rc.SetReadDeadline(time.Now().Add(-time.Second))
	rc.SetWriteDeadline(time.Now().Add(supersedeWriteGrace))
}

// supersede answers a request whose session was deleted: 409, and the
// reserved reply goes back, though nobody will take it.
func (h *handler) supersede(w http.ResponseWriter, res response) {
	if res.reservation != nil {
		res.reservation.Rollback()
	}
	writeError(w, openai.RequestSuperseded())
}

func superseded(ctx context.Context) bool {
	return errors.Is(context.Cause(ctx), runtime.ErrSuperseded)
}

// providerRoutes maps provider paths to their handlers.
var providerRoutes = map[string]struct {
	method string
	serve  func(h *handler, x *exchange) response
}{
	"/v1/chat/completions": {http.MethodPost, (*handler).chat},
	"/v1/embeddings":       {http.MethodPost, (*handler).embeddings},
	"/v1/responses":        {http.MethodPost, (*handler).responses},
	"/v1/models":           {http.MethodGet, (*handler).models},
}

// route finds the handler of x's path.
func (h *handler) route(x *exchange) response {
	path := x.r.URL.Path
	if route, ok := providerRoutes[path]; ok {
		if x.r.Method != route.method {
			return response{err: openai.MethodNotAllowed(x.r.Method, path, route.method)}
		}
		return route.serve(h, x)
	}
	if rest, ok := strings.CutPrefix(path, "/v1/responses/"); ok && rest != "" {
		return h.responseByID(x, rest)
	}
	if id, ok := strings.CutPrefix(path, "/v1/models/"); ok && id != "" {
		if x.r.Method != http.MethodGet {
			return response{err: openai.MethodNotAllowed(x.r.Method, path, http.MethodGet)}
		}
		return h.model(x, id)
	}
	hint := ""
	if _, ok := providerRoutes["/v1"+path]; ok {
		hint = "; the API is served under /v1, so use the session's BaseURL() as the SDK's base URL"
	}
	return response{err: openai.RouteNotFound(x.r.Method, path, hint)}
}

func (h *handler) models(x *exchange) response {
	return response{json: openai.Models(x.rt.Models(openai.CatalogIDs()))}
}

func (h *handler) model(x *exchange, id string) response {
	x.entry.Model = id
	if !x.rt.Serves(id, openai.CatalogIDs()) {
		return response{err: modelNotFound(x.rt, id)}
	}
	return response{json: openai.Models([]string{id}).Data[0]}
}

// modelNotFound refuses a model rt does not serve, naming those it does.
func modelNotFound(rt *runtime.Runtime, model string) *openai.Error {
	return openai.ModelNotFound(model, rt.Models(openai.CatalogIDs()), len(rt.Settings().Models) > 0)
}

// withSessionHint explains a wrong key at the default runtime. Its key is
// the management key, so a provider key there almost always means that the
// client was built without the session's HTTP client, the commonest
// mistake of a new user: the message says so and how to fix it.
func withSessionHint(err *openai.Error) *openai.Error {
	hinted := *err
	hinted.Message += " The request carried no session headers (" + HeaderSession + ", " + HeaderSessionKey +
		"), so it reached the server's default runtime, whose key is the management key. " +
		"Send the session's requests through its client: option.WithHTTPClient(sess.HTTPClient()) for the OpenAI SDKs, " +
		"or sess.WrapClient(yourClient)."
	return &hinted
}
