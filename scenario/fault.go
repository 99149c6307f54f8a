package scenario

import (
	"errors"
	"fmt"
	"math"
	"time"

	"github.com/llmtestserver/llmtestserver/internal/plainjson"
)

// FaultKind names how a reply misbehaves at the transport level.
type FaultKind string

// The faults a reply can script. Each is defined once, in words of no
// provider, and fires on every codec's response (OpenAI Chat Completions
// and Responses, Anthropic Messages).
const (
	// FaultDrop closes the connection before any byte of the response:
	// the client sees an EOF or a reset, streamed or not. The journal
	// records status 0, as no status was sent.
	FaultDrop FaultKind = "drop"
	// FaultHang accepts the request and sends nothing until the client
	// gives up (its timeout or cancellation), streamed or not. The journal
	// records the client giving up (status 499). Deleting the session ends
	// the hang like any request in flight: 409 superseded, nothing
	// recorded.
	FaultHang FaultKind = "hang"
	// FaultCut sends the first AfterEvents events of a stream and then
	// aborts the connection mid-body, with no terminator, so the client
	// reads an unexpected EOF rather than a clean end. A request that does
	// not stream gets the headers and its JSON body but for the last byte,
	// then the abort.
	FaultCut FaultKind = "cut"
	// FaultMalformed sends the first AfterEvents events of a stream and
	// then one event, in the codec's framing (Anthropic's and Responses'
	// with their event line), whose data line is not valid JSON; the
	// stream ends there. A request that does not stream gets a 200 whose
	// body is not valid JSON (the answer with a stray "]" in place of its
	// closing brace), which ends cleanly.
	FaultMalformed FaultKind = "malformed"
)

// Kinds the fault counters and the journal use besides the FaultKinds: an
// in-stream error after some events, and a scripted HTTP error (any
// status; the entry's Status tells which).
const (
	FaultErrorEvent = "error_event"
	FaultHTTPError  = "http_error"
)

// MaxFaultEvents is the largest AfterEvents a fault or an in-stream error
// may name. A count at or past a stream's length fires before the stream's
// last event, so a faulted stream is never complete.
const MaxFaultEvents = 100_000

// Fault is a transport failure scripted as a reply: see the FaultKinds.
// Cut and malformed stream the reply's content up to the fault, so they
// accompany a text, tool_calls, json or refusal reply; drop and hang send
// nothing, so they stand alone.
type Fault struct {
	// Kind is what goes wrong: drop, hang, cut or malformed.
	Kind FaultKind `json:"kind"`
	// AfterEvents is how many events of a stream are sent before a cut or
	// a malformed event: 0 to MaxFaultEvents. A count at or past the
	// stream's length fires in place of the stream's last event. Drop and
	// hang take none.
	AfterEvents int `json:"after_events,omitempty"`
}

// validate reports what makes f unusable for r, naming the JSON field.
func (f *Fault) validate(r *Reply) error {
	switch f.Kind {
	case FaultDrop, FaultHang:
		if f.AfterEvents != 0 {
			return fmt.Errorf("fault.after_events: a %s sends no events; only cut and malformed take after_events", f.Kind)
		}
		if r.Error != nil || r.Stream != nil || r.Vectors != nil || r.Text != "" || len(r.ToolCalls) > 0 ||
			r.JSON != nil || r.Refusal != "" || r.Thinking != "" {
			return fmt.Errorf("fault: a %s sends nothing, so it takes no content, error or stream", f.Kind)
		}
	case FaultCut, FaultMalformed:
		if f.AfterEvents < 0 || f.AfterEvents > MaxFaultEvents {
			return fmt.Errorf("fault.after_events: must be between 0 and %d", MaxFaultEvents)
		}
		if r.Error != nil {
			return errors.New("fault: a reply with a cut or malformed stream carries no error; for an error event after some events use error.in_stream with error.after_events")
		}
	default:
		return fmt.Errorf("fault.kind: %q is not one of drop, hang, cut, malformed", f.Kind)
	}
	return nil
}

// Pacing is a reply's own stream pacing, which replaces the session's
// stream settings (time to first token and tokens per second) for this
// reply. It runs on the server's clock, so a fake clock paces it on
// virtual time. Requests that do not stream ignore it; Reply.Delay still
// holds the response back before its headers.
type Pacing struct {
	// TTFT holds the first event back: 0 to MaxDelay. In JSON it is
	// ttft_ms, whole milliseconds.
	TTFT time.Duration
	// TokensPerSecond paces the events after the first: 0 sends them at
	// once, otherwise MinTokensPerSecond to MaxTokensPerSecond.
	TokensPerSecond float64
	// TokensPerChunk is how many tokens a content event carries: 0 keeps
	// the session's, otherwise 1 to MaxTokensPerChunk.
	TokensPerChunk int
}

