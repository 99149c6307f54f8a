package anthropic

import (
	"context"
	"encoding/json"
	"time"

	"github.com/llmtestserver/llmtestserver/internal/apierr"
	"github.com/llmtestserver/llmtestserver/internal/provider"
	"github.com/llmtestserver/llmtestserver/internal/runtime"
)

// threadTurn is one turn of a message thread the server holds: the record,
// in its runtime's bounded history, of a reply to a request with a thread
// field, kept under the reply's id once the reply is delivered whole. A
// thread is the chain of its turns back to the one that created it, which
// alone keeps the system prompt and tools. Records are immutable: a change
// (a claim, a continuation) is a new record put in place.
type threadTurn struct {
	id, previous string
	model        string
	created      time.Time
	// The creating turn's system prompt and tools, and their canonical
	// JSON, which a continue request that sends them must match.
	system              []Block
	systemString        bool
	tools               []Tool
	systemKey, toolsKey string
	// messages are the turn's new messages, then the reply.
	messages []Message
	// continued says a continue of this turn was delivered (a turn is
	// continued once); inFlight that one is being answered.
	continued, inFlight bool
	size                int64
}

var (
	_ runtime.Stored    = (*threadTurn)(nil)
	_ runtime.Described = (*threadTurn)(nil)
	_ runtime.Claimed   = (*threadTurn)(nil)
)

// Unclaimed implements runtime.Claimed: a fork of the session may
// continue a turn its original is continuing.
func (t *threadTurn) Unclaimed() runtime.Stored {
	if !t.inFlight {
		return t
	}
	c := *t
	c.inFlight = false
	return &c
}

// StoredKind implements runtime.Described: a turn is the message that
// answered it, a Message object.
func (t *threadTurn) StoredKind() string { return "message" }

// StoredCreated implements runtime.Described.
func (t *threadTurn) StoredCreated() time.Time { return t.created }

// StoredID implements runtime.Stored.
func (t *threadTurn) StoredID() string { return t.id }

// PreviousID implements runtime.Stored.
func (t *threadTurn) PreviousID() string { return t.previous }

// Size implements runtime.Stored: every byte the turn's blocks and tools
// hold (each is a copy of its part of the request, or the reply's),
// with a fixed overhead for each.
func (t *threadTurn) Size() int64 { return t.size }

// threadTurnOverhead is what a turn holds besides its bytes, and
// blockOverhead what a block or tool does: struct headers, slice and
// string headers, map buckets of the decoding.
const (
	threadTurnOverhead = 512
	blockOverhead      = 256
)

func (t *threadTurn) measure() {
	n := int64(threadTurnOverhead + len(t.id) + len(t.previous) + len(t.model) + len(t.systemKey) + len(t.toolsKey))
	n += blocksSize(t.system)
	for i := range t.tools {
		tool := &t.tools[i]
		n += int64(blockOverhead + len(tool.Raw) + len(tool.InputSchema) + len(tool.Name) + len(tool.Description) + len(tool.Type))
	}
	for i := range t.messages {
		n += blockOverhead + blocksSize(t.messages[i].Content)
	}
	t.size = n
}

func blocksSize(blocks []Block) int64 {
	var n int64
	for i := range blocks {
		b := &blocks[i]
		n += int64(blockOverhead + len(b.Type) + len(b.Text) + len(b.Signature) + len(b.Data) + len(b.ID) + len(b.Name) +
			len(b.Input) + len(b.ToolUseID) + len(b.Source) + len(b.Raw))
		n += blocksSize(b.Content)
	}
	return n
}

// threadChain is the thread that ends at the turn id, its creating turn
// first, and false when the server holds no whole thread there: id is no
// turn of a thread, or a turn before it was evicted.
func threadChain(rt *runtime.Runtime, id string) ([]*threadTurn, bool) {
	records, ok := rt.Chain(id)
	if !ok {
		return nil, false
	}
	chain := make([]*threadTurn, len(records))
	for i, r := range records {
		t, isTurn := r.(*threadTurn)
		if !isTurn {
			return nil, false
		}
		chain[i] = t
	}
	return chain, chain[0].previous == ""
}

// resolveThread joins to r, which continues a thread, the thread's
// system prompt, tools and messages, refusing a thread the server does
// not hold, a turn already continued or being continued, and a model,
// system or tools other than the thread's (inferred: the SDK keeps one
// model a thread, and sends neither system nor tools on continue).
func resolveThread(rt *runtime.Runtime, r *MessagesRequest) *apierr.Error {
	id := r.Thread.PreviousMessageID
	chain, ok := threadChain(rt, id)
	if !ok {
		return ThreadNotFound(id)
	}
	root, last := chain[0], chain[len(chain)-1]
	if err := last.refusesContinue(); err != nil {
		return err
	}
	switch {
	case r.Model != root.model:
		return ThreadFingerprintMismatch("model")
	case r.Thread.SystemSent && canonical(r.Thread.SystemRaw) != root.systemKey:
		return ThreadFingerprintMismatch("system")
	case r.Thread.ToolsSent && canonical(r.Thread.ToolsRaw) != root.toolsKey:
		return ThreadFingerprintMismatch("tools")
	}
	n := 0
	for _, t := range chain {
		n += len(t.messages)
	}
	messages := make([]Message, 0, n+len(r.Messages))
	for _, t := range chain {
		messages = append(messages, t.messages...)
	}
	r.Messages = append(messages, r.Messages...)
	r.Continued = n
	r.System, r.systemString, r.Tools = root.system, root.systemString, root.tools
	return nil
}

