package runtime

import (
	"crypto/sha256"
	"encoding/hex"

	"github.com/llmtestserver/llmtestserver/scenario"
)

// Sources of a conversation identity, strongest first.
const (
	// SourceExplicit: the request names its conversation itself (the
	// Responses API's previous_response_id chain or conversation).
	SourceExplicit = "explicit"
	// SourceDeclared: a per-conversation client of the session sent the
	// conversation header.
	SourceDeclared = "declared"
	// SourceDerived: derived from the conversation's opening, its
	// system/developer text and first user message.
	SourceDerived = "derived"
)

// maxConversations bounds the identities a runtime remembers.
const maxConversations = 1 << 14

// conversation is what the runtime remembers of one conversation identity.
type conversation struct {
	generation int // from 1
	messages   int // message count of the last request seen
}

// identify returns req's conversation identity: an explicit one already set
// on req, else the declared one, else one derived from the opening.
func identify(req *scenario.Request, declared string) (id, source string) {
	switch {
	case req.Conversation != "":
		return req.Conversation, SourceExplicit
	case declared != "":
		return declared, SourceDeclared
	}
	h := sha256.New()
	h.Write([]byte(req.System))
	h.Write([]byte{0})
	h.Write([]byte(req.FirstUserText()))
	return "conv_" + hex.EncodeToString(h.Sum(nil)[:8]), SourceDerived
}

// track records req as the latest request of conversation id and fills in
// its identity, generation and turn. A conversation that comes back with
// fewer messages than its last request started again from its opening: a
// new generation. An exact retry, with as many messages, stays in the same
// generation. Messages and turns that only rt.earlier still counts (those
// of evicted responses of a chain) count as the request's own. The caller
// holds mu.
func (rt *Runtime) track(req *scenario.Request, id, source string) {
	c, ok := rt.conversations[id]
	if !ok {
		if len(rt.conversations) >= maxConversations {
			// A bound, not an eviction policy: sessions that see this many
			// openings are load tests, where generations matter little.
			clear(rt.conversations)
		}
		c = &conversation{generation: 1}
		rt.conversations[id] = c
	} else if rt.earlier.Messages+len(req.Messages) < c.messages {
		c.generation++
	}
	c.messages = rt.earlier.Messages + len(req.Messages)
	req.Conversation, req.ConversationSource = id, source
	req.Generation, req.Turn = c.generation, rt.earlier.UserTurns+req.UserTurns()
}
