package httpx_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/llmtestserver/llmtestserver/internal/apierr"
	"github.com/llmtestserver/llmtestserver/internal/httpx"
	"github.com/llmtestserver/llmtestserver/internal/provider"
	"github.com/llmtestserver/llmtestserver/internal/runtime"
	"github.com/llmtestserver/llmtestserver/journal"
	"github.com/llmtestserver/llmtestserver/scenario"
)

// fakeCodec is a provider of the tests' own: its key is X-Fake-Key, its
// errors {"error": {"code", "message"}}, its version header X-Fake-Version.
type fakeCodec struct{}

func (fakeCodec) Name() string              { return "fake" }
func (fakeCodec) Routes() []provider.Route  { return nil }
func (fakeCodec) Claims(*http.Request) bool { return true }
func (fakeCodec) Catalog() []string         { return []string{"m"} }
func (fakeCodec) BasePath() string          { return "" }
func (fakeCodec) APIKey(r *http.Request) (string, bool) {
	k := r.Header.Get("X-Fake-Key")
	return k, k != ""
}
func (fakeCodec) AuthError(missing bool, key string) *apierr.Error {
	return &apierr.Error{Status: http.StatusUnauthorized, Code: "bad_key", Message: fmt.Sprintf("missing %v, key %q", missing, key)}
}
func (fakeCodec) Resolve(e *apierr.Error) *apierr.Error {
	out := *e
	if out.Status == 0 {
		out.Status = http.StatusServiceUnavailable
	}
	if out.Code == "" {
		out.Code = "fake_" + string(out.Kind)
	}
	return &out
}
func (fakeCodec) RenderError(e *apierr.Error, _ uint64) (int, any) {
	return e.Status, map[string]any{"error": map[string]string{"code": e.Code, "message": e.Message}}
}
func (fakeCodec) SetHeaders(h http.Header, serial uint64, _ time.Duration) {
	h.Set("X-Fake-Request", fmt.Sprint(serial))
}
func (fakeCodec) ModelNotFound(model string, _ []string, _ bool) *apierr.Error {
	return &apierr.Error{Status: http.StatusNotFound, Code: "no_model", Message: model}
}
func (fakeCodec) RequestHeaders(h http.Header) provider.RequestHeaders {
	return provider.RequestHeaders{APIVersion: h.Get("X-Fake-Version")}
}

// events is a failing stream of n events "e0".."e<n-1>", which always
// opens with opening events before a failure.
type events struct{ n, opening int }

func (s events) Len() int     { return s.n }
func (s events) Opening() int { return s.opening }
func (s events) WriteEvent(w io.Writer, i int) error {
	_, err := fmt.Fprintf(w, "data: e%d\n\n", i)
	return err
}
func (s events) WriteErrorEvent(w io.Writer, i int, e *apierr.Error) error {
	_, err := fmt.Fprintf(w, "data: error %s at %d\n\n", e.Code, i)
	return err
}
func (s events) WriteMalformedEvent(w io.Writer, i int) error {
	_, err := fmt.Fprintf(w, "data: {\"broken\n\n")
	return err
}

func newRuntime() *runtime.Runtime {
	return runtime.New(runtime.Settings{JournalCapacity: 10, JournalMaxBytes: 1 << 20, JournalBodyBytes: 1 << 10, APIKey: "right"})
}

// serve runs one request through httpx.Serve with route, on rt, and
// returns what the client got; a deliberate abort is reported as aborted.
func serve(t *testing.T, rt *runtime.Runtime, r *http.Request, route func(*provider.Exchange) provider.Response, atDefault bool) (w *httptest.ResponseRecorder, aborted bool) {
	t.Helper()
	w = httptest.NewRecorder()
	func() {
		defer func() {
			if p := recover(); p != nil {
				require.Equal(t, http.ErrAbortHandler, p, "the handler panicked")
				aborted = true
			}
		}()
		httpx.Serve(w, r, rt, fakeCodec{}, provider.Route{Serve: route}, 1<<20, atDefault, nil)
	}()
	return w, aborted
}

func request(key string) *http.Request {
	r := httptest.NewRequest(http.MethodPost, "/v1/fake", strings.NewReader(`{"model":"m"}`))
	r.Header.Set("X-Fake-Key", key)
	r.Header.Set("X-Fake-Version", "2026-12-01")
	return r
}

