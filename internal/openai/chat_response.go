package openai

import (
	"encoding/json"
	"fmt"
	"hash/fnv"
	"io"
	"strconv"

	"github.com/llmtestserver/llmtestserver/internal/plainjson"
	"github.com/llmtestserver/llmtestserver/scenario"
)

// SystemFingerprint is the system_fingerprint of completions that name
// model: "fp_" and 10 lowercase hexadecimal digits, as the real API's. The
// real one names the backend configuration that served the request, and
// stays the same for a model snapshot over many requests; here it is
// derived from the model name alone (FNV-1a), so it is stable and differs
// between snapshots.
func SystemFingerprint(model string) string {
	h := fnv.New64a()
	h.Write([]byte(model))
	return fmt.Sprintf("fp_%010x", h.Sum64()>>24)
}

// defaultServiceTier is the service_tier a completion reports when the
// request names none.
const defaultServiceTier = "default"

// ChatCompletion is a non-streamed chat answer (object "chat.completion").
type ChatCompletion struct {
	ID                string       `json:"id"`
	Object            string       `json:"object"`
	Created           int64        `json:"created"`
	Model             string       `json:"model"`
	Choices           []ChatChoice `json:"choices"`
	Usage             Usage        `json:"usage"`
	ServiceTier       string       `json:"service_tier"`
	SystemFingerprint string       `json:"system_fingerprint"`
}

// ChatChoice is one element of a completion's choices.
type ChatChoice struct {
	Index   int             `json:"index"`
	Message AssistantOutput `json:"message"`
	// Logprobs is the choice's logprobs object, null when not asked for.
	Logprobs     json.RawMessage `json:"logprobs"`
	FinishReason string          `json:"finish_reason"`
}

// AssistantOutput is the message of a choice. Content is null when the
// message only calls tools or refuses; Refusal is null unless it refuses;
// tool_calls is omitted when there are none.
type AssistantOutput struct {
	Role        string           `json:"role"`
	Content     *string          `json:"content"`
	Refusal     *string          `json:"refusal"`
	Annotations []struct{}       `json:"annotations"`
	ToolCalls   []OutputToolCall `json:"tool_calls,omitempty"`
}

// OutputToolCall is a tool call of an answer, in both the message and the
// first stream fragment of the call.
type OutputToolCall struct {
	ID       string       `json:"id"`
	Type     string       `json:"type"`
	Function FunctionCall `json:"function"`
}

// ChatAnswer is what the server answers, independent of streaming. At most
// one of Text (optionally with ToolCalls), ToolCalls and Refusal is
// expected; every choice of the answer is the same.
type ChatAnswer struct {
	ID      string
	Created int64
	Model   string
	// N is the number of choices; values below 1 mean 1.
	N int
	// Text is the assistant's message.
	Text string
	// Refusal is a refusal instead of a message.
	Refusal string
	// ToolCalls are the calls the model asks for, with IDs already filled.
	// Empty arguments are sent as "{}", as the API never sends none.
	ToolCalls []scenario.ToolCall
	// FinishReason is the finish reason; empty means "tool_calls" when
	// there are tool calls and "stop" otherwise.
	FinishReason string
	// Usage is the token accounting, covering all choices.
	Usage Usage
	// ServiceTier is the service_tier reported; empty means "default".
	ServiceTier string
	// Logprobs asks for the log probabilities of the answer's tokens, and
	// Split cuts the answer into those tokens (nil: each string is one
	// token). A stream cuts with the split it is given.
	Logprobs *Logprobs
	Split    func(string) []string
}

func (a *ChatAnswer) choices() int { return max(a.N, 1) }

func (a *ChatAnswer) serviceTier() string {
	if a.ServiceTier == "" {
		return defaultServiceTier
	}
	return a.ServiceTier
}

func (a *ChatAnswer) finishReason() string {
	switch {
	case a.FinishReason != "":
		return a.FinishReason
	case len(a.ToolCalls) > 0:
		return "tool_calls"
	default:
		return "stop"
	}
}

func arguments(c scenario.ToolCall) string {
	if c.Arguments == "" {
		return "{}"
	}
	return c.Arguments
}

// Completion renders a as a non-streamed completion.
func (a *ChatAnswer) Completion() *ChatCompletion {
	msg := AssistantOutput{Role: "assistant", Annotations: []struct{}{}}
	switch {
	case a.Refusal != "":
		refusal := a.Refusal
		msg.Refusal = &refusal
	case a.Text != "" || len(a.ToolCalls) == 0:
		text := a.Text
		msg.Content = &text
	}
	for _, c := range a.ToolCalls {
		msg.ToolCalls = append(msg.ToolCalls, OutputToolCall{ID: c.ID, Type: "function",
			Function: FunctionCall{Name: c.Name, Arguments: arguments(c)}})
	}
	var logprobs json.RawMessage
	if a.Logprobs != nil {
		// Every choice is the same answer, with the same probabilities.
		logprobs = choiceLogprobs(a.Text, a.Refusal, len(a.ToolCalls) > 0, a.Split, a.Logprobs.Top)
	}
	choices := make([]ChatChoice, a.choices())
	for i := range choices {
		choices[i] = ChatChoice{Index: i, Message: msg, Logprobs: logprobs, FinishReason: a.finishReason()}
	}
	return &ChatCompletion{
		ID: a.ID, Object: "chat.completion", Created: a.Created, Model: a.Model,
		Choices: choices, Usage: a.Usage, ServiceTier: a.serviceTier(), SystemFingerprint: SystemFingerprint(a.Model),
	}
}

