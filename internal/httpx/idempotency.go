package httpx

import (
	"bytes"
	"crypto/sha256"
	"io"
	"maps"
	"net/http"

	"github.com/llmtestserver/llmtestserver/internal/apierr"
	"github.com/llmtestserver/llmtestserver/internal/provider"
	"github.com/llmtestserver/llmtestserver/internal/runtime"
	"github.com/llmtestserver/llmtestserver/scenario"
)

// HeaderIdempotencyKey names the header that makes a POST idempotent within
// its session: a retry with the same key and the same request gets the
// first answer again, and uses no other reply.
const HeaderIdempotencyKey = "Idempotency-Key"

// HeaderIdempotentReplayed marks an answer sent again for an
// Idempotency-Key, as Stripe-style APIs do; no SDK reads it.
const HeaderIdempotentReplayed = "Idempotent-Replayed"

// Error codes of the 409s an Idempotency-Key can get.
const (
	CodeIdempotencyKeyReused   = "idempotency_key_reused"
	CodeIdempotencyKeyInFlight = "idempotency_key_in_flight"
)

// idempotent is a request answered under an Idempotency-Key it claimed: it
// captures the answer as it is written, so that the claim can keep it once
// it was delivered whole and successfully.
type idempotent struct {
	claim *runtime.IdempotencyClaim
	x     *provider.Exchange
	limit int64 // the most bytes of body worth capturing

	status int
	header http.Header
	body   []byte
	over   bool // the answer outgrew the bound: not kept
	failed bool // a write failed: the client did not get it whole
}

// claimIdempotency handles the Idempotency-Key of a POST: it returns the
// claim of a new key (nil without a key, or when the key is not tracked),
// or answers the request itself when the key answered the same request
// before (replayed), or the refusal to send when the key is in flight or
// answered another request. The body is read here, to be hashed, and
// handed on to the route unchanged.
func claimIdempotency(w http.ResponseWriter, x *provider.Exchange) (idem *idempotent, refused *apierr.Error, replayed bool) {
	r := x.Request
	key := r.Header.Get(HeaderIdempotencyKey)
	if key == "" || r.Method != http.MethodPost {
		return nil, nil, false
	}
	hash, ok := hashRequest(r, x.MaxBody)
	if !ok {
		return nil, nil, false // the route refuses the body as it always does
	}
	x.Entry.IdempotencyKey = key
	claim, answer, outcome := x.Runtime.ClaimIdempotencyKey(key, hash)
	switch outcome {
	case runtime.IdempotencyFresh:
		return &idempotent{claim: claim, x: x, limit: x.Runtime.Settings().IdempotencyMaxBytes}, nil, false
	case runtime.IdempotencyReplay:
		replay(w, x, answer)
		return nil, nil, true
	case runtime.IdempotencyReused:
		// Retrying cannot help: the SDKs are told not to.
		return nil, (&apierr.Error{Kind: scenario.ErrorConflict, Status: http.StatusConflict, Code: CodeIdempotencyKeyReused,
			Message: "This Idempotency-Key was already used for a request with another body (or endpoint) in this session. " +
				"Send a new key for a new request, and the same body with the same key only to retry it."}).
			WithHeader("X-Should-Retry", "false"), false
	case runtime.IdempotencyInFlight:
		return nil, &apierr.Error{Kind: scenario.ErrorConflict, Status: http.StatusConflict, Code: CodeIdempotencyKeyInFlight,
			Message: "A request with this Idempotency-Key is still being answered in this session. " +
				"Retry once it has finished: the retry then gets its answer."}, false
	}
	return nil, nil, false
}

// hashRequest hashes r's method, path and body, which it reads within
// limit and puts back for the route. A body that cannot be read whole is
// put back as it came, failure included, and not hashed.
func hashRequest(r *http.Request, limit int64) (sum [32]byte, ok bool) {
	if r.Body == nil {
		r.Body = http.NoBody
	}
	body, err := io.ReadAll(io.LimitReader(r.Body, limit+1))
	switch {
	case err != nil:
		r.Body = io.NopCloser(io.MultiReader(bytes.NewReader(body), errReader{err}))
		return sum, false
	case int64(len(body)) > limit:
		r.Body = io.NopCloser(io.MultiReader(bytes.NewReader(body), r.Body))
		return sum, false
	}
	r.Body = io.NopCloser(bytes.NewReader(body))
	h := sha256.New()
	io.WriteString(h, r.Method+" "+r.URL.Path+"\x00")
	h.Write(body)
	h.Sum(sum[:0])
	return sum, true
}

