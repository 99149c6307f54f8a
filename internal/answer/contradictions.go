package answer

import (
	"fmt"
	"strings"

	"github.com/llmtestserver/llmtestserver/scenario"
)

// contradictions lists what in reply the real model could not have
// answered to req, given its tool_choice, its tools and its
// parallel_tool_calls: a tool call under "none", an answer without a
// tool call under "required" or a forced function, a call to a tool the
// request does not offer or to another than the forced one, several calls
// where the request allows one. The reply is still served as scripted;
// the journal records each contradiction in words that say what the
// script did and what the request allowed, for the assertions to report.
func contradictions(req *scenario.Request, reply *scenario.Reply) []string {
	var out []string
	calls := reply.ToolCalls
	choice := req.ToolChoice
	forced := ""
	switch choice {
	case "", "auto", "none", "required":
	default:
		forced = choice
	}
	switch {
	case choice == "none" && len(calls) > 0:
		out = append(out, fmt.Sprintf(`the reply calls %s, but the request's tool_choice is "none": it allows no tool call`, callNames(calls)))
	case choice == "required" && len(calls) == 0:
		out = append(out, fmt.Sprintf(`the reply %s, but the request's tool_choice is "required": it allows only tool calls`, withoutCall(reply)))
	case forced != "" && len(calls) == 0:
		out = append(out, fmt.Sprintf("the reply %s, but the request's tool_choice forces a call to %s", withoutCall(reply), forced))
	}
	for _, c := range calls {
		switch {
		case !offers(req, c.Name):
			out = append(out, fmt.Sprintf("the reply calls %s, which the request does not offer (%s)", c.Name, offered(req)))
		case forced != "" && c.Name != forced:
			out = append(out, fmt.Sprintf("the reply calls %s, but the request's tool_choice forces a call to %s", c.Name, forced))
		}
	}
	if p := req.ParallelToolCalls; p != nil && !*p && len(calls) > 1 {
		out = append(out, fmt.Sprintf("the reply makes %d tool calls (%s), but the request's parallel_tool_calls is false: it allows one at most",
			len(calls), callNames(calls)))
	}
	return out
}

// withoutCall says what a reply without tool calls answers instead.
func withoutCall(reply *scenario.Reply) string {
	switch {
	case reply.Refusal != "":
		return "refuses without a tool call"
	case reply.JSON != nil:
		return "answers JSON without a tool call"
	case reply.Text != "":
		return "answers text without a tool call"
	}
	return "answers without a tool call"
}

// offers reports whether req offers a tool of this name.
func offers(req *scenario.Request, name string) bool {
	for i := range req.Tools {
		if req.Tools[i].Name == name {
			return true
		}
	}
	return false
}

// offered says which tools req offers.
func offered(req *scenario.Request) string {
	if len(req.Tools) == 0 {
		return "it offers no tools"
	}
	names := make([]string, len(req.Tools))
	for i := range req.Tools {
		names[i] = req.Tools[i].Name
	}
	return "it offers " + strings.Join(names, ", ")
}

// callNames joins the names of calls.
func callNames(calls []scenario.ToolCall) string {
	names := make([]string, len(calls))
	for i := range calls {
		names[i] = calls[i].Name
	}
	return strings.Join(names, ", ")
}