// WriteJSON writes c to w exactly as plainjson.Marshal encodes it, a
// choice at a time: a completion with n choices of a long answer would
// otherwise be built whole in memory, n times the answer's size. Choices
// that share their message, as Completion's do, encode it once.
func (c *ChatCompletion) WriteJSON(w io.Writer) error {
	if len(c.Choices) <= 1 {
		// Nothing is multiplied: encoding whole costs a small multiple of
		// the answer, and is quicker than encoding in pieces.
		b, err := plainjson.Marshal(c)
		if err != nil {
			return err
		}
		_, err = w.Write(b)
		return err
	}
	j := jsonWriter{w: w}
	j.raw(`{"id":`)
	j.value(c.ID)
	j.raw(`,"object":`)
	j.value(c.Object)
	j.raw(`,"created":`)
	j.buf = strconv.AppendInt(j.buf, c.Created, 10)
	j.raw(`,"model":`)
	j.value(c.Model)
	j.raw(`,"choices":`)
	if c.Choices == nil {
		j.raw("null")
	} else {
		j.raw("[")
		var msg []byte
		var prev *AssistantOutput
		for i := range c.Choices {
			ch := &c.Choices[i]
			if i > 0 {
				j.raw(",")
			}
			if prev == nil || !sameMessage(prev, &ch.Message) {
				msg, j.err = marshalOr(msg, ch.Message, j.err)
				prev = &ch.Message
			}
			j.raw(`{"index":`)
			j.buf = strconv.AppendInt(j.buf, int64(ch.Index), 10)
			j.raw(`,"message":`)
			j.write(msg)
			j.raw(`,"logprobs":`)
			if ch.Logprobs == nil {
				j.raw("null")
			} else {
				j.write(ch.Logprobs)
			}
			j.raw(`,"finish_reason":`)
			j.value(ch.FinishReason)
			j.raw("}")
		}
		j.raw("]")
	}
	j.raw(`,"usage":`)
	j.value(c.Usage)
	j.raw(`,"service_tier":`)
	j.value(c.ServiceTier)
	j.raw(`,"system_fingerprint":`)
	j.value(c.SystemFingerprint)
	j.raw("}")
	j.flush()
	return j.err
}

// sameMessage reports whether a and b share what they encode, so that b
// encodes as a does.
func sameMessage(a, b *AssistantOutput) bool {
	return a.Role == b.Role && a.Content == b.Content && a.Refusal == b.Refusal &&
		(a.Annotations == nil) == (b.Annotations == nil) && len(a.Annotations) == len(b.Annotations) &&
		len(a.ToolCalls) == len(b.ToolCalls) && (len(a.ToolCalls) == 0 || &a.ToolCalls[0] == &b.ToolCalls[0])
}

// marshalOr is plainjson.Marshal that keeps the first error.
func marshalOr(prev []byte, v any, err error) ([]byte, error) {
	if err != nil {
		return prev, err
	}
	return plainjson.Marshal(v)
}

// jsonWriter gathers small pieces of JSON and writes them on in batches;
// large pieces go on as they are. It keeps its first error.
type jsonWriter struct {
	w   io.Writer
	buf []byte
	err error
}

func (j *jsonWriter) raw(s string) { j.buf = append(j.buf, s...) }

// value encodes v as plainjson.Marshal does.
func (j *jsonWriter) value(v any) {
	b, err := marshalOr(nil, v, j.err)
	j.err = err
	j.write(b)
}

func (j *jsonWriter) write(b []byte) {
	if len(b) < flushAt {
		j.buf = append(j.buf, b...)
		if len(j.buf) >= flushAt {
			j.flush()
		}
		return
	}
	j.flush()
	if j.err == nil {
		_, j.err = j.w.Write(b)
	}
}

func (j *jsonWriter) flush() {
	if j.err == nil && len(j.buf) > 0 {
		_, j.err = j.w.Write(j.buf)
	}
	j.buf = j.buf[:0]
}

// choiceLogprobs renders a choice's logprobs object: content lists the
// tokens of the text; refusal those of a refusal, content then null; both
// null for an answer that only calls tools (inferred: the real body of
// that case is not confirmed).
func choiceLogprobs(text, refusal string, calls bool, split func(string) []string, top int) json.RawMessage {
	out := []byte(`{"content":`)
	switch {
	case refusal != "":
		out = append(out, `null,"refusal":`...)
		out = appendTokenLogprobs(out, logprobTokens(refusal, split), 0, top)
		return append(out, '}')
	case text == "" && calls:
		out = append(out, "null"...)
	default:
		out = appendTokenLogprobs(out, logprobTokens(text, split), 0, top)
	}
	return append(out, `,"refusal":null}`...)
}