// refusesContinue is the error of continuing t now, nil when it may be.
func (t *threadTurn) refusesContinue() *apierr.Error {
	switch {
	case t.continued:
		return ThreadAlreadyContinued(t.id)
	case t.inFlight:
		return ThreadContinueInFlight(t.id)
	}
	return nil
}

// claimThread marks the turn id as being continued, atomically, so that
// a second continue of it answered meanwhile is refused; releaseThread
// undoes it unless the continue was delivered.
func claimThread(rt *runtime.Runtime, id string) *apierr.Error {
	kept, ok := rt.Update(id, func(old runtime.Stored, _ int64) runtime.Stored {
		t, isTurn := old.(*threadTurn)
		if !isTurn || t.refusesContinue() != nil {
			return nil
		}
		claimed := *t
		claimed.inFlight = true
		return &claimed
	})
	if ok {
		return nil
	}
	if t, isTurn := kept.(*threadTurn); isTurn {
		if err := t.refusesContinue(); err != nil {
			return err
		}
	}
	// Evicted, or its session deleted, since it was resolved.
	return ThreadNotFound(id)
}

// releaseThread drops the claim on the turn id of a continue that was not
// delivered, so that it may be continued again (a retry of the request).
func releaseThread(rt *runtime.Runtime, id string) {
	rt.Update(id, func(old runtime.Stored, _ int64) runtime.Stored {
		t, isTurn := old.(*threadTurn)
		if !isTurn || !t.inFlight {
			return nil
		}
		released := *t
		released.inFlight = false
		return &released
	})
}

// markContinued records that the turn id was continued.
func markContinued(rt *runtime.Runtime, id string) {
	rt.Update(id, func(old runtime.Stored, _ int64) runtime.Stored {
		t, isTurn := old.(*threadTurn)
		if !isTurn {
			return nil
		}
		continued := *t
		continued.continued, continued.inFlight = true, false
		return &continued
	})
}

// newThreadTurn is the record of the reply a to r, a request with a
// thread field: the messages r brought (past those the thread gave), then
// the reply as the message a client sends back (the SDK's ToParam).
func newThreadTurn(r *MessagesRequest, a *provider.Answer) *threadTurn {
	t := &threadTurn{id: a.ID, model: r.Model, created: a.Created, messages: make([]Message, 0, len(r.Messages)-r.Continued+1)}
	t.messages = append(t.messages, r.Messages[r.Continued:]...)
	if reply, ok := replyMessage(a); ok {
		t.messages = append(t.messages, reply)
	}
	if r.Continues() {
		t.previous = r.Thread.PreviousMessageID
	} else {
		t.system, t.systemString, t.tools = r.System, r.systemString, r.Tools
		t.systemKey, t.toolsKey = canonical(systemJSON(r)), canonical(toolsJSON(r.Tools))
	}
	t.measure()
	return t
}

// systemJSON is the system prompt as it was sent, for its canonical key.
func systemJSON(r *MessagesRequest) json.RawMessage {
	if r.systemString && len(r.System) == 1 {
		return r.System[0].Raw
	}
	raws := make([]json.RawMessage, len(r.System))
	for i := range r.System {
		raws[i] = r.System[i].Raw
	}
	b, _ := json.Marshal(raws)
	return b
}

func toolsJSON(tools []Tool) json.RawMessage {
	raws := make([]json.RawMessage, len(tools))
	for i := range tools {
		raws[i] = tools[i].Raw
	}
	b, _ := json.Marshal(raws)
	return b
}

// replyMessage is the reply a as the assistant message a client sends
// back: its signed thinking, its text and its tool calls, decoded as a
// request's blocks are, so that the thread holds what an unthreaded
// client would have sent. It reports false for a reply with no block.
func replyMessage(a *provider.Answer) (Message, bool) {
	type block struct {
		Type      string          `json:"type"`
		Thinking  *string         `json:"thinking,omitempty"`
		Signature string          `json:"signature,omitempty"`
		Text      string          `json:"text,omitempty"`
		ID        string          `json:"id,omitempty"`
		Name      string          `json:"name,omitempty"`
		Input     json.RawMessage `json:"input,omitempty"`
	}
	var blocks []any
	if a.Thinking != "" {
		thinking := shownThinking(a)
		blocks = append(blocks, block{Type: "thinking", Thinking: &thinking, Signature: a.ThinkingSignature})
	}
	blocks = append(blocks, leadingBlocks(a)...)
	if a.Text != "" {
		blocks = append(blocks, block{Type: "text", Text: a.Text})
	}
	for _, c := range a.ToolCalls {
		blocks = append(blocks, block{Type: "tool_use", ID: c.ID, Name: c.Name, Input: toolInput(c.Arguments)})
	}
	if len(blocks) == 0 {
		return Message{}, false
	}
	raw, err := json.Marshal(blocks)
	if err != nil {
		return Message{}, false
	}
	content, _, decodeErr := decodeContent(context.Background(), "content", raw, messageBlocks)
	if decodeErr != nil {
		return Message{}, false
	}
	return Message{Role: "assistant", Content: content}, true
}
