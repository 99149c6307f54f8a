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

// MaxConversations bounds the identities a runtime remembers, and the
// per-conversation queue positions it keeps across all its scenarios.
// Reaching either bound starts both over, so that generations and
// per-conversation queues stay consistent: a conversation that is new to
// the runtime again starts its queues from their first reply again.
const MaxConversations = 1 << 14

// maxKeyBytes bounds the length of the keys identities and queue positions
// are remembered by: a longer identity (a declared conversation header can
// be long) is remembered by its hash, so a bound on their count is a bound
// on their bytes.
const maxKeyBytes = 64

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
	key := identityKeyOf(id)
	c, ok := rt.conversations[key]
	if !ok {
		if len(rt.conversations) >= MaxConversations {
			// A bound, not an eviction policy: sessions that see this many
			// openings are load tests, where generations matter little.
			rt.forgetConversations()
		}
		c = conversation{generation: 1}
	} else if rt.earlier.Messages+len(req.Messages) < c.messages {
		c.generation++
	}
	c.messages = rt.earlier.Messages + len(req.Messages)
	rt.conversations[key] = c
	req.Conversation, req.ConversationSource = id, source
	req.Generation, req.Turn = c.generation, rt.earlier.UserTurns+req.UserTurns()
}

// identityKey is what a conversation identity is remembered by: 128 bits
// of its hash, so that every identity costs the same few bytes however
// long its name (a declared conversation header can be long).
type identityKey [16]byte

func identityKeyOf(id string) identityKey {
	sum := sha256.Sum256([]byte(id))
	return identityKey(sum[:16])
}

// addPosition keeps p as the position of conversation key in the
// per-conversation queue q, starting every conversation over first when
// the runtime keeps MaxConversations positions already. The caller holds mu.
func (rt *Runtime) addPosition(q *queue, key string, p *position) {
	if rt.positions >= MaxConversations {
		rt.forgetConversations()
	}
	if q.byConv == nil {
		q.byConv = make(map[string]*position)
	}
	q.byConv[key] = p
	rt.positions++
}

// forgetConversations starts every conversation over: identities and
// per-conversation queue positions alike. The caller holds mu.
func (rt *Runtime) forgetConversations() {
	clear(rt.conversations)
	for _, q := range rt.queues {
		q.byConv = nil
	}
	rt.positions = 0
}

// boundedKey returns id, or a fixed-length hash of it when it is longer
// than maxKeyBytes.
func boundedKey(id string) string {
	if len(id) <= maxKeyBytes {
		return id
	}
	sum := sha256.Sum256([]byte(id))
	return "sha256:" + hex.EncodeToString(sum[:16])
}
