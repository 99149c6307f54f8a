package anthropic

import (
	"encoding/json"

	"github.com/llmtestserver/llmtestserver/internal/apierr"
)

// Thread is the request's thread field (beta message-threads-2026-08-12):
// {"type":"create"} asks the API to hold the conversation under the
// reply's id; {"type":"continue","previous_message_id":…} resumes from
// such a reply, so that the request carries only the new messages, and
// no system or tools, which the thread keeps (the SDK's
// BetaMessageThreadParamUnion and BetaMessageNewParams.Thread doc).
type Thread struct {
	// Type is "create" or "continue".
	Type string
	// PreviousMessageID is the continued reply's id.
	PreviousMessageID string
	// SystemSent and ToolsSent say the continue request carried system
	// or tools, which must then equal the thread's, and SystemRaw and
	// ToolsRaw hold them.
	SystemSent, ToolsSent bool
	SystemRaw, ToolsRaw   json.RawMessage
}

// Continues reports whether the request continues a thread.
func (r *MessagesRequest) Continues() bool { return r.Thread != nil && r.Thread.Type == "continue" }

// decodeThread reads the thread field. It runs before the messages: a
// continue request may send none.
func (r *MessagesRequest) decodeThread(top map[string]json.RawMessage) *apierr.Error {
	raw := top["thread"]
	if absent(raw) || !r.beta {
		// Without a beta the field is an extra input, which the field
		// lists refuse.
		return nil
	}
	m, err := object("thread", raw)
	if err != nil {
		return err
	}
	t, err := tag("thread", m, "create", "continue")
	if err != nil {
		return err
	}
	r.Thread = &Thread{Type: t}
	if t == "create" {
		return nil
	}
	id, ok := m["previous_message_id"]
	if !ok {
		return missing("thread.continue.previous_message_id")
	}
	if r.Thread.PreviousMessageID, err = str("thread.continue.previous_message_id", id); err != nil {
		return err
	}
	r.Thread.SystemRaw, r.Thread.SystemSent = top["system"], !absent(top["system"])
	r.Thread.ToolsRaw, r.Thread.ToolsSent = top["tools"], !absent(top["tools"])
	return nil
}

// checkThreadFields refuses what a thread does not take: context
// management, which the SDK's ThreadUnsupportedFeatureName lists as a
// request field threads do not support (its other names are
// organization settings, or fields this server does not act on).
func (r *MessagesRequest) checkThreadFields(top map[string]json.RawMessage) *apierr.Error {
	r.contextManagement = r.beta && !absent(top["context_management"])
	if r.Thread == nil || !r.contextManagement {
		return nil
	}
	return ThreadUnsupported("context_management")
}

// The thread errors, with the codes of the SDK's ErrorCodeThread*
// constants and the statuses their docs give. The messages are those
// docs' sentences; the API's own wording is inferred.
const (
	codeThreadNotFound         = "thread_not_found"
	codeThreadAlreadyContinued = "thread_already_continued"
	codeThreadContinueInFlight = "thread_continue_in_flight"
	codeThreadFingerprint      = "thread_fingerprint_mismatch"
	codeThreadUnsupported      = "thread_unsupported_request"
)

// ThreadNotFound answers a continue whose previous_message_id names no
// thread the server holds (never created, evicted, or of a refused or
// broken-off turn): 404, which the SDK answers by replaying the whole
// conversation under create.
func ThreadNotFound(id string) *apierr.Error {
	e := threadError(codeThreadNotFound, "No usable Thread state was found for `previous_message_id` "+quoted(id)+
		". Replay the full conversation with `thread: {\"type\": \"create\"}` to start a new Thread.")
	e.Status, e.Type = 404, typeNotFound
	return e
}

// ThreadAlreadyContinued answers a second continue of the same reply.
func ThreadAlreadyContinued(id string) *apierr.Error {
	return threadError(codeThreadAlreadyContinued, "The response that `previous_message_id` "+quoted(id)+
		" names has already been continued, and each response can be continued only once. Continue from the Thread's most recent response `id`.")
}

// ThreadContinueInFlight answers a continue of a reply that another
// request is continuing at the same time.
func ThreadContinueInFlight(id string) *apierr.Error {
	return threadError(codeThreadContinueInFlight, "Another request is still continuing from the same `previous_message_id` "+quoted(id)+
		". Wait for it to complete and continue from its response `id`, or replay the full conversation with `thread: {\"type\": \"create\"}`.")
}

// ThreadFingerprintMismatch answers a continue whose field (model,
// system or tools) differs from the thread's.
func ThreadFingerprintMismatch(field string) *apierr.Error {
	e := threadError(codeThreadFingerprint, "`"+field+"` differs from the value stored with the Thread. Send the stored value, or replay the full conversation with `thread: {\"type\": \"create\"}` to change it.")
	e.Param = field
	return e
}

// ThreadUnsupported answers a thread request with a field threads do not
// support; the envelope's details list it under unsupported.
func ThreadUnsupported(field string) *apierr.Error {
	e := threadError(codeThreadUnsupported, "`thread` cannot be combined with `"+field+
		"`. Send the full conversation without `thread`, or change that field.")
	e.Param = field
	return e
}

func threadError(code, message string) *apierr.Error {
	e := invalid("thread", "%s", message)
	e.Code = code
	return e
}

func quoted(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}
