package journal

import (
	"encoding/json"
	"math"
	"strings"
	"time"
	"unsafe"

	"github.com/llmtestserver/llmtestserver/internal/plainjson"
)

// Entry is one recorded request.
type Entry struct {
	// Seq numbers the entries of one journal from 1, in recording order.
	Seq uint64
	// Time is when the request arrived.
	Time time.Time
	// Duration is how long the server took to answer it.
	Duration time.Duration
	// Provider is the provider whose API the request called: "openai",
	// "anthropic", "gemini".
	Provider string
	// Endpoint is the provider operation the request called, in words of
	// no provider: "chat.completions", "responses", "messages",
	// "generate_content", "embeddings" (see scenario.Endpoint); empty for a route that is no
	// model call (count_tokens, input_tokens, stored objects).
	Endpoint string
	// Method and Path are the HTTP method and URL path of the request.
	Method, Path string
	// Status is the HTTP status the server answered with.
	Status int
	// Model is the model the request asked for.
	Model string
	// Stream reports whether the answer was streamed.
	Stream bool
	// UserText is the last user message of the request.
	UserText string
	// Request is the normalized request: what the model was sent, in
	// words of no provider.
	Request Request
	// Body is the raw request body, its first bytes up to the session's
	// journal body bound (journal.max_body_bytes), and BodyBytes the
	// length of the whole body.
	Body      string
	BodyBytes int64
	// Headers are the request headers that tell how it was sent, by
	// lowercase name, with credentials redacted (see Redacted); Client
	// is the SDK's identity among them.
	Headers map[string]string
	Client  Client
	// ReplyText is the text the server answered with.
	ReplyText string
	// Refusal is the refusal the server answered with, and JSON reports
	// that ReplyText is a structured output.
	Refusal string
	JSON    bool
	// ResponseID is the ID of the answer the server sent (chatcmpl-…,
	// resp_…, msg_…).
	ResponseID string
	// Scenario names the scenario that answered, if any; ReplyIndex is the
	// index of the reply among the scenario's replies, from 0, and
	// ScriptedAt the file:line where that reply was scripted ("" for a
	// reply scripted over the admin API).
	Scenario   string
	ReplyIndex int
	ScriptedAt string
	// Tried explains a request no scenario answered: every scenario the
	// session has, and why it passed over the request, the nearest
	// candidate first.
	Tried []Tried
	// ErrorCode is the error code of a refused request, such as
	// "invalid_api_key" or "llm_test_server_no_scenario", and
	// ErrorMessage the message the client was sent with it.
	ErrorCode    string
	ErrorMessage string
	// Chunks counts the stream events sent, [DONE] included, and
	// FirstByte is how long after the request's arrival the first byte of
	// the answer was written; both zero for an answer not sent.
	Chunks    int
	FirstByte time.Duration
	// Conversation identifies the conversation of the request, Generation
	// counts how often it started again from its opening, and Turn is its
	// number of user messages.
	Conversation string
	Generation   int
	Turn         int
	// PromptCacheKey is the prompt_cache_key the request carried.
	PromptCacheKey string
	// ToolResults are the tool results the request carried.
	ToolResults []ToolResult
	// ToolCalls are the tool calls the server answered with.
	ToolCalls []ToolCall
	// SchemaErrors lists where a structured-output reply failed the
	// request's JSON schema; empty when it conformed or none was asked for.
	SchemaErrors []string
	// Contradictions lists what the reply did that the real model could
	// not have done under the request's tool_choice, tools and
	// parallel_tool_calls, such as a tool call under tool_choice "none";
	// empty when the reply fits the request.
	Contradictions []string
	// Usage is the token accounting of the answer, in the same words for
	// every provider; zero when the request was not answered.
	Usage Usage
	// Ignored lists the request's fields the server does not know and
	// ignored under AllowUnknownParameters (Anthropic's: dotted paths).
	Ignored []string
	// APIVersion is the API version the request asked for (Anthropic's
	// anthropic-version header), and Betas the beta features it named
	// (anthropic-beta); neither is required.
	APIVersion string
	Betas      []string
	// IdempotencyKey is the Idempotency-Key the request carried, and
	// Replay reports that it was answered with the answer kept under that
	// key, using no reply.
	IdempotencyKey string
	Replay         bool
	// Fault is the fault the reply scripted and the server fired: "drop",
	// "hang", "cut", "malformed", "error_event" (an error inside a
	// stream) or "http_error" (a scripted HTTP error); empty for none, and
	// for a fault the client left before.
	Fault string
	// Job is the ID of the job (a video, a batch, a background response,
	// a file) the request created, polled, cancelled or deleted, and
	// JobState its state as the request left it ("queued", "in_progress",
	// the API's own words for its states); for a line of a batch, Job is
	// the batch and CustomID the line's custom_id (Gemini's key), and the
	// entry is the line's, answered as if it were sent alone.
	Job, JobState, CustomID string
}

