package anthropic

import (
	"fmt"
	"strings"

	"github.com/llmtestserver/llmtestserver/internal/apierr"
)

// validate runs the checks that look across fields, once every field has
// decoded: empty contents and text blocks, replayed thinking, the roles of
// tool blocks, tool_use and tool_result pairing, tool_choice against the
// tools and thinking, sampling with thinking, the thinking budget against
// max_tokens, and the cache_control breakpoints.
func (r *MessagesRequest) validate(messages bool) *apierr.Error {
	for i := range r.Messages {
		m := &r.Messages[i]
		last := i == len(r.Messages)-1
		if isEmpty(m) && !(last && m.Role == "assistant") {
			// The real API's wording.
			return invalid(fmt.Sprintf("messages.%d", i),
				"messages.%d: all messages must have non-empty content except for the optional final assistant message", i)
		}
	}
	checks := []func() *apierr.Error{r.checkTextBlocks, r.checkReplayedThinking, r.checkToolBlocks,
		r.checkToolTurns, r.checkToolChoice, r.checkSamplingWithThinking}
	for _, check := range checks {
		if err := check(); err != nil {
			return err
		}
	}
	if messages && r.Thinking != nil && r.Thinking.Type == "enabled" && r.Thinking.BudgetTokens >= *r.MaxTokens {
		// The real API's wording.
		return invalid("max_tokens", "`max_tokens` must be greater than `thinking.budget_tokens`. Please consult our documentation at https://docs.claude.com/en/docs/build-with-claude/extended-thinking#max-tokens-and-context-window-size")
	}
	parts, err := r.promptParts()
	if err == nil {
		r.parts = parts
	}
	return err
}

func isEmpty(m *Message) bool {
	if m.ContentString {
		return m.Content[0].Text == ""
	}
	return len(m.Content) == 0
}

// checkToolTurns enforces that each assistant tool_use is answered by a
// tool_result at the start of the next message, and that each tool_result answers a
// tool_use of the previous message, with the real API's messages.
func (r *MessagesRequest) checkToolTurns() *apierr.Error {
	for i := range r.Messages {
		m := &r.Messages[i]
		if m.Role == "user" {
			var prev map[string]bool
			if i > 0 && r.Messages[i-1].Role == "assistant" {
				prev = toolUseIDs(&r.Messages[i-1])
			}
			for k, b := range m.Content {
				if b.Type == "tool_result" && !prev[b.ToolUseID] {
					path := fmt.Sprintf("messages.%d.content.%d", i, k)
					return invalid(path, "%s: unexpected `tool_use_id` found in `tool_result` blocks: %s. Each `tool_result` block must have a corresponding `tool_use` block in the previous message.", path, b.ToolUseID)
				}
			}
		}
		if m.Role != "assistant" || i == len(r.Messages)-1 {
			continue
		}
		// Only the tool_result blocks that open the next message answer:
		// the tool-use docs require them first, before any text, and the
		// real refusal says "immediately after".
		answered := map[string]bool{}
		for _, b := range r.Messages[i+1].Content {
			if b.Type != "tool_result" {
				break
			}
			answered[b.ToolUseID] = true
		}
		var unanswered []string
		for _, b := range m.Content {
			if b.Type == "tool_use" && !answered[b.ID] {
				unanswered = append(unanswered, b.ID)
			}
		}
		if len(unanswered) > 0 {
			path := fmt.Sprintf("messages.%d", i)
			return invalid(path, "%s: `tool_use` ids were found without `tool_result` blocks immediately after: %s. Each `tool_use` block must have a corresponding `tool_result` block in the next message.", path, strings.Join(unanswered, ", "))
		}
	}
	return nil
}

func toolUseIDs(m *Message) map[string]bool {
	ids := map[string]bool{}
	for _, b := range m.Content {
		if b.Type == "tool_use" {
			ids[b.ID] = true
		}
	}
	return ids
}
