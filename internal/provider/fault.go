package provider

import (
	"bytes"
	"io"

	"github.com/llmtestserver/llmtestserver/internal/apierr"
)

// FailingStream is an EventStream that can fail part-way, as a scripted
// fault asks: the HTTP core writes events 0 to i-1 and then, in place of
// event i, the error event or the malformed event. Every codec's
// conversational streams implement it; a stream that does not is cut
// instead.
type FailingStream interface {
	EventStream
	// Opening is how many of the stream's first events always come before
	// a failure: 0 for most, 2 for a Responses stream, which announces the
	// response (created, in progress) before it can fail it. A failure
	// scripted after fewer events comes right after these.
	Opening() int
	// WriteErrorEvent writes, in place of event i, the event that fails
	// the stream with e, which is in the codec's words (Resolve).
	WriteErrorEvent(w io.Writer, i int, e *apierr.Error) error
	// WriteMalformedEvent writes, in place of event i, an event in the
	// stream's framing whose data line is not valid JSON.
	WriteMalformedEvent(w io.Writer, i int) error
}

// Malformed returns event, a framed event ("event: " line optional, one
// "data: " line, a blank line), with its data cut in half, so that it is
// no longer valid JSON but still reads as an event: the client's SSE
// reader takes it and its JSON decoder fails. name, when not empty,
// replaces the event's name, for events a client would skip unread (such
// as Anthropic's ping).
func Malformed(event []byte, name string) []byte {
	var out bytes.Buffer
	var data []byte
	for line := range bytes.Lines(event) {
		line = bytes.TrimRight(line, "\r\n")
		switch {
		case bytes.HasPrefix(line, []byte("event: ")):
			if name == "" {
				name = string(line[len("event: "):])
			}
		case bytes.HasPrefix(line, []byte("data: ")):
			data = line[len("data: "):]
		}
	}
	if name != "" {
		out.WriteString("event: " + name + "\n")
	}
	out.WriteString("data: ")
	if len(data) < 2 || data[0] != '{' {
		data = []byte(`{"type":`)
	}
	out.Write(data[:max(len(data)/2, 1)])
	out.WriteString("\n\n")
	return out.Bytes()
}