// Usage is the token accounting of an answer, in words of no provider.
type Usage struct {
	// Input counts every prompt token, cache reads and writes included.
	Input int `json:"input"`
	// CacheRead counts the prompt tokens read from the prompt cache
	// (OpenAI's cached_tokens, Anthropic's cache_read_input_tokens).
	CacheRead int `json:"cache_read"`
	// CacheWrite counts the prompt tokens written to the prompt cache
	// (Anthropic's cache_creation_input_tokens).
	CacheWrite int `json:"cache_write"`
	// Output counts the answer's tokens, reasoning included.
	Output int `json:"output"`
	// Reasoning counts the reasoning tokens among Output.
	Reasoning int `json:"reasoning"`
}

// ToolResult is a tool result a request carried.
type ToolResult struct {
	CallID  string `json:"call_id"`
	Name    string `json:"name,omitempty"`
	Content string `json:"content"`
}

// ToolCall is a tool call the server answered with.
type ToolCall struct {
	ID        string `json:"id"`
	Name      string `json:"name"`
	Arguments string `json:"arguments"`
}

// Bounds on what one entry keeps, so that one huge request cannot evict
// the rest of the journal on its own, nor keep its body alive: texts (the
// prompt, the reply, tool results and arguments, schema errors,
// contradictions) keep their
// first maxTextBytes, names and identifiers their first maxNameBytes, and
// lists their first maxListItems items.
const (
	maxTextBytes = 8 << 10
	maxNameBytes = 512
	maxListItems = 128
	maxBodyBytes = MaxBodyBytes
)

// MaxBodyBytes bounds Entry.Body whatever the session's journal body bound:
// the largest journal.max_body_bytes a session may set.
const MaxBodyBytes = 1 << 20

// Sizes of what an entry keeps besides the bytes of its strings.
var (
	entrySlotBytes  = int64(unsafe.Sizeof(Entry{}))
	resultSlotBytes = int64(unsafe.Sizeof(ToolResult{}))
	callSlotBytes   = int64(unsafe.Sizeof(ToolCall{}))
	triedSlotBytes  = int64(unsafe.Sizeof(Tried{}))
	stringSlotBytes = int64(unsafe.Sizeof(""))
)

// size is the number of bytes e keeps on the heap, as counted against the
// journal's byte bound: its slot in the journal, the backing arrays of its
// lists, and every string it holds, with the rounding of the allocator.
// It is meant for entries as Record keeps them, whose strings are their
// own copies.
func (e *Entry) size() int64 {
	n := entrySlotBytes
	for _, s := range [...]string{e.Provider, e.APIVersion, e.Endpoint, e.Method, e.Path, e.Model, e.UserText,
		e.Body, e.ReplyText, e.Refusal, e.ResponseID, e.Scenario, e.ScriptedAt, e.ErrorCode, e.ErrorMessage,
		e.Conversation, e.PromptCacheKey, e.IdempotencyKey, e.Fault, e.Job, e.JobState, e.CustomID} {
		n += stringBytes(s)
	}
	n += e.Request.size() + e.Client.size() + mapBytes(e.Headers)
	n += int64(cap(e.Tried)) * triedSlotBytes
	for _, t := range e.Tried {
		n += stringBytes(t.Scenario) + stringBytes(t.Why)
	}
	n += int64(cap(e.ToolResults)) * resultSlotBytes
	for _, r := range e.ToolResults {
		n += stringBytes(r.CallID) + stringBytes(r.Name) + stringBytes(r.Content)
	}
	n += int64(cap(e.ToolCalls)) * callSlotBytes
	for _, c := range e.ToolCalls {
		n += stringBytes(c.ID) + stringBytes(c.Name) + stringBytes(c.Arguments)
	}
	n += int64(cap(e.SchemaErrors)+cap(e.Contradictions)+cap(e.Ignored)+cap(e.Betas)) * stringSlotBytes
	for _, list := range [...][]string{e.SchemaErrors, e.Contradictions, e.Ignored, e.Betas} {
		for _, s := range list {
			n += stringBytes(s)
		}
	}
	return n
}

// stringBytes is what a copied string of s's length costs on the heap: its
// bytes rounded up as Go's size classes round them (by at most an eighth,
// and to at least 8 bytes).
func stringBytes(s string) int64 {
	if s == "" {
		return 0
	}
	n := int64(len(s))
	return max(n+n/8, 8)
}

