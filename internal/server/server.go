package server

import (
	"net/http"
	"strings"

	"github.com/llmtestserver/llmtestserver/internal/openai"
	"github.com/llmtestserver/llmtestserver/internal/runtime"
)

// Header names that select and authorize a session.
const (
	HeaderSession      = "X-Llm-Test-Server-Session"
	HeaderSessionKey   = "X-Llm-Test-Server-Session-Key"
	HeaderConversation = "X-Llm-Test-Server-Conversation"
)

// Created describes a newly admitted session.
type Created struct {
	ID               string `json:"id"`
	Key              string `json:"key"`
	ReservationBytes int64  `json:"reservation_bytes"`
}

// Sessions is what the handler needs from the session layer. Errors it
// returns are *openai.Error values, written to the client as they are.
type Sessions interface {
	// Default returns the runtime that serves requests without session headers.
	Default() *runtime.Runtime
	// Lookup returns the runtime of session id if key is its key.
	Lookup(id, key string) (*runtime.Runtime, bool)
	// Create admits a session configured by the JSON body; "{}" or an empty
	// body clones the startup configuration.
	Create(body []byte) (Created, error)
	// Delete retires the session id if key is its key.
	Delete(id, key string) error
	// Configure replaces the configuration of session id, or of the default
	// runtime when id is "", with the JSON body.
	Configure(id string, body []byte) error
	// AddScenarios merges the scenarios of a POST /admin-api/scenarios body
	// (see DecodeScenarioList) into those of session id, or of the default
	// runtime when id is "": all of them, checked like a configuration
	// (valid, within the size limit and the reservation budget), or none.
	AddScenarios(id string, body []byte) error
}

// Options tunes the handler.
type Options struct {
	// MaxRequestBytes bounds every request body.
	MaxRequestBytes int64
}

// handler routes every request of the server.
type handler struct {
	sessions Sessions
	opts     Options
}

// New returns the server's handler.
func New(sessions Sessions, opts Options) http.Handler {
	return &handler{sessions: sessions, opts: opts}
}

const sessionsPath = "/admin-api/sessions"

func (h *handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if headersTooLarge(w, r) {
		return
	}
	path := r.URL.Path
	switch {
	case path == sessionsPath:
		if r.Method != http.MethodPost {
			writeError(w, openai.MethodNotAllowed(r.Method, path, http.MethodPost))
			return
		}
		h.createSession(w, r)
		return
	case strings.HasPrefix(path, sessionsPath+"/"):
		if r.Method != http.MethodDelete {
			writeError(w, openai.MethodNotAllowed(r.Method, path, http.MethodDelete))
			return
		}
		h.deleteSession(w, r, strings.TrimPrefix(path, sessionsPath+"/"))
		return
	}
	rt, id, err := h.selectRuntime(r.Header)
	if err != nil {
		// Nothing is invoked or journaled: the request reached no runtime.
		writeError(w, err)
		return
	}
	if strings.HasPrefix(path, "/admin-api/") {
		h.serveControl(w, r, selected{rt, id})
		return
	}
	h.serveProvider(w, r, rt)
}

// selectRuntime picks the runtime named by the session headers: neither
// header selects the default runtime (and the ID ""); both, once each and
// valid, select that session. Anything else selects nothing.
func (h *handler) selectRuntime(header http.Header) (*runtime.Runtime, string, *openai.Error) {
	ids, keys := header.Values(HeaderSession), header.Values(HeaderSessionKey)
	if len(ids) == 0 && len(keys) == 0 {
		return h.sessions.Default(), "", nil
	}
	if len(ids) != 1 || len(keys) != 1 {
		return nil, "", openai.SessionNotFound()
	}
	rt, ok := h.sessions.Lookup(ids[0], keys[0])
	if !ok {
		return nil, "", openai.SessionNotFound()
	}
	return rt, ids[0], nil
}

// selected is the runtime a control request is for, with its session ID
// ("" for the default runtime).
type selected struct {
	rt *runtime.Runtime
	id string
}

// hasSelector reports whether any session header is present.
func hasSelector(header http.Header) bool {
	return len(header.Values(HeaderSession)) > 0 || len(header.Values(HeaderSessionKey)) > 0
}