func lastEntry(t *testing.T, rt *runtime.Runtime) journal.Entry {
	t.Helper()
	e, ok := rt.Journal().Last()
	require.True(t, ok, "nothing was journaled")
	return e
}

// A route's JSON answer is delivered with the codec's headers, and the
// journal has the request: what the codec read of its headers, the model
// the route names, the status; what runs once delivered runs.
func TestServeDeliversAndJournals(t *testing.T) {
	rt := newRuntime()
	delivered := false
	w, _ := serve(t, rt, request("right"), func(x *provider.Exchange) provider.Response {
		body, err := x.ReadBody()
		require.Nil(t, err)
		require.JSONEq(t, `{"model":"m"}`, string(body))
		return provider.Response{JSON: map[string]string{"answer": "yes"}, Model: "m", Delivered: func() { delivered = true }}
	}, false)
	require.Equal(t, http.StatusOK, w.Code)
	assert.JSONEq(t, `{"answer":"yes"}`, w.Body.String())
	assert.NotEmpty(t, w.Header().Get("X-Fake-Request"))
	assert.True(t, delivered)
	e := lastEntry(t, rt)
	assert.Equal(t, "fake", e.Provider)
	assert.Equal(t, "/v1/fake", e.Path)
	assert.Equal(t, http.StatusOK, e.Status)
	assert.Equal(t, "m", e.Model)
	assert.Equal(t, "2026-12-01", e.APIVersion)
	assert.Equal(t, `{"model":"m"}`, e.Body)
}

// A wrong or missing provider key is refused in the codec's words, before
// the route runs, and journaled; at the default runtime a key it does not
// know gets a hint that the session's client was not used.
func TestServeChecksTheProviderKey(t *testing.T) {
	rt := newRuntime()
	ran := false
	route := func(*provider.Exchange) provider.Response { ran = true; return provider.Response{JSON: "x"} }
	w, _ := serve(t, rt, request("wrong"), route, false)
	assert.Equal(t, http.StatusUnauthorized, w.Code)
	assert.Contains(t, w.Body.String(), `"code":"bad_key"`)
	assert.NotContains(t, w.Body.String(), "session headers")
	assert.False(t, ran)
	assert.Equal(t, "bad_key", lastEntry(t, rt).ErrorCode)

	w, _ = serve(t, rt, request(""), route, true)
	assert.Contains(t, w.Body.String(), "missing true")
	assert.NotContains(t, w.Body.String(), "session headers", "no key, no hint")
	w, _ = serve(t, rt, request("provider-key"), route, true)
	assert.Contains(t, w.Body.String(), "session headers", "a provider key at the default runtime")
	assert.False(t, ran)
}

// A route's error is resolved and rendered by the codec, with its headers,
// and journaled with its code and message.
func TestServeRendersErrorsInTheCodecsWords(t *testing.T) {
	rt := newRuntime()
	w, _ := serve(t, rt, request("right"), func(*provider.Exchange) provider.Response {
		return provider.Response{Err: (&apierr.Error{Kind: scenario.ErrorOverloaded, Message: "busy"}).WithHeader("Retry-After", "3")}
	}, false)
	assert.Equal(t, http.StatusServiceUnavailable, w.Code)
	assert.JSONEq(t, `{"error":{"code":"fake_overloaded","message":"busy"}}`, w.Body.String())
	assert.Equal(t, "3", w.Header().Get("Retry-After"))
	e := lastEntry(t, rt)
	assert.Equal(t, "fake_overloaded", e.ErrorCode)
	assert.Equal(t, "busy", e.ErrorMessage)
}

