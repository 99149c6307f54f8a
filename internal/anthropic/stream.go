package anthropic

import (
	"bytes"
	"encoding/json"
	"io"
	"sort"

	"github.com/llmtestserver/llmtestserver/internal/apierr"
	"github.com/llmtestserver/llmtestserver/internal/provider"
	"github.com/llmtestserver/llmtestserver/internal/tokens"
)

// stream is an answer as the API streams it: message_start, ping, each
// content block (content_block_start, its deltas, content_block_stop),
// message_delta and message_stop. Events are rendered when written, from
// chunk offsets into the answer's text, so a long answer in small chunks
// never sits in memory as bytes.
type stream struct {
	a       *provider.Answer
	reason  string
	seq     *string
	details *stopDetails
	blocks  []streamBlock
	// first[b] is the index of block b's content_block_start event.
	first []int
	n     int
	// contextManagement, set for a request to the beta API, is its
	// context_management, and iterations its usage.iterations; the beta
	// fields go out with them (see response_beta.go).
	contextManagement json.RawMessage
	iterations        json.RawMessage
}

// streamBlock is one content block: its kind, the text its deltas carry
// (thinking, text, or the tool input's JSON), and the offsets that cut it
// into chunks (off[k]..off[k+1] is delta k).
type streamBlock struct {
	kind     string
	text     string
	off      []int
	id, name string
	// start, when set, is the whole block, sent by its content_block_start
	// with no delta (redacted thinking, a web search's results).
	start any
	// cites are a text block's citations, each a citations_delta before
	// its text.
	cites []citation
}

// deltas is the number of delta events of b: its citations and its
// chunks, and for a thinking block the signature; none for a block its
// start carries whole.
func (b *streamBlock) deltas() int {
	if b.start != nil {
		return 0
	}
	n := len(b.off) - 1 + len(b.cites)
	if b.kind == "thinking" {
		n++
	}
	return n
}

// NewStream renders a as an event stream. split cuts a text into its
// tokens (concatenated, they must give the text back), and each delta
// carries tokensPerChunk of them; tool input JSON is cut the same way.
//
// category is a refusal's policy category ("" for none).
func NewStream(a *provider.Answer, category string, split func(string) []string, tokensPerChunk int) provider.EventStream {
	if tokensPerChunk < 1 {
		tokensPerChunk = 1
	}
	s := &stream{a: a}
	s.reason, s.seq = stopReason(a)
	s.details = refusalDetails(a, category)
	if a.Thinking != "" {
		// Omitted thinking streams its signature_delta only.
		b := streamBlock{kind: "thinking", off: []int{0}}
		if !a.ThinkingOmitted {
			b.text, b.off = a.Thinking, chunkOffsets(a.Thinking, split, tokensPerChunk)
		}
		s.blocks = append(s.blocks, b)
	}
	for _, d := range a.RedactedThinking {
		s.blocks = append(s.blocks, streamBlock{kind: "redacted_thinking", start: redactedThinkingBlock{Type: "redacted_thinking", Data: redactedData(d)}})
	}
	for _, w := range a.WebSearches {
		in := string(searchInput(w))
		s.blocks = append(s.blocks, streamBlock{kind: "server_tool_use", text: in, off: chunkOffsets(in, split, tokensPerChunk), id: w.ID, name: "web_search"},
			streamBlock{kind: "web_search_tool_result", start: webSearchResultBlock{Type: "web_search_tool_result", ToolUseID: w.ID,
				Content: searchResults(w), Caller: direct}})
	}
	if t := visibleText(a); t != "" {
		b := streamBlock{kind: "text", text: t, off: chunkOffsets(t, split, tokensPerChunk)}
		if len(a.Citations) > 0 {
			b.cites = citationsOf(a)
		}
		s.blocks = append(s.blocks, b)
	}
	if a.Refusal == "" {
		for _, c := range a.ToolCalls {
			in := string(toolInput(c.Arguments))
			if in == "{}" {
				in = ""
			}
			off := chunkOffsets(in, split, tokensPerChunk)
			if in != "" {
				// The API's first input_json_delta of a tool_use with
				// arguments is "" (audit B4, R2), before the JSON itself.
				off = append([]int{0}, off...)
			}
			s.blocks = append(s.blocks, streamBlock{kind: "tool_use", text: in, off: off, id: c.ID, name: c.Name})
		}
	}
	s.n = 2
	for i := range s.blocks {
		s.first = append(s.first, s.n)
		s.n += 2 + s.blocks[i].deltas()
	}
	s.n += 2
	return s
}

