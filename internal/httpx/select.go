package httpx

import (
	"net/http"

	"github.com/llmtestserver/llmtestserver/internal/apierr"
	"github.com/llmtestserver/llmtestserver/internal/runtime"
)

// Header names that select and authorize a session, and declare a
// conversation.
const (
	HeaderSession      = "X-Llm-Test-Server-Session"
	HeaderSessionKey   = "X-Llm-Test-Server-Session-Key"
	HeaderConversation = "X-Llm-Test-Server-Conversation"
)

// Selector finds the runtime a request is for.
type Selector interface {
	// Default returns the runtime that serves requests without session headers.
	Default() *runtime.Runtime
	// Lookup returns the runtime of session id if key is its key.
	Lookup(id, key string) (*runtime.Runtime, bool)
}

// Select picks the runtime named by the session headers: neither header
// selects the default runtime (and the ID ""); both, once each and valid,
// select that session. Anything else selects nothing, and says nothing of
// which header was wrong.
func Select(s Selector, header http.Header) (*runtime.Runtime, string, *apierr.Error) {
	ids, keys := header.Values(HeaderSession), header.Values(HeaderSessionKey)
	if len(ids) == 0 && len(keys) == 0 {
		return s.Default(), "", nil
	}
	if len(ids) != 1 || len(keys) != 1 {
		return nil, "", apierr.SessionNotFound()
	}
	rt, ok := s.Lookup(ids[0], keys[0])
	if !ok {
		return nil, "", apierr.SessionNotFound()
	}
	return rt, ids[0], nil
}

// HasSelector reports whether any session header is present.
func HasSelector(header http.Header) bool {
	return len(header.Values(HeaderSession)) > 0 || len(header.Values(HeaderSessionKey)) > 0
}