// An error scripted inside a stream fails it through the stream's own
// error event, after its events, never before those a failure of the
// stream always follows; the journal names the fault and the error.
func TestServeFailsAStreamAfterItsEvents(t *testing.T) {
	for _, tt := range []struct {
		after, opening int
		want           string
	}{
		{0, 0, "data: error fake_overloaded at 0\n\n"},
		{2, 0, "data: e0\n\ndata: e1\n\ndata: error fake_overloaded at 2\n\n"},
		{0, 2, "data: e0\n\ndata: e1\n\ndata: error fake_overloaded at 2\n\n"},
		{9, 0, "data: e0\n\ndata: e1\n\ndata: e2\n\ndata: error fake_overloaded at 3\n\n"},
	} {
		rt := newRuntime()
		delivered := false
		w, aborted := serve(t, rt, request("right"), func(x *provider.Exchange) provider.Response {
			x.StreamError = &scenario.Error{Kind: scenario.ErrorOverloaded, InStream: true, AfterEvents: tt.after}
			x.Entry.Fault = scenario.FaultErrorEvent
			return provider.Response{SSE: events{n: 4, opening: tt.opening}, Delivered: func() { delivered = true }}
		}, false)
		require.False(t, aborted)
		assert.Equal(t, tt.want, w.Body.String(), "after %d, opening %d", tt.after, tt.opening)
		assert.True(t, delivered, "a stream failed by its error event is a whole answer")
		e := lastEntry(t, rt)
		assert.Equal(t, scenario.FaultErrorEvent, e.Fault)
		assert.Equal(t, "fake_overloaded", e.ErrorCode)
		assert.Equal(t, 1, rt.Faults()[scenario.FaultErrorEvent])
	}
}

// A cut stream sends its first events and aborts the connection, after
// the journal has the request; what runs once delivered does not run.
func TestServeCutsAStream(t *testing.T) {
	rt := newRuntime()
	delivered := false
	w, aborted := serve(t, rt, request("right"), func(x *provider.Exchange) provider.Response {
		x.Fault = &scenario.Fault{Kind: scenario.FaultCut, AfterEvents: 1}
		x.Entry.Fault = string(scenario.FaultCut)
		return provider.Response{SSE: events{n: 4, opening: 3}, Delivered: func() { delivered = true }}
	}, false)
	assert.True(t, aborted)
	assert.Equal(t, "data: e0\n\n", w.Body.String(), "a cut is not held to the stream's opening")
	assert.False(t, delivered)
	assert.Equal(t, string(scenario.FaultCut), lastEntry(t, rt).Fault)
}

// A client that leaves while the answer is computed gets nothing: the
// reply goes back to its queue and the journal records a 499.
func TestServeGivesTheReplyBackWhenTheClientLeaves(t *testing.T) {
	rt := newRuntime()
	rt.AddReplies("s", scenario.Match{}, scenario.Text("kept"))
	ctx, cancel := context.WithCancel(t.Context())
	w, _ := serve(t, rt, request("right").WithContext(ctx), func(x *provider.Exchange) provider.Response {
		res, err := rt.ReserveAfter(&scenario.Request{Model: "m"}, "", runtime.Earlier{})
		require.Nil(t, err)
		cancel()
		return provider.Response{JSON: "never sent", Reservation: res}
	}, false)
	assert.NotContains(t, w.Body.String(), "never sent")
	assert.Equal(t, 1, rt.Pending(), "the reply is back in its queue")
	assert.Equal(t, apierr.StatusClientClosed, lastEntry(t, rt).Status)
}

// A session deleted while its request is answered gets a 409 and nothing
// journaled: a deleted session is never written to.
func TestServeSupersedesADeletedSession(t *testing.T) {
	rt := newRuntime()
	w, _ := serve(t, rt, request("right"), func(x *provider.Exchange) provider.Response {
		rt.Retire()
		<-x.Ctx.Done()
		return provider.Response{JSON: "never sent"}
	}, false)
	assert.Equal(t, http.StatusConflict, w.Code)
	var env struct {
		Error struct{ Code string } `json:"error"`
	}
	require.NoError(t, json.Unmarshal(w.Body.Bytes(), &env))
	assert.Equal(t, "llm_test_server_request_superseded", env.Error.Code)
	assert.Zero(t, rt.Journal().Len())

}

// A request that selected a session the moment before it was deleted or
// evicted, and so begins on a retired runtime, was never in flight: it
// gets the 404 session_not_found of every request after the deletion, not
// the 409 of one the deletion cut short, and runs no route.
func TestServeOnARetiredRuntimeIsNotFound(t *testing.T) {
	rt := newRuntime()
	rt.Retire()
	w, _ := serve(t, rt, request("right"), func(*provider.Exchange) provider.Response {
		t.Error("a request to a deleted session ran its route")
		return provider.Response{}
	}, false)
	assert.Equal(t, http.StatusNotFound, w.Code)
	assert.Contains(t, w.Body.String(), "session_not_found")
	assert.NotEmpty(t, w.Header().Get("X-Fake-Request"), "the codec's headers are missing")
	assert.Zero(t, rt.Journal().Len())
}
