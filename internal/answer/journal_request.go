package answer

import (
	"github.com/llmtestserver/llmtestserver/journal"
	"github.com/llmtestserver/llmtestserver/scenario"
)

// journalRequest is what the journal keeps of req. It copies no string:
// the journal clips and copies each one as it records the entry, so a
// large prompt is copied once, and only its kept part. Of the messages it
// takes only the last the journal keeps, so that a long conversation is
// not converted whole only to be cut.
func journalRequest(req *scenario.Request) journal.Request {
	out := journal.Request{
		System: req.System, ToolChoice: req.ToolChoice, ResponseFormat: responseFormat(req.ResponseFormat),
		Temperature: req.Temperature, TopP: req.TopP, MaxOutputTokens: req.MaxOutputTokens, StopSequences: req.StopSequences,
		IncludeUsage: req.IncludeUsage, Metadata: req.Metadata, User: req.User,
		PreviousResponseID: req.PreviousResponseID, ConversationID: req.ConversationID,
	}
	if len(req.Tools) > 0 {
		out.Tools = make([]string, 0, min(len(req.Tools), journalListItems))
		for i := range req.Tools[:min(len(req.Tools), journalListItems)] {
			out.Tools = append(out.Tools, req.Tools[i].Name)
		}
	}
	msgs := req.Messages[max(0, len(req.Messages)-journalListItems):]
	out.OmittedMessages = len(req.Messages) - len(msgs)
	if len(msgs) > 0 {
		out.Messages = make([]journal.Message, len(msgs))
		for i := range msgs {
			m := &msgs[i]
			jm := journal.Message{Role: m.Role, Text: m.Content, ToolCallID: m.ToolCallID}
			if len(m.ToolCalls) > 0 {
				calls := m.ToolCalls[:min(len(m.ToolCalls), journalListItems)]
				jm.ToolCalls = make([]journal.ToolCall, len(calls))
				for j, c := range calls {
					jm.ToolCalls[j] = journal.ToolCall{ID: c.ID, Name: c.Name, Arguments: c.Arguments}
				}
			}
			out.Messages[i] = jm
		}
	}
	return out
}

// journalListItems is how many items of a list the journal keeps (its
// maxListItems): converting more would only make garbage.
const journalListItems = 128

// responseFormat is the journal's word for a structured-output format:
// "json_object", or "json_schema:" and the schema's name; "" for text.
func responseFormat(f *scenario.ResponseFormat) string {
	switch {
	case f == nil:
		return ""
	case f.Type == "json_schema":
		return "json_schema:" + f.Name
	}
	return f.Type
}