// chunkOffsets cuts text into chunks of per tokens, none ending inside a
// character (see tokens.ChunkEnds). Only the offsets are kept; an empty
// text is one empty chunk (the API's first input_json_delta may be empty,
// too). If split's tokens do not give the text back, the text is one
// chunk.
func chunkOffsets(text string, split func(string) []string, per int) []int {
	if text == "" {
		return []int{0, 0}
	}
	pieces := split(text)
	off := make([]int, 1, tokens.MaxChunks(len(pieces), per)+1)
	pos, next := 0, 0 // the offset of pieces[next]
	for end := range tokens.ChunkEnds(pieces, per) {
		for ; next < end; next++ {
			p := pieces[next]
			if pos+len(p) > len(text) || text[pos:pos+len(p)] != p {
				return []int{0, len(text)}
			}
			pos += len(p)
		}
		off = append(off, pos)
	}
	if pos != len(text) {
		return []int{0, len(text)}
	}
	return off
}

// Len is the number of events.
func (s *stream) Len() int { return s.n }

// WriteEvent renders event i and writes it.
func (s *stream) WriteEvent(w io.Writer, i int) error {
	name, data := s.event(i)
	return writeEvent(w, name, data)
}

// writeEvent frames one event: "event: <name>", its one-line JSON, a blank
// line. <, > and & stay literal, as the API sends them.
func writeEvent(w io.Writer, name string, data any) error {
	var b bytes.Buffer
	b.Grow(64)
	b.WriteString("event: ")
	b.WriteString(name)
	b.WriteString("\ndata: ")
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(data); err != nil { // Encode ends the line
		return err
	}
	b.WriteByte('\n')
	_, err := w.Write(b.Bytes())
	return err
}

type typeOnly struct {
	Type string `json:"type"`
}

type messageStart struct {
	Type    string  `json:"type"`
	Message message `json:"message"`
}

type blockStart struct {
	Type         string `json:"type"`
	Index        int    `json:"index"`
	ContentBlock any    `json:"content_block"`
}

type blockDelta struct {
	Type  string `json:"type"`
	Index int    `json:"index"`
	Delta any    `json:"delta"`
}

type blockStop struct {
	Type  string `json:"type"`
	Index int    `json:"index"`
}

type textDelta struct {
	Type string `json:"type"`
	Text string `json:"text"`
}

type thinkingDelta struct {
	Type     string `json:"type"`
	Thinking string `json:"thinking"`
}

type signatureDelta struct {
	Type      string `json:"type"`
	Signature string `json:"signature"`
}

type inputDelta struct {
	Type        string `json:"type"`
	PartialJSON string `json:"partial_json"`
}

type messageDelta struct {
	Type  string            `json:"type"`
	Delta messageDeltaDelta `json:"delta"`
	// ContextManagement is the beta API's only (see response_beta.go).
	ContextManagement json.RawMessage `json:"context_management,omitempty"`
	Usage             deltaUsage      `json:"usage"`
}

// messageDeltaDelta is message_delta's delta, fields as R2 shows them.
type messageDeltaDelta struct {
	StopReason   string       `json:"stop_reason"`
	StopSequence *string      `json:"stop_sequence"`
	StopDetails  *stopDetails `json:"stop_details"`
	Container    *struct{}    `json:"container"`
}

// deltaUsage is message_delta's usage: cumulative totals, which the SDK's
// Accumulate writes over message_start's.
type deltaUsage struct {
	InputTokens              int `json:"input_tokens"`
	CacheCreationInputTokens int `json:"cache_creation_input_tokens"`
	CacheReadInputTokens     int `json:"cache_read_input_tokens"`
	OutputTokens             int `json:"output_tokens"`
	// OutputTokensDetails counts the thinking tokens (R2).
	OutputTokensDetails *outputDetails `json:"output_tokens_details,omitempty"`
	ServerToolUse       *serverToolUse `json:"server_tool_use,omitempty"`
	// Iterations and FallbackCredit are the beta API's only.
	Iterations     json.RawMessage `json:"iterations,omitempty"`
	FallbackCredit json.RawMessage `json:"fallback_credit,omitempty"`
}

