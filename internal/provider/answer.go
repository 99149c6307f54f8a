package provider

import (
	"io"
	"time"

	"github.com/llmtestserver/llmtestserver/scenario"
)

// Answer is what the model answers one conversational request, in words of
// no provider. The answer layer builds it; a codec renders it as its
// provider's JSON or event stream.
type Answer struct {
	// ID is the answer's ID, with the codec's prefix ("chatcmpl-", "msg_").
	ID string
	// Model is the model named in the answer: the request's, or the
	// reply's override.
	Model string
	// Created is when the answer was made, on the runtime's clock.
	Created time.Time
	// Text is the assistant's text; for a structured reply, its JSON.
	Text string
	// JSON reports whether Text is a structured-output document.
	JSON bool
	// Refusal is a refusal instead of an answer.
	Refusal string
	// Thinking is the reasoning shown before the answer, and
	// ThinkingSignature the signature that vouches for it.
	Thinking, ThinkingSignature string
	// ThinkingOmitted says the reasoning is counted but not shown: only
	// its signature goes out (Anthropic's thinking.display "omitted").
	ThinkingOmitted bool
	// RedactedThinking, WebSearches and Citations are the reply's, for the
	// codecs that show them (see scenario.Reply).
	RedactedThinking []string
	WebSearches      []scenario.WebSearch
	Citations        []scenario.Citation
	Iterations       []scenario.Iteration
	AppliedEdits     []scenario.AppliedEdit
	// ToolCalls are the calls the model asks for, each with its ID.
	ToolCalls []scenario.ToolCall
	// Finish is why the model stopped; never empty.
	Finish scenario.FinishKind
	// StopSequence is the request's stop sequence the answer stopped at,
	// which its text no longer holds; "" when it stopped otherwise.
	StopSequence string
	// Usage is the token accounting.
	Usage Usage
}

// Usage is the token accounting of one answer, in words of no provider;
// each codec names the counts its way.
type Usage struct {
	// Input counts every prompt token, those read from and written to the
	// prompt cache included (OpenAI's prompt_tokens; Anthropic's
	// input_tokens + cache_creation_input_tokens + cache_read_input_tokens).
	Input int
	// CacheRead counts the prompt tokens served from the prompt cache
	// (OpenAI's cached_tokens, Anthropic's cache_read_input_tokens).
	CacheRead int
	// CacheWrite counts the prompt tokens this request wrote to the prompt
	// cache (Anthropic's cache_creation_input_tokens), and CacheWrite1h
	// those of them written with the one-hour TTL.
	CacheWrite, CacheWrite1h int
	// Output counts the tokens of the answer, reasoning included.
	Output int
	// Reasoning counts the reasoning tokens among Output.
	Reasoning int
}

// EventStream is an event stream the HTTP core writes one event at a time,
// as it is paced. Each event writes itself whole, framing included.
type EventStream interface {
	// Len is the number of events.
	Len() int
	// WriteEvent writes event i.
	WriteEvent(w io.Writer, i int) error
}

// StreamingJSON is a JSON body that writes itself in pieces, such as a
// completion with many choices, which would be too large to hold whole.
type StreamingJSON interface {
	WriteJSON(w io.Writer) error
}
