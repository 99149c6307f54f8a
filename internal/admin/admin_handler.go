// Package admin serves the admin API, /admin-api/*: session creation,
// deletion, forks and the working-set listing, the server's clock, and the
// control routes of the selected session (configuration, chaos rules and
// rate limits, reset, journal, scenarios, assertions, stored history,
// jobs), all listed in one routing table (Routes) and described in
// OpenAPI 3.1 (openapi.json, served at /admin-api/openapi.json). Its
// errors travel in an envelope of its own,
// {"error":{"message","type","param","code"}}, which no provider owns.
// Session bookkeeping (admission, configuration parsing) belongs to the
// session package, which hands it in as [Sessions].
package admin

import (
	"errors"
	"net/http"
	"strings"
	"sync"

	"github.com/llmtestserver/llmtestserver/internal/apierr"
	"github.com/llmtestserver/llmtestserver/internal/httpx"
	"github.com/llmtestserver/llmtestserver/internal/provider"
)

// Created describes a newly admitted session.
type Created struct {
	ID               string `json:"id"`
	Key              string `json:"key"`
	ReservationBytes int64  `json:"reservation_bytes"`
}

// Sessions is what the admin API needs from the session layer. Errors it
// returns are *apierr.Error values, written to the client as they are.
type Sessions interface {
	httpx.Selector
	Lister
	Controls
	Inspector
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

// Prefix is the path prefix of the admin API.
const Prefix = "/admin-api/"

const sessionsPath = "/admin-api/sessions"

// Handler serves the admin API.
type Handler struct {
	sessions Sessions
	// maxBody is the most bytes of a body the API reads (see New): the
	// server's request limit, maxRequest, or less when maxConfig, the
	// configuration size limit, makes it so.
	maxBody, maxRequest, maxConfig int64
	// clockMu serializes advances of a fake clock (see advanceClock).
	clockMu sync.Mutex
}

// New returns the admin API over sessions, whose configurations are at most
// maxConfig bytes, reading bodies of at most maxRequest bytes, and no more
// than a configuration of maxConfig bytes can take on the wire (see
// bodyLimit).
func New(sessions Sessions, maxRequest, maxConfig int64) *Handler {
	return &Handler{sessions: sessions, maxBody: min(maxRequest, bodyLimit(maxConfig)), maxRequest: maxRequest, maxConfig: maxConfig}
}

// bodyLimit is the most bytes an admin request body may take when
// configurations are at most maxConfig bytes: what such a configuration
// takes with every character escaped as \u003c is, six times its size,
// with room for some whitespace. Reading more would only be thrown away
// (a 30 MiB body of whitespace around a small configuration was read
// whole, up to the provider APIs' limit).
func bodyLimit(maxConfig int64) int64 { return 6*maxConfig + 64<<10 }

// readBody reads a request's JSON body within the admin API's limit. A
// body past the configuration's share of it is refused as a configuration
// too large, as the admin bodies that carry one are; one past the server's
// request limit, as too large a request (413).
func (h *Handler) readBody(r *http.Request) ([]byte, *apierr.Error) {
	body, err := provider.ReadBody(r, h.maxBody)
	if err != nil && err.Code == apierr.BodyTooLarge(0).Code && h.maxBody < h.maxRequest {
		return nil, apierr.ConfigurationTooLarge(h.maxConfig)
	}
	return body, err
}

// Render renders e in the admin API's envelope.
func Render(e *apierr.Error, _ uint64) (int, any) {
	status := e.Status
	if status == 0 {
		status = http.StatusInternalServerError
	}
	typ := e.Type
	if typ == "" {
		typ = "invalid_request_error"
		if status >= 500 {
			typ = "server_error"
		}
	}
	msg := e.Message
	if msg == "" {
		msg = "The server had an error while processing your request. Sorry about that!"
	}
	return status, envelope{Error: envelopeBody{Message: msg, Type: typ, Param: nullable(e.Param), Code: nullable(e.Code)}}
}

// envelope is the admin API's error body. Empty param and code encode as
// null.
type envelope struct {
	Error envelopeBody `json:"error"`
}

type envelopeBody struct {
	Message string  `json:"message"`
	Type    string  `json:"type"`
	Param   *string `json:"param"`
	Code    *string `json:"code"`
}

func nullable(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

func writeError(w http.ResponseWriter, e *apierr.Error) { httpx.WriteError(w, e, 0, Render) }

func writeJSON(w http.ResponseWriter, status int, v any) { httpx.WriteJSON(w, status, v, Render) }

// asAPIError returns err as the API error it carries; anything else is a
// server fault.
func asAPIError(err error) *apierr.Error {
	var apiErr *apierr.Error
	if errors.As(err, &apiErr) {
		return apiErr
	}
	return apierr.Internal()
}

// authorize checks the token a control request presents against the
// runtime's: the management key at the default runtime, the provider key
// of a session. The token comes as a bearer token, or as the password of
// HTTP Basic auth under any user name, which is how a browser logs in to
// the dashboard.
func authorize(r *http.Request, keyAccepted func(string) bool) *apierr.Error {
	token, found := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
	if !found {
		_, token, found = r.BasicAuth()
		if found && basicOrigin.Check(r) != nil {
			return crossSiteRefused()
		}
	}
	if keyAccepted(token) {
		return nil
	}
	if !found || token == "" {
		return &apierr.Error{Status: http.StatusUnauthorized,
			Message: "You didn't provide an API key. You need to provide your API key in an Authorization header using Bearer auth (i.e. Authorization: Bearer YOUR_KEY)."}
	}
	return &apierr.Error{Status: http.StatusUnauthorized, Code: "invalid_api_key",
		Message: "Incorrect API key provided: " + maskKey(token) + "."}
}

// maskKey shows only the ends of a long key, and nothing of a short one.
func maskKey(key string) string {
	if len(key) < 20 {
		return "***"
	}
	return key[:3] + "***" + key[len(key)-4:]
}