// event returns event i's name and data.
func (s *stream) event(i int) (string, any) {
	if len(s.blocks) > 0 && (i == 1 || i == 2) {
		// The API sends ping after the first content_block_start (audit
		// B3, R2); a message without blocks keeps it after message_start.
		i = 3 - i
	}
	switch {
	case i == 0:
		u := usageOf(s.a.Usage)
		u.OutputTokens = min(u.OutputTokens, 1) // the API reports the first token
		u.OutputTokensDetails = nil             // known once the answer is
		m := message{ID: s.a.ID, Type: "message", Role: "assistant", Model: s.a.Model, Content: []any{},
			Diagnostics: jsonNull, ContextManagement: s.contextManagement, Usage: u}
		if s.contextManagement != nil {
			m.Usage.Iterations, m.Usage.FallbackCredit = s.iterations, jsonNull
		}
		return "message_start", messageStart{Type: "message_start", Message: m}
	case i == 1:
		return "ping", typeOnly{Type: "ping"}
	case i == s.n-2:
		u := usageOf(s.a.Usage)
		d := messageDelta{Type: "message_delta", ContextManagement: s.contextManagement,
			Delta: messageDeltaDelta{StopReason: s.reason, StopSequence: s.seq, StopDetails: s.details},
			Usage: deltaUsage{InputTokens: u.InputTokens, CacheCreationInputTokens: u.CacheCreationInputTokens,
				CacheReadInputTokens: u.CacheReadInputTokens, OutputTokens: u.OutputTokens, OutputTokensDetails: u.OutputTokensDetails,
				ServerToolUse: serverToolUseOf(s.a)}}
		if s.contextManagement != nil {
			d.Usage.Iterations, d.Usage.FallbackCredit = s.iterations, jsonNull
		}
		return "message_delta", d
	case i == s.n-1:
		return "message_stop", typeOnly{Type: "message_stop"}
	}
	idx := sort.Search(len(s.first), func(k int) bool { return s.first[k] > i }) - 1
	b := &s.blocks[idx]
	k := i - s.first[idx]
	switch {
	case k == 0:
		return "content_block_start", blockStart{Type: "content_block_start", Index: idx, ContentBlock: b.startBlock()}
	case k == 1+b.deltas():
		return "content_block_stop", blockStop{Type: "content_block_stop", Index: idx}
	}
	return "content_block_delta", blockDelta{Type: "content_block_delta", Index: idx, Delta: b.delta(k-1, s.a.ThinkingSignature)}
}

func (b *streamBlock) startBlock() any {
	switch {
	case b.start != nil:
		return b.start
	case b.kind == "thinking":
		return thinkingBlock{Type: "thinking"}
	case b.kind == "tool_use":
		return toolUseBlock{Type: "tool_use", ID: b.id, Name: b.name, Input: json.RawMessage("{}"), Caller: direct}
	case b.kind == "server_tool_use":
		return serverToolUseBlock{Type: "server_tool_use", ID: b.id, Name: b.name, Input: json.RawMessage("{}"), Caller: direct}
	case b.cites != nil:
		return citedTextBlock{Type: "text", Citations: []citation{}}
	}
	return textBlock{Type: "text"}
}

// delta is b's delta k: its citations first (a citations_delta each),
// then its chunks, and after a thinking block's chunks its signature.
func (b *streamBlock) delta(k int, signature string) any {
	if k < len(b.cites) {
		return citationsDelta{Type: "citations_delta", Citation: b.cites[k]}
	}
	k -= len(b.cites)
	if k == len(b.off)-1 {
		return signatureDelta{Type: "signature_delta", Signature: signature}
	}
	chunk := b.text[b.off[k]:b.off[k+1]]
	switch b.kind {
	case "thinking":
		return thinkingDelta{Type: "thinking_delta", Thinking: chunk}
	case "tool_use", "server_tool_use":
		return inputDelta{Type: "input_json_delta", PartialJSON: chunk}
	}
	return textDelta{Type: "text_delta", Text: chunk}
}

// writeErrorEvent writes e as the API sends a failure inside a stream
// already begun: one "error" event carrying the error envelope, without a
// request_id (the SDK takes it from the response header).
func writeErrorEvent(w io.Writer, e *apierr.Error) error {
	_, body := Envelope(e, "")
	return writeEvent(w, "error", body)
}
