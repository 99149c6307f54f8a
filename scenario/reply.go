package scenario

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/llmtestserver/llmtestserver/internal/plainjson"
)

// Reply is one scripted answer of the model. Exactly one of Text, ToolCalls,
// JSON, Refusal, Vectors, Error and Func says what it is; Text may
// accompany ToolCalls. An error inside a stream after some events
// (Error.InStream with Error.AfterEvents) may accompany the content it
// streams first. Fault and Stream change how the reply is delivered.
type Reply struct {
	// Text is the assistant message.
	Text string
	// ToolCalls are calls the model asks the client to run, in parallel
	// when there are several.
	ToolCalls []ToolCall
	// JSON is a structured-output answer. It is checked against the
	// request's JSON schema and a mismatch is recorded.
	JSON json.RawMessage
	// Refusal is a refusal message instead of an answer.
	Refusal string
	// RefusalCategory is the policy category of a Refusal, which Anthropic
	// names in stop_details: one of RefusalCategories; empty sends null.
	// The OpenAI codecs do not show it.
	RefusalCategory string
	// Thinking is the model's reasoning before its answer. Codecs that
	// show reasoning render it: Anthropic as a thinking block with a
	// signature; the Responses API, for a reasoning model asked for a
	// reasoning summary, as the summary of its reasoning item (one
	// summary_text part per section, a section starting at each blank
	// line followed by "**", the bold title real summaries open with).
	// Chat Completions shows none of it. Every codec counts it as
	// reasoning tokens.
	Thinking string
	// RedactedThinking are the data of reasoning the provider's safety
	// systems encrypted: Anthropic renders each as a redacted_thinking
	// block after the thinking, with data the server can verify when the
	// client sends it back. The OpenAI codecs do not show them.
	RedactedThinking []string
	// WebSearches are searches the model ran on the provider's side before
	// answering (see WebSearch), and Citations the passages of their
	// results that Text cites (see Citation).
	WebSearches []WebSearch
	Citations   []Citation
	// Iterations and AppliedEdits are what a beta request's usage and
	// context management report (see Iteration, AppliedEdit); unscripted,
	// both are null.
	Iterations   []Iteration
	AppliedEdits []AppliedEdit
	// Error answers with an HTTP error instead.
	Error *Error
	// Vectors answer an embeddings request: vector i embeds input i; inputs
	// past the last vector get computed ones.
	Vectors [][]float32
	// Func computes the reply from the request. It works in-process only.
	Func func(*Request) Reply

	// FinishReason overrides why the model stopped: a FinishKind ("stop",
	// "tool_calls", "length", "content_filter", "refusal", "pause_turn",
	// "model_context_window_exceeded", "stop_sequence"), or Anthropic's
	// word for one ("end_turn", "tool_use", "max_tokens"), which means the
	// same on every provider.
	FinishReason FinishKind
	// Usage overrides the token counts.
	Usage *Usage
	// Model overrides the model named in the answer.
	Model string
	// Delay holds the answer back for this long before any byte of the
	// response is written: 0 to MaxDelay. In JSON it is delay_ms, whole
	// milliseconds.
	Delay time.Duration
	// Fault makes the delivery fail at the transport: a dropped
	// connection, a hang, a stream cut or malformed after some events (see
	// FaultKind). A fired fault counts as delivered: the next request
	// gets the next reply.
	Fault *Fault
	// Stream paces this reply's stream instead of the session's stream
	// settings. In JSON it is stream: {ttft_ms, tokens_per_second,
	// tokens_per_chunk}.
	Stream *Pacing
	// Job times the job the request starts (a video, a batch, a
	// background response) on the session's clock, and says how it ends;
	// nil takes the defaults of JobPlan. Requests that start no job
	// ignore it.
	Job *JobPlan

	// ScriptedAt is the file:line of the test's call that scripted the
	// reply, which the journal and failure messages name; Builder sets it.
	// It is not part of the JSON form.
	ScriptedAt string
}

// MaxDelay is the longest a reply may be held back: a day, longer than any
// client waits, so a reply can stand for a hang.
const MaxDelay = 24 * time.Hour

// MaxUsageTokens is the largest token count a usage override may set.
const MaxUsageTokens = 1_000_000_000

