package httpx

import (
	"io"
	"net/http"

	"github.com/llmtestserver/llmtestserver/internal/apierr"
	"github.com/llmtestserver/llmtestserver/internal/provider"
	"github.com/llmtestserver/llmtestserver/journal"
	"github.com/llmtestserver/llmtestserver/scenario"
)

// faultPlan is how the delivery of an answer fails, as its reply scripts
// it (see scenario.FaultKind and scenario.Error.AfterEvents). The zero
// plan delivers the answer whole.
type faultPlan struct {
	kind  string // a scenario.FaultKind, scenario.FaultErrorEvent, or "" for none
	after int    // events sent before a stream's fault fires
	err   *apierr.Error
	fired bool // deliver wrote what comes before the fault
}

// planFault reads the plan off the settled reply. An error inside the
// stream is resolved in the codec's words, as its error event shows it.
func planFault(x *provider.Exchange, codec provider.Codec) faultPlan {
	switch {
	case x.Fault != nil:
		return faultPlan{kind: string(x.Fault.Kind), after: x.Fault.AfterEvents}
	case x.StreamError != nil:
		return faultPlan{kind: scenario.FaultErrorEvent, after: x.StreamError.AfterEvents,
			err: codec.Resolve(apierr.Scripted(x.StreamError))}
	}
	return faultPlan{}
}

// fires reports whether the plan changes the delivery of res: an answer
// it fails, not an error that replaced it (a client that left, or a hang,
// which answer.settle ran).
func (p *faultPlan) fires(res *provider.Response) bool {
	return p.kind != "" && p.kind != string(scenario.FaultHang) && res.Err == nil
}

// stop returns the index of the event the plan fires in place of, in s:
// its last event unless the fault comes sooner, so that a faulted stream
// never completes. An error event never comes before the events a failing
// stream always opens with; a cut or a malformed event may.
func (p *faultPlan) stop(s provider.EventStream) int {
	n := s.Len()
	if p.kind == "" || n == 0 {
		return n - 1
	}
	after := p.after
	if fs, ok := s.(provider.FailingStream); ok && p.kind == scenario.FaultErrorEvent {
		after = max(after, fs.Opening())
	}
	return min(after, n-1)
}

// last returns what is written in place of event i of s: the held event,
// the error event or the malformed event. abort reports that the
// connection is cut there instead, as it is for a cut and for a stream
// that cannot fail part-way.
func (p *faultPlan) last(s provider.EventStream, out io.Writer, i int) (write func() error, abort bool) {
	fs, failing := s.(provider.FailingStream)
	switch {
	case p.kind == string(scenario.FaultCut) || p.kind != "" && !failing:
		return func() error { return nil }, true
	case p.kind == string(scenario.FaultMalformed):
		return func() error { return fs.WriteMalformedEvent(out, i) }, false
	case p.kind == scenario.FaultErrorEvent:
		return func() error { return fs.WriteErrorEvent(out, i, p.err) }, false
	case i < 0:
		return func() error { return nil }, false
	}
	return func() error { return s.WriteEvent(out, i) }, false
}

// journal fills in the entry of a request whose delivery ended with
// status. A fault that never fired names none in the entry: the client
// left before it (and the reply went back to its queue), or the route
// answered an error instead.
func (p *faultPlan) journal(e *journal.Entry, status int) {
	transport := p.kind != "" && p.kind != string(scenario.FaultHang)
	if transport && !p.fired || status == apierr.StatusClientClosed && e.Fault != string(scenario.FaultHang) {
		if e.Fault == scenario.FaultErrorEvent && p.err != nil {
			e.ErrorCode, e.ErrorMessage = "", ""
		}
		e.Fault = ""
		return
	}
	if p.err != nil {
		e.ErrorCode, e.ErrorMessage = p.err.JournalCode(), p.err.Message
	}
}

// abort cuts the connection of w mid-response: what was written is
// flushed to the client first, then net/http closes the connection
// without ending the body, so the client reads an unexpected EOF (or,
// before any byte, an EOF). It must be called once the request is on
// record, as the last thing the handler does.
func abort(w http.ResponseWriter, flush bool) {
	if flush {
		http.NewResponseController(w).Flush()
	}
	panic(http.ErrAbortHandler)
}
