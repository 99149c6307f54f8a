package answer

import (
	"strings"

	"github.com/llmtestserver/llmtestserver/scenario"
)

// cutAtStop cuts a reply as the real model stops at a stop sequence, and
// returns the sequence it stopped at ("" when none occurs): its text (or
// structured-output document) ends just before the earliest occurrence of
// any of stops, the sequence itself left out. A model that stops inside
// its text never gets to the tool calls after it, so a cut drops them too;
// the answer then finishes with a plain stop and its usage counts the cut
// text, as the rest of build derives both from the reply: a scripted
// finish reason gives way (the model stopped at the sequence), but for
// content_filter, which stands whatever the text. Thinking, which no
// provider documents stop sequences for, and refusals are left whole.
//
// A reply that scripts finish_reason stop_sequence and meets none stops
// at the first of stops, uncut.
//
// reply is the request's own copy: only its fields are replaced, never the
// scenario's slices or strings.
func cutAtStop(reply *scenario.Reply, stops []string) string {
	stop := cutAtFirstStop(reply, stops)
	if k, _ := scenario.NormalizeFinish(reply.FinishReason); k == scenario.FinishStopSequence && stop == "" && len(stops) > 0 {
		stop = stops[0]
	}
	return stop
}

func cutAtFirstStop(reply *scenario.Reply, stops []string) string {
	if len(stops) == 0 {
		return ""
	}
	if reply.JSON != nil {
		at, stop := firstStop(string(reply.JSON), stops)
		if at < 0 {
			return ""
		}
		// The document is no longer whole; the journal's schema check says
		// so, as the real API sends the cut text as it is.
		reply.JSON = reply.JSON[:at:at]
		stoppedAtSequence(reply)
		return stop
	}
	at, stop := firstStop(reply.Text, stops)
	if at < 0 {
		return ""
	}
	reply.Text = reply.Text[:at]
	stoppedAtSequence(reply)
	return stop
}

// stoppedAtSequence makes a cut reply one that stopped at a stop sequence.
func stoppedAtSequence(reply *scenario.Reply) {
	reply.ToolCalls = nil
	if k, _ := scenario.NormalizeFinish(reply.FinishReason); k != scenario.FinishContentFilter {
		reply.FinishReason = ""
	}
}

// firstStop is the offset in s of the earliest occurrence of any of stops,
// and which one, or -1. Of sequences that occur at the same offset the
// shortest is the one a model writing token by token meets first.
func firstStop(s string, stops []string) (int, string) {
	first, which := -1, ""
	for _, stop := range stops {
		i := strings.Index(s, stop)
		if i < 0 || stop == "" {
			continue
		}
		if first < 0 || i < first || i == first && len(stop) < len(which) {
			first, which = i, stop
		}
	}
	return first, which
}
