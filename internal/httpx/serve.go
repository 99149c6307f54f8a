package httpx

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/llmtestserver/llmtestserver/internal/apierr"
	"github.com/llmtestserver/llmtestserver/internal/provider"
	"github.com/llmtestserver/llmtestserver/internal/runtime"
	"github.com/llmtestserver/llmtestserver/journal"
)

// Serve runs a provider request on rt with the codec that owns its route:
// it registers the request as in flight, checks the provider key, serves
// the route, delivers the answer and journals the request, with what the
// codec reads of the request's headers (provider.HeaderReader) and the
// model the route's Response names. atDefault says that rt is the default
// runtime, whose key is the management key. dispatch is the whole
// server, which answers the lines of a batch (see provider.Dispatch).
func Serve(w http.ResponseWriter, r *http.Request, rt *runtime.Runtime, codec provider.Codec, route provider.Route,
	maxBody int64, atDefault bool, dispatch http.Handler) {
	render := codec.RenderError
	ctx, end, ok := rt.Begin(r.Context(), func() { interrupt(w) })
	if !ok {
		// The session was deleted (or evicted) between the request's
		// selection of it and its start: the request was never in flight,
		// so it gets what every request after a deletion gets, whichever
		// side of that moment it fell on.
		WriteCodecError(w, apierr.SessionNotFound(), codec)
		return
	}
	defer end()
	x := &provider.Exchange{Ctx: ctx, Runtime: rt, Request: r, Codec: codec,
		Entry:   journal.Entry{Time: rt.Now(), Provider: codec.Name(), Method: r.Method, Path: r.URL.Path},
		MaxBody: maxBody, Dispatcher: dispatch}
	if line, ok := provider.LineOf(r.Context()); ok {
		x.Entry.Job, x.Entry.CustomID, x.Deferred = line.Job, line.CustomID, true
	}
	settings := rt.Settings()
	journalBody := journalRequest(x, &settings)
	if hr, ok := codec.(provider.HeaderReader); ok {
		h := hr.RequestHeaders(r.Header)
		x.Entry.APIVersion, x.Entry.Betas = h.APIVersion, h.Betas
	}
	var res provider.Response
	var idem *idempotent // the Idempotency-Key the request claimed, if any
	if key, present := codec.APIKey(r); !rt.KeyAccepted(key) {
		err := codec.AuthError(!present, key)
		if atDefault && present {
			err = withSessionHint(err)
		}
		res = provider.Response{Err: err}
	} else if err := checkHeaders(codec, r.Header, &settings); err != nil {
		res = provider.Response{Err: err}
	} else if claimed, refused, replayed := claimIdempotency(w, x); replayed {
		return
	} else if refused != nil {
		res = provider.Response{Err: refused}
	} else {
		if idem = claimed; idem != nil {
			// Runs last: after the answer's last bytes (deferred below),
			// and even if the route panics, so the key is never held.
			defer idem.release()
		}
		res = route.Serve(x)
	}
	settle := once(res.Finally)
	// Also on the early returns below, and if delivering panics.
	defer settle()
	out := w // what the answer is delivered through
	if idem != nil {
		out = idem.capture(w)
	}
	if res.Err != nil {
		res.Err = codec.Resolve(res.Err)
	}
	if res.Model != "" {
		x.Entry.Model = res.Model
	}
	if res.Job != "" {
		x.Entry.Job, x.Entry.JobState = res.Job, res.JobState
	}
	if superseded(ctx) {
		supersede(w, res, codec)
		return
	}
	if ctx.Err() != nil && res.Err == nil {
		// The client left while the answer was computed, which stopped
		// counting its tokens: deliver nothing and give the reply back.
		if res.Reservation != nil {
			res.Reservation.Rollback()
		}
		res = provider.Response{Err: ClientGone()}
	}
	serial := rt.NextSerial()
	codec.SetHeaders(w.Header(), serial, rt.Now().Sub(x.Entry.Time))
	x.SetRateLimitHeaders(w.Header())
	plan := planFault(x, codec)
	wrote := sent{rt: rt, arrived: x.Entry.Time}
	status, finish := deliver(ctx, rt, out, &res, serial, render, &plan, &wrote)
	settle()
	x.Entry.Status = status
	plan.journal(&x.Entry, status)
	wrote.journal(&x.Entry, status)
	// The last bytes go out only once the request is on record, so a client
	// that has its answer can rely on the journal (and history) showing it;
	// a fault's abort (drop, cut) likewise comes after the record.
	defer finish()
	if superseded(ctx) {
		// Deleted while answering, or the server closed: nothing is
		// recorded. An answer written whole completes; one the deletion
		// cut short (a paced stream under way) is aborted, as a cut fault
		// is, so that the client reads an unexpected end rather than a
		// clean one it could take for a whole answer.
		if status == apierr.StatusClientClosed {
			abort(w, true)
		}
		return
	}
	if res.Err != nil {
		journalError(&x.Entry, res.Err)
	}
	if x.Entry.Status == apierr.StatusClientClosed {
		unsent(&x.Entry)
	}
	x.Entry.Duration = rt.Now().Sub(x.Entry.Time)
	journalBody()
	rt.Record(x.Entry)
}

// once returns a function that runs f the first time it is called; f
// may be nil.
func once(f func()) func() {
	if f == nil {
		return func() {}
	}
	return sync.OnceFunc(f)
}

// ClientGone is the journal's record of a request whose client left while
// its reply was held back. The client never reads it.
func ClientGone() *apierr.Error {
	return apierr.ClientClosed("The client closed the request before the reply was delivered.")
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
func supersede(w http.ResponseWriter, res provider.Response, codec provider.Codec) {
	if res.Reservation != nil {
		res.Reservation.Rollback()
	}
	WriteCodecError(w, apierr.RequestSuperseded(), codec)
}

func superseded(ctx context.Context) bool {
	return errors.Is(context.Cause(ctx), runtime.ErrSuperseded)
}

// withSessionHint explains a wrong key at the default runtime. Its key is
// the management key, so a provider key there almost always means that the
// client was built without the session's HTTP client, the commonest
// mistake of a new user: the message says so and how to fix it.
func withSessionHint(err *apierr.Error) *apierr.Error {
	hinted := *err
	if !strings.HasSuffix(hinted.Message, ".") {
		hinted.Message += "."
	}
	hinted.Message += " The request carried no session headers (" + HeaderSession + ", " + HeaderSessionKey +
		"), so it reached the server's default runtime, whose key is the management key. " +
		"Send the session's requests through its client: option.WithHTTPClient(sess.HTTPClient()) for the OpenAI and Anthropic SDKs, " +
		"or sess.WrapClient(yourClient)."
	return &hinted
}