// own returns e as the journal keeps it: every string clipped to its bound
// and copied, so that nothing of the request or the reply it came from stays
// reachable through it, and every list clipped and copied likewise.
func own(e Entry) Entry {
	ownScalars(&e)
	e.ToolResults = ownList(e.ToolResults, func(r ToolResult) ToolResult {
		return ToolResult{CallID: name(r.CallID), Name: name(r.Name), Content: text(r.Content)}
	})
	e.ToolCalls = ownList(e.ToolCalls, func(c ToolCall) ToolCall {
		return ToolCall{ID: name(c.ID), Name: name(c.Name), Arguments: text(c.Arguments)}
	})
	e.SchemaErrors = ownList(e.SchemaErrors, text)
	e.Contradictions = ownList(e.Contradictions, text)
	e.Ignored = ownList(e.Ignored, name)
	e.Betas = ownList(e.Betas, name)
	e.Body = clip(e.Body, maxBodyBytes)
	e.Request, e.Client, e.Headers = e.Request.own(), e.Client.own(), ownMap(e.Headers)
	e.Tried = ownList(e.Tried, func(t Tried) Tried { return Tried{Scenario: name(t.Scenario), Why: text(t.Why)} })
	return e
}

// ownScalars clips e's own string fields (names as names, texts as texts)
// and copies them into one buffer made to measure, which they share: an
// entry costs one allocation for them instead of one each.
func ownScalars(e *Entry) {
	names := [...]*string{&e.Provider, &e.Endpoint, &e.Method, &e.Path, &e.Model, &e.ResponseID, &e.Scenario,
		&e.ScriptedAt, &e.ErrorCode, &e.Conversation, &e.PromptCacheKey, &e.APIVersion, &e.IdempotencyKey, &e.Fault,
		&e.Job, &e.JobState, &e.CustomID}
	texts := [...]*string{&e.UserText, &e.ReplyText, &e.Refusal, &e.ErrorMessage}
	n := 0
	for _, p := range names {
		*p = cut(*p, maxNameBytes)
		n += len(*p)
	}
	for _, p := range texts {
		*p = cut(*p, maxTextBytes)
		n += len(*p)
	}
	c := carver{buf: make([]byte, 0, n)}
	for _, p := range names {
		*p = c.carve(*p)
	}
	for _, p := range texts {
		*p = c.carve(*p)
	}
}

// ownList returns a new slice of at most maxListItems items of list, each
// passed through own.
func ownList[T any](list []T, own func(T) T) []T {
	if len(list) == 0 {
		return nil
	}
	out := make([]T, min(len(list), maxListItems))
	for i := range out {
		out[i] = own(list[i])
	}
	return out
}

func text(s string) string { return clip(s, maxTextBytes) }
func name(s string) string { return clip(s, maxNameBytes) }

// clip returns a copy of at most limit bytes of s, cut without splitting a
// UTF-8 sequence. It always copies: a substring would keep all of s alive.
func clip(s string, limit int) string { return strings.Clone(cut(s, limit)) }

// cut returns at most limit bytes of s, cut without splitting a UTF-8
// sequence: a substring of s.
func cut(s string, limit int) string {
	if len(s) > limit {
		at := limit
		for at > 0 && s[at]&0xC0 == 0x80 {
			at--
		}
		s = s[:at]
	}
	return s
}

// entryJSON is the wire form of Entry served by GET /admin-api/journal.
type entryJSON struct {
	Seq          uint64            `json:"seq"`
	Time         time.Time         `json:"time"`
	DurationMS   float64           `json:"duration_ms"`
	Provider     string            `json:"provider,omitempty"`
	Endpoint     string            `json:"endpoint,omitempty"`
	Method       string            `json:"method"`
	Path         string            `json:"path"`
	Status       int               `json:"status"`
	Model        string            `json:"model,omitempty"`
	Stream       bool              `json:"stream,omitempty"`
	UserText     string            `json:"user_text,omitempty"`
	Request      Request           `json:"request,omitzero"`
	Body         string            `json:"body,omitempty"`
	BodyBytes    int64             `json:"body_bytes,omitempty"`
	Headers      map[string]string `json:"headers,omitempty"`
	Client       Client            `json:"client,omitzero"`
	ReplyText    string            `json:"reply_text,omitempty"`
	Refusal      string            `json:"refusal,omitempty"`
	JSON         bool              `json:"json,omitempty"`
	ResponseID   string            `json:"response_id,omitempty"`
	Scenario     string            `json:"scenario,omitempty"`
	ReplyIndex   int               `json:"reply_index,omitempty"`
	ScriptedAt   string            `json:"scripted_at,omitempty"`
	Tried        []Tried           `json:"tried,omitempty"`
	ErrorCode    string            `json:"error_code,omitempty"`
	ErrorMessage string            `json:"error_message,omitempty"`
	Chunks       int               `json:"chunks,omitempty"`
	FirstByteMS  float64           `json:"first_byte_ms,omitempty"`

	Conversation   string       `json:"conversation,omitempty"`
	Generation     int          `json:"generation,omitempty"`
	Turn           int          `json:"turn,omitempty"`
	PromptCacheKey string       `json:"prompt_cache_key,omitempty"`
	ToolResults    []ToolResult `json:"tool_results,omitempty"`
	ToolCalls      []ToolCall   `json:"tool_calls,omitempty"`
	SchemaErrors   []string     `json:"schema_errors,omitempty"`
	Contradictions []string     `json:"contradictions,omitempty"`
	Usage          Usage        `json:"usage,omitzero"`
	Ignored        []string     `json:"ignored_fields,omitempty"`
	APIVersion     string       `json:"api_version,omitempty"`
	Betas          []string     `json:"betas,omitempty"`
	IdempotencyKey string       `json:"idempotency_key,omitempty"`
	Replay         bool         `json:"replay,omitempty"`
	Fault          string       `json:"fault,omitempty"`
	Job            string       `json:"job,omitempty"`
	JobState       string       `json:"job_state,omitempty"`
	CustomID       string       `json:"custom_id,omitempty"`
}