// Bounds of Pacing, the same as the session's stream settings.
const (
	MinTokensPerSecond = 0.1
	MaxTokensPerSecond = 1_000_000
	MaxTokensPerChunk  = 4096
)

func (p *Pacing) validate() error {
	switch {
	case p.TTFT < 0 || p.TTFT > MaxDelay:
		return fmt.Errorf("stream.ttft_ms: must be between 0 and %d", MaxDelay.Milliseconds())
	case p.TokensPerSecond != 0 && !(p.TokensPerSecond >= MinTokensPerSecond && p.TokensPerSecond <= MaxTokensPerSecond):
		return fmt.Errorf("stream.tokens_per_second: must be 0 (no pacing) or between %g and %d", MinTokensPerSecond, MaxTokensPerSecond)
	case p.TokensPerChunk < 0 || p.TokensPerChunk > MaxTokensPerChunk:
		return fmt.Errorf("stream.tokens_per_chunk: must be 0 (the session's) or between 1 and %d", MaxTokensPerChunk)
	}
	return nil
}

// pacingJSON is the wire form of Pacing.
type pacingJSON struct {
	TTFTMS          int64   `json:"ttft_ms,omitempty"`
	TokensPerSecond float64 `json:"tokens_per_second,omitempty"`
	TokensPerChunk  int     `json:"tokens_per_chunk,omitempty"`
}

// MarshalJSON encodes TTFT as ttft_ms.
func (p Pacing) MarshalJSON() ([]byte, error) {
	return plainjson.Marshal(pacingJSON{TTFTMS: p.TTFT.Milliseconds(), TokensPerSecond: p.TokensPerSecond, TokensPerChunk: p.TokensPerChunk})
}

// UnmarshalJSON decodes ttft_ms and refuses unknown fields.
func (p *Pacing) UnmarshalJSON(data []byte) error {
	var w pacingJSON
	if err := decodeStrict(data, &w); err != nil {
		return err
	}
	if math.IsNaN(w.TokensPerSecond) {
		w.TokensPerSecond = -1
	}
	*p = Pacing{TTFT: delayOf(w.TTFTMS), TokensPerSecond: w.TokensPerSecond, TokensPerChunk: w.TokensPerChunk}
	return nil
}

// Constructors for faults.

// Drop closes the connection before any byte of the response.
func Drop() Reply { return Reply{Fault: &Fault{Kind: FaultDrop}} }

// Hang sends nothing until the client gives up.
func Hang() Reply { return Reply{Fault: &Fault{Kind: FaultHang}} }

// CutAfter streams the first n events of r and then aborts the
// connection: scenario.Text("partial answer").CutAfter(3).
func (r Reply) CutAfter(n int) Reply {
	r.Fault = &Fault{Kind: FaultCut, AfterEvents: n}
	return r
}

// MalformedAfter streams the first n events of r and then one event whose
// data is not valid JSON.
func (r Reply) MalformedAfter(n int) Reply {
	r.Fault = &Fault{Kind: FaultMalformed, AfterEvents: n}
	return r
}

// FailsAfter streams the first n events of r and then the codec's error
// event with code and message (status 500 for a request that does not
// stream): scenario.Text("partial answer").FailsAfter(3, "server_error", "boom").
// For Anthropic, code may name one of its error types, such as
// "overloaded_error": the event then has that type and no error_code, and
// a request that does not stream gets the type's status (529).
func (r Reply) FailsAfter(n int, code, message string) Reply {
	r.Error = &Error{Status: 500, Code: code, Message: message, InStream: true, AfterEvents: n}
	return r
}

// FailStreamAfter is a reply without content that streams n events and then
// fails with the codec's error event; see FailsAfter.
func FailStreamAfter(n int, code, message string) Reply { return Reply{}.FailsAfter(n, code, message) }

// Paced gives r its own stream pacing: the first event after ttft, the
// others at tokensPerSecond.
func (r Reply) Paced(ttft time.Duration, tokensPerSecond float64) Reply {
	r.Stream = &Pacing{TTFT: ttft, TokensPerSecond: tokensPerSecond}
	return r
}
