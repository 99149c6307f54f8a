package server

import (
	"strings"

	"github.com/llmtestserver/llmtestserver/internal/openai"
	"github.com/llmtestserver/llmtestserver/internal/runtime"
	"github.com/llmtestserver/llmtestserver/internal/tokens"
	"github.com/llmtestserver/llmtestserver/scenario"
)

// Overheads of the chat format: every message is wrapped in role markers,
// and every answer is primed with the assistant's.
const (
	tokensPerMessage = 3
	tokensPerName    = 1
	tokensPerReply   = 3
)

// usage is the token accounting of an answer to req: the reply's own
// override, or the prompt counted by the tokenizer with its cached prefix,
// and completion output tokens.
func usage(rt *runtime.Runtime, req *scenario.Request, reply *scenario.Reply, completion int) openai.Usage {
	if reply.Usage != nil {
		return openai.NewUsage(reply.Usage.PromptTokens, reply.Usage.CompletionTokens)
	}
	segments := promptSegments(req)
	prompt := tokensPerReply
	for _, s := range segments {
		prompt += s.Tokens
	}
	u := openai.NewUsage(prompt, completion)
	u.PromptTokensDetails.CachedTokens = rt.CachedTokens(req.Model, req.PromptCacheKey, segments)
	return u
}

// promptSegments cuts req's prompt into the parts prompt caching compares,
// in the order the model reads them (tools, system text, messages), each
// with its tokens. Every distinct text is tokenized once per process.
func promptSegments(req *scenario.Request) []runtime.PromptSegment {
	model := req.Model
	segments := make([]runtime.PromptSegment, 0, len(req.Messages)+2)
	if len(req.Tools) > 0 {
		var text strings.Builder
		n := 0
		for _, t := range req.Tools {
			text.WriteString(t.Name + "\x00" + t.Description + "\x00" + string(t.Parameters) + "\x00")
			n += tokens.Count(model, t.Name) + tokens.Count(model, t.Description) + tokens.Count(model, string(t.Parameters))
		}
		segments = append(segments, runtime.PromptSegment{Text: "tools\x00" + text.String(), Tokens: n})
	}
	if req.System != "" {
		segments = append(segments, runtime.PromptSegment{Text: "system\x00" + req.System,
			Tokens: tokensPerMessage + tokens.Count(model, "system") + tokens.Count(model, req.System)})
	}
	for _, m := range req.Messages {
		var text strings.Builder
		text.WriteString(m.Role + "\x00" + m.Name + "\x00" + m.ToolCallID + "\x00" + m.Content)
		n := tokensPerMessage + tokens.Count(model, m.Role) + tokens.Count(model, m.Content)
		if m.Name != "" {
			n += tokensPerName + tokens.Count(model, m.Name)
		}
		for _, c := range m.ToolCalls {
			text.WriteString("\x00" + c.ID + "\x00" + c.Name + "\x00" + c.Arguments)
			n += tokens.Count(model, c.Name) + tokens.Count(model, c.Arguments)
		}
		segments = append(segments, runtime.PromptSegment{Text: text.String(), Tokens: n})
	}
	return segments
}

// completionTokens counts one choice of an answer.
func completionTokens(model, text, refusal string, calls []scenario.ToolCall) int {
	n := tokens.Count(model, text) + tokens.Count(model, refusal)
	for _, c := range calls {
		n += tokens.Count(model, c.Name) + tokens.Count(model, c.Arguments)
	}
	return n
}