// errReader fails every read with err.
type errReader struct{ err error }

func (e errReader) Read([]byte) (int, error) { return 0, e.err }

// replay sends a kept answer again and journals the request as a replay:
// all but its last byte, then the entry, then the last byte, as deliver
// does. A stream goes out as the same events, at once: the session's
// pacing applied to the first delivery only. A session deleted meanwhile
// records nothing.
func replay(w http.ResponseWriter, x *provider.Exchange, a *runtime.IdempotentAnswer) {
	h := w.Header()
	for k, vs := range a.Header {
		h[k] = vs
	}
	h.Set(HeaderIdempotentReplayed, "true")
	w.WriteHeader(a.Status)
	body := a.Body
	var err error
	if len(body) > 0 {
		_, err = w.Write(body[:len(body)-1])
	}
	x.Entry.Status, x.Entry.Replay, x.Entry.Model, x.Entry.Stream = a.Status, true, a.Model, a.Stream
	if err != nil {
		x.Entry.Status = apierr.StatusClientClosed
	} else {
		replayed(&x.Entry, x.Runtime, a)
	}
	if !superseded(x.Ctx) {
		x.Entry.Duration = x.Runtime.Now().Sub(x.Entry.Time)
		x.Runtime.Record(x.Entry)
	}
	if err == nil && len(body) > 0 {
		w.Write(body[len(body)-1:])
	}
}

// capture returns the writer the answer is delivered through, which
// copies what it passes on.
func (i *idempotent) capture(w http.ResponseWriter) http.ResponseWriter {
	return &capturingWriter{ResponseWriter: w, idem: i}
}

// release keeps the answer if it was delivered whole and successfully (a
// 2xx the journal shows without an error code, every byte written, within
// the bound), and lets the key go otherwise, so that a retry gets the next
// reply. It runs once the request is over, its last bytes written.
func (i *idempotent) release() {
	defer i.claim.Release()
	e := &i.x.Entry
	// A faulted answer is never kept, even one that reached the client as
	// a clean 200 (a malformed body): the retry it provokes must get the
	// next reply, as it would without the key.
	if i.over || i.failed || i.status < 200 || i.status > 299 || e.Status != i.status || e.ErrorCode != "" || e.Fault != "" {
		return
	}
	i.claim.Keep(&runtime.IdempotentAnswer{Status: i.status, Header: i.header, Body: i.body,
		Model: e.Model, Stream: e.Stream})
}

// capturingWriter passes an answer on and copies it for its idempotent
// request.
type capturingWriter struct {
	http.ResponseWriter
	idem  *idempotent
	wrote bool
}

func (c *capturingWriter) WriteHeader(status int) {
	if !c.wrote {
		c.wrote = true
		i := c.idem
		i.status, i.header = status, maps.Clone(c.Header())
		for _, vs := range i.header {
			for _, v := range vs {
				i.limit -= int64(len(v))
			}
		}
	}
	c.ResponseWriter.WriteHeader(status)
}

func (c *capturingWriter) Write(p []byte) (int, error) {
	if !c.wrote {
		c.WriteHeader(http.StatusOK)
	}
	n, err := c.ResponseWriter.Write(p)
	i := c.idem
	if err != nil {
		i.failed = true
	}
	if !i.over {
		if int64(len(i.body)+n) > i.limit {
			i.over, i.body = true, nil
		} else {
			i.body = append(i.body, p[:n]...)
		}
	}
	return n, err
}

// Flush implements http.Flusher, so that paced streams go out event by
// event.
func (c *capturingWriter) Flush() {
	if f, ok := c.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

// Unwrap lets http.ResponseController reach the connection.
func (c *capturingWriter) Unwrap() http.ResponseWriter { return c.ResponseWriter }
