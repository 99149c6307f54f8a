package anthropic

import (
	"fmt"
	"strings"

	"github.com/llmtestserver/llmtestserver/internal/apierr"
)

// checkTextBlocks refuses empty and whitespace-only text, by the rules
// probed against the real API and tabulated in
// experientiallabs/experiential#804 (and in part LibreChat-AI/agents#124):
//   - an empty text block anywhere in a message's or the system's list:
//     "messages: text content blocks must be non-empty" ("system: …");
//   - content whose every block is whitespace-only text, a string included:
//     "messages: text content blocks must contain non-whitespace text"
//     (whitespace beside any other block, a tool_use or text, is taken);
//   - a string content "" is the empty-content rule's (validate), and an
//     empty system string is taken;
//   - a tool_result's content is never checked (all four shapes taken).
//
// The optional final assistant message gets the same rules (the sources
// show them "anywhere", prefill not excepted); its string content "" stays
// taken as before.
func (r *MessagesRequest) checkTextBlocks() *apierr.Error {
	if err := textRule("system", "system", r.System, r.systemString); err != nil {
		return err
	}
	for i := range r.Messages {
		m := &r.Messages[i]
		if err := textRule("messages", fmt.Sprintf("messages.%d", i), m.Content, m.ContentString); err != nil {
			return err
		}
	}
	return nil
}

// textRule applies checkTextBlocks' rules to one content; section names
// it in the message, path in the param.
func textRule(section, path string, blocks []Block, isString bool) *apierr.Error {
	if len(blocks) == 0 || isString && blocks[0].Text == "" {
		return nil
	}
	blank := true
	for k := range blocks {
		b := &blocks[k]
		if b.Type != "text" {
			blank = false
			continue
		}
		if b.Text == "" {
			p := path
			if !isString {
				p = fmt.Sprintf("%s.content.%d", path, k)
				if section == "system" {
					p = fmt.Sprintf("system.%d", k)
				}
			}
			return invalid(p, "%s: text content blocks must be non-empty", section)
		}
		if strings.TrimSpace(b.Text) != "" {
			blank = false
		}
	}
	if blank {
		return invalid(path, "%s: text content blocks must contain non-whitespace text", section)
	}
	return nil
}

// checkReplayedThinking refuses a replayed thinking block whose signature
// the server did not give that text (see validSignature), and a
// redacted_thinking block whose data it did not hand out (see
// validRedactedData; that wording is inferred from the thinking one).
func (r *MessagesRequest) checkReplayedThinking() *apierr.Error {
	for i := range r.Messages {
		for k, b := range r.Messages[i].Content {
			path := fmt.Sprintf("messages.%d.content.%d", i, k)
			switch {
			case b.Type == "thinking" && !validSignature(b.Text, b.Signature):
				return invalid(path, "%s: Invalid `signature` in `thinking` block", path)
			case b.Type == "redacted_thinking" && !validRedactedData(b.Data):
				return invalid(path, "%s: Invalid `data` in `redacted_thinking` block", path)
			}
		}
	}
	return nil
}

// checkToolBlocks refuses a tool_use id used twice in the conversation
// ("messages.1.content.1: `tool_use` ids must be unique", the real
// wording, trycua/cua#524), a tool_use outside an assistant message and a
// tool_result outside a user message (inferred wordings: the roles' unions
// take every block type, so the refusal is the API's own check, whose
// words no source quotes).
func (r *MessagesRequest) checkToolBlocks() *apierr.Error {
	ids := map[string]bool{}
	for i := range r.Messages {
		m := &r.Messages[i]
		for k, b := range m.Content {
			path := fmt.Sprintf("messages.%d.content.%d", i, k)
			switch b.Type {
			case "tool_use":
				if m.Role != "assistant" {
					return invalid(path, "%s: `tool_use` blocks are only allowed in `assistant` messages", path)
				}
				if ids[b.ID] {
					return invalid(path, "%s: `tool_use` ids must be unique", path)
				}
				ids[b.ID] = true
			case "tool_result":
				if m.Role != "user" {
					return invalid(path, "%s: `tool_result` blocks are only allowed in `user` messages", path)
				}
			}
		}
	}
	return nil
}

// checkToolChoice refuses a tool_choice the tools cannot meet, and a
// forced one with thinking: "Thinking may not be enabled when tool_choice
// forces tool use." (the real wording, for any and tool alike:
// mastra-ai/mastra#7507, workglow-dev/libs#746). The wordings for a
// tool_choice without tools, or naming a tool not offered, are inferred.
func (r *MessagesRequest) checkToolChoice() *apierr.Error {
	tc := r.ToolChoice
	if tc == nil || tc.Type == "auto" || tc.Type == "none" {
		return nil
	}
	if len(r.Tools) == 0 {
		return invalid("tool_choice", "tool_choice: `tool_choice` of type `%s` requires `tools` to be provided", tc.Type)
	}
	if tc.Type == "tool" && !r.offers(tc.Name) {
		return invalid("tool_choice.tool.name", "tool_choice.tool.name: Tool '%s' not found in `tools`", tc.Name)
	}
	if r.ThinkingEnabled() {
		return invalid("tool_choice", "Thinking may not be enabled when tool_choice forces tool use.")
	}
	return nil
}

// offers reports whether the request's tools may include one named name:
// a toolset (an MCP server's, the browser's) offers tools the body does
// not name, so with one any name may be offered.
func (r *MessagesRequest) offers(name string) bool {
	for i := range r.Tools {
		if t := &r.Tools[i]; t.Name == name || t.Name == "" && !t.Client() {
			return true
		}
	}
	return false
}