// Error is a scripted HTTP error.
type Error struct {
	// Kind is what went wrong, in words every codec maps to its own; empty
	// means the kind Status stands for (see KindOfStatus).
	Kind ErrorKind `json:"kind,omitempty"`
	// Status is the HTTP status, such as 429 or 500: 400 to 599. With a
	// Kind it may be 0, and each codec then answers with its own status
	// for the kind: overloaded is 503 for OpenAI and 529 for Anthropic.
	Status int `json:"status,omitempty"`
	// Code is the error code, such as "rate_limit_exceeded".
	Code string `json:"code,omitempty"`
	// Type is the provider's error type, such as OpenAI's "tokens"; empty
	// derives it from the kind. A codec uses it only when it is one of its
	// own types, so a type scripted for one provider never reaches another.
	Type string `json:"type,omitempty"`
	// Param names the offending parameter, if any.
	Param string `json:"param,omitempty"`
	// Message is the error message; empty derives one from the status.
	Message string `json:"message,omitempty"`
	// Headers are extra response headers, such as Retry-After. They may not
	// set the headers that frame the response, which the server owns:
	// Content-Length, Content-Type, Content-Encoding, Transfer-Encoding,
	// Connection and the other hop-by-hop headers.
	Headers map[string]string `json:"headers,omitempty"`
	// InStream delivers the error inside the stream of a streaming request,
	// after its 200, as the real API reports trouble that starts once a
	// stream is under way: an error event in a Chat Completions stream,
	// response.failed in a Responses stream. Requests that do not stream
	// get the HTTP error.
	InStream bool `json:"in_stream,omitempty"`
	// AfterEvents, with InStream, sends the first AfterEvents events of
	// the reply's stream before the error event: 0 to MaxFaultEvents. A
	// count at or past the stream's length fails in place of its last
	// event, so the stream never completes. 0 fails the stream at once,
	// in each provider's own shape: a Responses stream always announces
	// its response first (response.created and response.in_progress), so
	// that 0, 1 and 2 fail it right after those two. With a count above 0
	// the reply may carry text, tool_calls, json or a refusal to stream
	// first.
	AfterEvents int `json:"after_events,omitempty"`
}

// Kind names what a reply is: "text", "tool_calls", "json", "refusal",
// "vectors", "error" or "func".
func (r *Reply) Kind() string {
	switch {
	case r.Func != nil:
		return "func"
	case r.Error != nil:
		return "error"
	case r.Vectors != nil:
		return "vectors"
	case len(r.ToolCalls) > 0:
		return "tool_calls"
	case r.JSON != nil:
		return "json"
	case r.Refusal != "":
		return "refusal"
	default:
		return "text"
	}
}

// Constructors for replies, for use with Builder.Reply.

// Text answers with a message.
func Text(text string) Reply { return Reply{Text: text} }

// CallTool asks the client to run the function name with the JSON arguments.
func CallTool(name, arguments string) Reply {
	return Reply{ToolCalls: []ToolCall{{Name: name, Arguments: arguments}}}
}

// CallTools asks the client to run several calls in parallel.
func CallTools(calls ...ToolCall) Reply { return Reply{ToolCalls: calls} }

// JSON answers with v encoded as JSON, for structured outputs. It panics if v
// cannot be encoded, which is a mistake in the test.
func JSON(v any) Reply {
	b, err := plainjson.Marshal(v)
	if err != nil {
		panic(fmt.Sprintf("scenario.JSON: %v", err))
	}
	return Reply{JSON: b}
}

// Vectors answers an embeddings request with these vectors, one per input.
func Vectors(vectors ...[]float32) Reply { return Reply{Vectors: vectors} }

// Think is a text reply preceded by the model's reasoning, which
// Anthropic's codec renders as a thinking block with its signature and the
// Responses API as the reasoning summary of a reasoning model asked for one.
func Think(thinking, text string) Reply { return Reply{Thinking: thinking, Text: text} }

// Refuse answers with a refusal.
func Refuse(message string) Reply { return Reply{Refusal: message} }

// RefuseAs answers with a refusal of a policy category, one of
// RefusalCategories, which Anthropic's stop_details names.
func RefuseAs(category, message string) Reply {
	return Reply{Refusal: message, RefusalCategory: category}
}

// RefusalCategories are the policy categories Anthropic's refusals name
// (anthropic-sdk-go's RefusalStopDetailsCategory).
var RefusalCategories = []string{"cyber", "bio", "frontier_llm", "reasoning_extraction", "general_harms"}

// Fail answers with an HTTP error of the given status and code.
func Fail(status int, code, message string) Reply {
	return Reply{Error: &Error{Status: status, Code: code, Message: message}}
}