// MarshalJSON encodes e with snake_case names and the duration in
// milliseconds.
func (e Entry) MarshalJSON() ([]byte, error) {
	return plainjson.Marshal(entryJSON{
		Seq: e.Seq, Time: e.Time, DurationMS: float64(e.Duration) / float64(time.Millisecond),
		Provider: e.Provider, Endpoint: e.Endpoint, Method: e.Method, Path: e.Path, Status: e.Status, Model: e.Model,
		Stream: e.Stream, UserText: e.UserText, Request: e.Request, Body: e.Body, BodyBytes: e.BodyBytes,
		Headers: e.Headers, Client: e.Client, ReplyText: e.ReplyText, Refusal: e.Refusal, JSON: e.JSON,
		ResponseID: e.ResponseID, Scenario: e.Scenario, ReplyIndex: e.ReplyIndex, ScriptedAt: e.ScriptedAt,
		Tried: e.Tried, ErrorCode: e.ErrorCode, ErrorMessage: e.ErrorMessage, Chunks: e.Chunks,
		FirstByteMS:  float64(e.FirstByte) / float64(time.Millisecond),
		Conversation: e.Conversation, Generation: e.Generation, Turn: e.Turn, PromptCacheKey: e.PromptCacheKey,
		ToolResults: e.ToolResults, ToolCalls: e.ToolCalls, SchemaErrors: e.SchemaErrors, Contradictions: e.Contradictions,
		Usage: e.Usage, Ignored: e.Ignored, APIVersion: e.APIVersion, Betas: e.Betas,
		IdempotencyKey: e.IdempotencyKey, Replay: e.Replay, Fault: e.Fault,
		Job: e.Job, JobState: e.JobState, CustomID: e.CustomID,
	})
}

// UnmarshalJSON decodes the form MarshalJSON writes, so clients of the admin
// API can read the journal back into entries.
func (e *Entry) UnmarshalJSON(data []byte) error {
	var w entryJSON
	if err := json.Unmarshal(data, &w); err != nil {
		return err
	}
	*e = Entry{
		Seq: w.Seq, Time: w.Time, Duration: time.Duration(math.Round(w.DurationMS * float64(time.Millisecond))),
		Provider: w.Provider, Endpoint: w.Endpoint, Method: w.Method, Path: w.Path, Status: w.Status, Model: w.Model,
		Stream: w.Stream, UserText: w.UserText, Request: w.Request, Body: w.Body, BodyBytes: w.BodyBytes,
		Headers: w.Headers, Client: w.Client, ReplyText: w.ReplyText, Refusal: w.Refusal, JSON: w.JSON,
		ResponseID: w.ResponseID, Scenario: w.Scenario, ReplyIndex: w.ReplyIndex, ScriptedAt: w.ScriptedAt,
		Tried: w.Tried, ErrorCode: w.ErrorCode, ErrorMessage: w.ErrorMessage, Chunks: w.Chunks,
		FirstByte:    time.Duration(math.Round(w.FirstByteMS * float64(time.Millisecond))),
		Conversation: w.Conversation, Generation: w.Generation, Turn: w.Turn, PromptCacheKey: w.PromptCacheKey,
		ToolResults: w.ToolResults, ToolCalls: w.ToolCalls, SchemaErrors: w.SchemaErrors, Contradictions: w.Contradictions,
		Usage: w.Usage, Ignored: w.Ignored, APIVersion: w.APIVersion, Betas: w.Betas,
		IdempotencyKey: w.IdempotencyKey, Replay: w.Replay, Fault: w.Fault,
		Job: w.Job, JobState: w.JobState, CustomID: w.CustomID,
	}
	return nil
}
