// Package apierr is the neutral API error: what went wrong, with a status
// and a message, in words of no provider. The runtime, the answer layer and
// the HTTP core return it; each codec renders it in its provider's
// envelope, and the admin API in its own.
package apierr

import (
	"fmt"
	"net/http"

	"github.com/llmtestserver/llmtestserver/journal"
	"github.com/llmtestserver/llmtestserver/scenario"
)

// Error is an API error.
type Error struct {
	// Kind is what went wrong; empty means the kind of Status.
	Kind scenario.ErrorKind
	// Status is the HTTP status; 0 lets the codec choose its own for Kind.
	Status int
	// Type is a provider's own error type, set by that provider's codec or
	// by a script; a codec renders it only when it is one of its own types.
	Type string
	// Code is the machine-readable code, such as "model_not_found" or one
	// of this server's own "llm_test_server_..." codes.
	Code string
	// Param names the offending request field, if any.
	Param string
	// Message explains the error; empty lets the codec use its provider's
	// message for the status.
	Message string
	// Header holds extra response headers, such as Retry-After.
	Header http.Header
	// Details holds what a codec's own envelope says beyond the fields
	// above (Gemini's typed google.rpc details); only the codec that set
	// it renders it.
	Details any
	// Tried explains an llm_test_server_no_scenario error for the journal:
	// the scenarios tried, nearest first. Codecs do not render it.
	Tried []journal.Tried
	// JournalMessage, when set, is what the journal records in place of
	// Message: a message that shows part of what the client sent that the
	// journal must never keep, such as the wrong API key OpenAI's 401
	// quotes. Codecs do not render it.
	JournalMessage string
}

// Error implements error.
func (e *Error) Error() string {
	if e.Code != "" {
		return fmt.Sprintf("%d %s: %s", e.Status, e.Code, e.Message)
	}
	return fmt.Sprintf("%d %s: %s", e.Status, e.TypeOrKind(), e.Message)
}

// KindOrStatus is e's kind, or the kind its status stands for.
func (e *Error) KindOrStatus() scenario.ErrorKind {
	if e.Kind != "" {
		return e.Kind
	}
	return scenario.KindOfStatus(e.Status)
}

// TypeOrKind is e's provider type, or else its kind.
func (e *Error) TypeOrKind() string {
	if e.Type != "" {
		return e.Type
	}
	return string(e.KindOrStatus())
}

// JournalCode is what the journal records for e: its code, else its type,
// else its kind.
func (e *Error) JournalCode() string {
	if e.Code != "" {
		return e.Code
	}
	return e.TypeOrKind()
}

// WithHeader returns e with header k set to v.
func (e *Error) WithHeader(k, v string) *Error {
	if e.Header == nil {
		e.Header = make(http.Header)
	}
	e.Header.Set(k, v)
	return e
}

// Scripted is the error a scripted reply answers with.
func Scripted(s *scenario.Error) *Error {
	e := &Error{Kind: s.Kind, Status: s.Status, Type: s.Type, Code: s.Code, Param: s.Param, Message: s.Message}
	for k, v := range s.Headers {
		e.WithHeader(k, v)
	}
	return e
}
