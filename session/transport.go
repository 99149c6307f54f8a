package session

import (
	"net/http"

	"github.com/llmtestserver/llmtestserver/internal/httpx"
)

// Header names that select and authorize a session on every request.
const (
	HeaderSession    = httpx.HeaderSession
	HeaderSessionKey = httpx.HeaderSessionKey
	// HeaderConversation declares the conversation a request belongs to;
	// per-conversation clients (Session.Conversation) send it.
	HeaderConversation = httpx.HeaderConversation
)

// transport adds a session's headers to every request and passes it on to
// base. It never changes the caller's request or base's settings, so one base
// transport serves many sessions.
type transport struct {
	base         http.RoundTripper
	id, key      string
	conversation string // declared conversation, if any
}

// RoundTrip sends a clone of req with the session headers. The body is passed
// through untouched, so streaming and multipart uploads work as they are.
func (t *transport) RoundTrip(req *http.Request) (*http.Response, error) {
	clone := req.Clone(req.Context())
	clone.Header[HeaderSession] = []string{t.id}
	clone.Header[HeaderSessionKey] = []string{t.key}
	if t.conversation != "" {
		clone.Header[HeaderConversation] = []string{t.conversation}
	}
	return t.base.RoundTrip(clone)
}
