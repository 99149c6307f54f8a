package openai

import (
	"strings"

	"github.com/llmtestserver/llmtestserver/scenario"
)

// cutAtStop cuts a scripted reply as the real model stops at a stop
// sequence: its text (or structured-output document) ends just before the
// first occurrence of any of stops, the sequence itself left out. A model
// that stops inside its text never gets to the tool calls after it, so a
// cut drops them too; the answer then finishes with "stop" and its usage
// counts the cut text, as the rest of Build derives both from the reply: a
// scripted finish reason gives way to "stop" (the model stopped at the
// sequence), but for content_filter, which stands whatever the text.
// Refusals are left whole: whether the API applies stop sequences to them
// is not documented. It reports whether the reply was cut.
//
// reply is the caller's copy: only its fields are replaced, never the
// scenario's slices or strings.
func cutAtStop(reply *scenario.Reply, stops []string) bool {
	if len(stops) == 0 {
		return false
	}
	if reply.JSON != nil {
		at := firstStop(string(reply.JSON), stops)
		if at < 0 {
			return false
		}
		// The document is no longer whole; the journal's schema check says
		// so, as the real API sends the cut text as it is.
		reply.JSON = reply.JSON[:at:at]
		stoppedAtSequence(reply)
		return true
	}
	at := firstStop(reply.Text, stops)
	if at < 0 {
		return false
	}
	reply.Text = reply.Text[:at]
	stoppedAtSequence(reply)
	return true
}

// stoppedAtSequence makes a cut reply one that stopped at a stop sequence.
func stoppedAtSequence(reply *scenario.Reply) {
	reply.ToolCalls = nil
	if k, _ := scenario.NormalizeFinish(reply.FinishReason); k != scenario.FinishContentFilter {
		reply.FinishReason = ""
	}
}

// firstStop is the offset of the earliest occurrence in s of any of stops,
// or -1.
func firstStop(s string, stops []string) int {
	first := -1
	for _, stop := range stops {
		if i := strings.Index(s, stop); i >= 0 && (first < 0 || i < first) {
			first = i
		}
	}
	return first
}