// RateLimited answers 429 rate_limit_exceeded with Retry-After: 0, so
// the SDKs that retry do so at once.
func RateLimited() Reply { return RateLimitedFor(0) }

// RateLimitedFor answers 429 rate_limit_exceeded asking the client to wait
// d before it retries, as the real APIs do: Retry-After in whole seconds
// (rounded up) and retry-after-ms, which openai-go and anthropic-sdk-go
// read first. A negative d counts as 0.
func RateLimitedFor(d time.Duration) Reply {
	ms := (max(d, 0) + time.Millisecond - 1) / time.Millisecond
	return Reply{Error: &Error{Status: http.StatusTooManyRequests, Code: "rate_limit_exceeded", Type: "tokens",
		Headers: map[string]string{"Retry-After": strconv.FormatInt(int64((ms+999)/1000), 10),
			"Retry-After-Ms": strconv.FormatInt(int64(ms), 10)}}}
}

// FailStream answers a streaming request with a 200 whose stream fails at
// once with code and message (a Chat Completions error event, a Responses
// response.failed); a request that does not stream gets a 500 instead.
func FailStream(code, message string) Reply {
	return Reply{Error: &Error{Status: http.StatusInternalServerError, Code: code, Message: message, InStream: true}}
}

// Respond computes the reply from the request with fn. It works in-process
// only.
func Respond(fn func(*Request) Reply) Reply { return Reply{Func: fn} }

// Validate reports what makes r unusable, naming the offending field.
func (r *Reply) Validate() error {
	// An error part-way through a stream follows the content it streams
	// first, so it is no kind of its own.
	errorAfter := r.Error != nil && r.Error.InStream && r.Error.AfterEvents > 0
	kinds := 0
	for _, set := range []bool{r.Func != nil, r.Error != nil && !errorAfter, r.JSON != nil, r.Refusal != "", r.Vectors != nil} {
		if set {
			kinds++
		}
	}
	if kinds > 1 || kinds == 1 && (r.Text != "" || len(r.ToolCalls) > 0) {
		return errors.New("kind: a reply is one of text (with optional tool_calls), json, refusal, vectors, error or a Go function")
	}
	if r.Thinking != "" && (r.Error != nil && !errorAfter || r.Vectors != nil || r.Func != nil) {
		return errors.New("thinking: accompanies a text, tool_calls, json or refusal reply")
	}
	if r.RefusalCategory != "" && (r.Refusal == "" || !slices.Contains(RefusalCategories, r.RefusalCategory)) {
		return fmt.Errorf("refusal_category: accompanies a refusal, and is one of %s", strings.Join(RefusalCategories, ", "))
	}
	if r.Delay < 0 || r.Delay > MaxDelay {
		return fmt.Errorf("delay_ms: must be between 0 and %d (%v)", MaxDelay.Milliseconds(), MaxDelay)
	}
	if u := r.Usage; u != nil {
		if err := u.validate(); err != nil {
			return err
		}
	}
	for i, v := range r.Vectors {
		for j, x := range v {
			if math.IsNaN(float64(x)) || math.IsInf(float64(x), 0) {
				return fmt.Errorf("vectors[%d][%d]: must be a finite number", i, j)
			}
		}
	}
	if r.JSON != nil && !json.Valid(r.JSON) {
		return errors.New("json: is not valid JSON")
	}
	for i, c := range r.ToolCalls {
		if c.Name == "" {
			return fmt.Errorf("tool_calls[%d].name: must not be empty", i)
		}
		if c.Arguments != "" && !json.Valid([]byte(c.Arguments)) {
			return fmt.Errorf("tool_calls[%d].arguments: is not valid JSON", i)
		}
	}
	if e := r.Error; e != nil {
		if e.Kind != "" && !e.Kind.Valid() {
			return fmt.Errorf("error.kind: %q is not one of invalid_request, authentication, permission, not_found, conflict, request_too_large, rate_limit, overloaded, server, timeout", e.Kind)
		}
		if (e.Status != 0 || e.Kind == "") && (e.Status < 400 || e.Status > 599) {
			return errors.New("error.status: must be an HTTP error status (400-599)")
		}
		if err := validateHeaders(e.Headers); err != nil {
			return err
		}
		if e.AfterEvents != 0 && !e.InStream {
			return errors.New("error.after_events: needs error.in_stream: an HTTP error has no events before it")
		}
		if e.AfterEvents < 0 || e.AfterEvents > MaxFaultEvents {
			return fmt.Errorf("error.after_events: must be between 0 and %d", MaxFaultEvents)
		}
		if r.Vectors != nil && errorAfter {
			return errors.New("error.after_events: an embeddings reply has no stream")
		}
	}
	if r.Fault != nil {
		if err := r.Fault.validate(r); err != nil {
			return err
		}
	}
	if r.Stream != nil {
		if err := r.Stream.validate(); err != nil {
			return err
		}
	}
	if _, ok := NormalizeFinish(r.FinishReason); !ok {
		return fmt.Errorf("finish_reason: %q is not one of stop, tool_calls, length, content_filter, refusal, pause_turn, model_context_window_exceeded, stop_sequence (or end_turn, tool_use, max_tokens)", r.FinishReason)
	}
	if err := r.validateJob(); err != nil {
		return err
	}
	return r.validateBlocks()
}

