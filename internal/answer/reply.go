package answer

import (
	"github.com/llmtestserver/llmtestserver/internal/runtime"
	"github.com/llmtestserver/llmtestserver/journal"
)

// journalReply records in e which reply answers: its index among its
// scenario's replies and the call site that scripted it. settle records it
// for every reservation, a chaos rule's included (its one reply, index 0),
// so that an entry names the reply even when it is a scripted error or the
// client left before it came. A Go responder's own reply has no call site:
// the entry names the one that scripted the responder.
func journalReply(e *journal.Entry, res *runtime.Reservation) {
	e.ReplyIndex, e.ScriptedAt = res.ReplyIndex, res.Reply.ScriptedAt
}
