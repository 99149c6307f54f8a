package openai

import (
	"context"
	"strings"

	"github.com/llmtestserver/llmtestserver/internal/answer"
	"github.com/llmtestserver/llmtestserver/internal/runtime"
	"github.com/llmtestserver/llmtestserver/scenario"
)

// Overheads of the chat format: every message is wrapped in role markers,
// and every answer is primed with the assistant's.
const (
	tokensPerMessage = 3
	tokensPerName    = 1
	tokensPerReply   = 3
)

// promptCacheGrid is how OpenAI reports prompt caching: a request whose
// prompt starts like an earlier one's, for the same model and
// prompt_cache_key, has that shared prefix cached, counted from 1024
// tokens on and in steps of 128.
var promptCacheGrid = runtime.PrefixRule{MinTokens: 1024, StepTokens: 128}

// chatPrompt is req's prompt as OpenAI counts and caches it: its segments,
// the reply's priming, the session's automatic cache for the model and the
// prompt_cache_key, and the model's context window.
func chatPrompt(req *scenario.Request, segments []runtime.PromptSegment) answer.Prompt {
	return answer.Prompt{Segments: segments, Overhead: tokensPerReply, Window: contextWindow(req.Model),
		Cache: answer.Cache{Prefix: &promptCacheGrid, Key: req.PromptCacheKey}}
}

// promptSegments cuts req's prompt into the parts prompt caching compares,
// in the order the model reads them (tools, system text, messages), each
// with its tokens. Every distinct text is tokenized once per process.
// It stops with ctx's cause when ctx is done.
func promptSegments(ctx context.Context, req *scenario.Request) ([]runtime.PromptSegment, error) {
	c := answer.Counter{Ctx: ctx, Model: req.Model}
	segments := make([]runtime.PromptSegment, 0, len(req.Messages)+2)
	if len(req.Tools) > 0 {
		var text strings.Builder
		n := 0
		for _, t := range req.Tools {
			text.WriteString(t.Name + "\x00" + t.Description + "\x00" + string(t.Parameters) + "\x00")
			n += c.Count(t.Name) + c.Count(t.Description) + c.Count(string(t.Parameters))
		}
		segments = append(segments, runtime.PromptSegment{Text: "tools\x00" + text.String(), Tokens: n})
	}
	if req.System != "" {
		segments = append(segments, runtime.PromptSegment{Text: "system\x00" + req.System,
			Tokens: tokensPerMessage + c.Count("system") + c.Count(req.System)})
	}
	for _, m := range req.Messages {
		if c.Err != nil {
			break
		}
		var text strings.Builder
		text.WriteString(m.Role + "\x00" + m.Name + "\x00" + m.ToolCallID + "\x00" + m.Content)
		n := tokensPerMessage + c.Count(m.Role) + c.Count(m.Content)
		if m.Name != "" {
			n += tokensPerName + c.Count(m.Name)
		}
		for _, tc := range m.ToolCalls {
			text.WriteString("\x00" + tc.ID + "\x00" + tc.Name + "\x00" + tc.Arguments)
			n += c.Count(tc.Name) + c.Count(tc.Arguments)
		}
		segments = append(segments, runtime.PromptSegment{Text: text.String(), Tokens: n})
	}
	if c.Err != nil {
		return nil, c.Err
	}
	return segments, nil
}
