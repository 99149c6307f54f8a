package server

import (
	"context"
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
//
// Counting stops as soon as ctx is done; usage then returns zero and leaves
// the runtime's prompt cache alone, and the request is ended by its caller
// (serveProvider answers a request whose context ended without delivering
// what the handler computed).
func usage(ctx context.Context, rt *runtime.Runtime, req *scenario.Request, reply *scenario.Reply, completion int) openai.Usage {
	if reply.Usage != nil {
		return openai.NewUsage(reply.Usage.PromptTokens, reply.Usage.CompletionTokens)
	}
	segments, err := promptSegments(ctx, req)
	if err != nil {
		return openai.Usage{}
	}
	return usageOf(rt, req, reply, segments, completion)
}

// usageOf is usage for a prompt already cut into segments, which may
// resume a summary of turns no longer at hand (see continued).
func usageOf(rt *runtime.Runtime, req *scenario.Request, reply *scenario.Reply, segments []runtime.PromptSegment, completion int) openai.Usage {
	if reply.Usage != nil {
		return openai.NewUsage(reply.Usage.PromptTokens, reply.Usage.CompletionTokens)
	}
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
// It stops with ctx's cause when ctx is done.
func promptSegments(ctx context.Context, req *scenario.Request) ([]runtime.PromptSegment, error) {
	c := counter{ctx: ctx, model: req.Model}
	segments := make([]runtime.PromptSegment, 0, len(req.Messages)+2)
	if len(req.Tools) > 0 {
		var text strings.Builder
		n := 0
		for _, t := range req.Tools {
			text.WriteString(t.Name + "\x00" + t.Description + "\x00" + string(t.Parameters) + "\x00")
			n += c.count(t.Name) + c.count(t.Description) + c.count(string(t.Parameters))
		}
		segments = append(segments, runtime.PromptSegment{Text: "tools\x00" + text.String(), Tokens: n})
	}
	if req.System != "" {
		segments = append(segments, runtime.PromptSegment{Text: "system\x00" + req.System,
			Tokens: tokensPerMessage + c.count("system") + c.count(req.System)})
	}
	for _, m := range req.Messages {
		if c.err != nil {
			break
		}
		var text strings.Builder
		text.WriteString(m.Role + "\x00" + m.Name + "\x00" + m.ToolCallID + "\x00" + m.Content)
		n := tokensPerMessage + c.count(m.Role) + c.count(m.Content)
		if m.Name != "" {
			n += tokensPerName + c.count(m.Name)
		}
		for _, tc := range m.ToolCalls {
			text.WriteString("\x00" + tc.ID + "\x00" + tc.Name + "\x00" + tc.Arguments)
			n += c.count(tc.Name) + c.count(tc.Arguments)
		}
		segments = append(segments, runtime.PromptSegment{Text: text.String(), Tokens: n})
	}
	if c.err != nil {
		return nil, c.err
	}
	return segments, nil
}

// completionTokens counts one choice of an answer; it returns 0 once ctx is
// done.
func completionTokens(ctx context.Context, model, text, refusal string, calls []scenario.ToolCall) int {
	c := counter{ctx: ctx, model: model}
	n := c.count(text) + c.count(refusal)
	for _, tc := range calls {
		n += c.count(tc.Name) + c.count(tc.Arguments)
	}
	if c.err != nil {
		return 0
	}
	return n
}

// counter counts texts in model's encoding until ctx is done; from then on
// it counts nothing and err holds ctx's cause.
type counter struct {
	ctx   context.Context
	model string
	err   error
}

func (c *counter) count(text string) int {
	if c.err != nil {
		return 0
	}
	n, err := tokens.CountContext(c.ctx, c.model, text)
	c.err = err
	return n
}