// replyJSON is the wire form of Reply: durations travel as milliseconds.
type replyJSON struct {
	Text         string          `json:"text,omitempty"`
	ToolCalls    []ToolCall      `json:"tool_calls,omitempty"`
	JSON         json.RawMessage `json:"json,omitempty"`
	Refusal      string          `json:"refusal,omitempty"`
	RefusalCat   string          `json:"refusal_category,omitempty"`
	Thinking     string          `json:"thinking,omitempty"`
	Redacted     []string        `json:"redacted_thinking,omitempty"`
	WebSearches  []WebSearch     `json:"web_searches,omitempty"`
	Citations    []Citation      `json:"citations,omitempty"`
	Iterations   []Iteration     `json:"iterations,omitempty"`
	AppliedEdits []AppliedEdit   `json:"applied_edits,omitempty"`
	Error        *Error          `json:"error,omitempty"`
	Vectors      [][]float32     `json:"vectors,omitempty"`
	FinishReason string          `json:"finish_reason,omitempty"`
	Usage        *Usage          `json:"usage,omitempty"`
	Model        string          `json:"model,omitempty"`
	DelayMS      int64           `json:"delay_ms,omitempty"`
	Fault        *Fault          `json:"fault,omitempty"`
	Stream       *Pacing         `json:"stream,omitempty"`
	Job          *JobPlan        `json:"job,omitempty"`
}

// MarshalJSON encodes the delay as delay_ms (and a stream's pacing in
// milliseconds likewise); it fails with
// ErrInProcessOnly for a Go responder.
func (r Reply) MarshalJSON() ([]byte, error) {
	if r.Func != nil {
		return nil, ErrInProcessOnly
	}
	return plainjson.Marshal(replyJSON{Text: r.Text, ToolCalls: r.ToolCalls, JSON: r.JSON, Refusal: r.Refusal, RefusalCat: r.RefusalCategory,
		Thinking: r.Thinking, Redacted: r.RedactedThinking, WebSearches: r.WebSearches, Citations: r.Citations,
		Iterations: r.Iterations, AppliedEdits: r.AppliedEdits,
		Error: r.Error, Vectors: r.Vectors, FinishReason: r.FinishReason, Usage: r.Usage, Model: r.Model, DelayMS: r.Delay.Milliseconds(),
		Fault: r.Fault, Stream: r.Stream, Job: r.Job})
}

// UnmarshalJSON decodes delay_ms into Delay and refuses unknown fields, so a
// misspelt field is an error rather than a silently ignored setting.
func (r *Reply) UnmarshalJSON(data []byte) error {
	var w replyJSON
	if err := decodeStrict(data, &w); err != nil {
		return err
	}
	*r = Reply{Text: w.Text, ToolCalls: w.ToolCalls, JSON: w.JSON, Refusal: w.Refusal, RefusalCategory: w.RefusalCat, Thinking: w.Thinking,
		RedactedThinking: w.Redacted, WebSearches: w.WebSearches, Citations: w.Citations,
		Iterations: w.Iterations, AppliedEdits: w.AppliedEdits, Error: w.Error, Vectors: w.Vectors,
		FinishReason: w.FinishReason, Usage: w.Usage, Model: w.Model, Delay: delayOf(w.DelayMS), Fault: w.Fault, Stream: w.Stream, Job: w.Job}
	return nil
}

// delayOf converts delay_ms into a Delay. Values out of range saturate just
// past it instead of wrapping around, so that Validate refuses them.
func delayOf(ms int64) time.Duration {
	switch {
	case ms < 0:
		return -time.Millisecond
	case ms > MaxDelay.Milliseconds():
		return MaxDelay + time.Millisecond
	}
	return time.Duration(ms) * time.Millisecond
}
