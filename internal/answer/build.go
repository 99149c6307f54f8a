package answer

import (
	"github.com/llmtestserver/llmtestserver/internal/provider"
	"github.com/llmtestserver/llmtestserver/internal/runtime"
	"github.com/llmtestserver/llmtestserver/journal"
	"github.com/llmtestserver/llmtestserver/scenario"
)

// Spec is what a codec says of the answer it is about to render.
type Spec struct {
	// ID is the answer's ID.
	ID string
	// ToolCallPrefix and ToolCallIDLength shape the IDs of the tool calls
	// a reply leaves without one: "call_" and 24 for OpenAI.
	ToolCallPrefix   string
	ToolCallIDLength int
	// AfterToolCall, if set, runs after each tool call has its ID, in
	// order: a codec that gives each call an ID of its own (the Responses
	// API's function_call items) draws it there, so that a session's IDs
	// follow one another as they always did.
	AfterToolCall func()
	// Choices is how many alternative answers are rendered (OpenAI's n);
	// 0 means 1. Each counts its output tokens.
	Choices int
	// Reasoning, if set, is the provider's rule for the reasoning tokens
	// its model spends beyond those of the reply's Thinking, which it never
	// shows: given the output tokens of one choice's visible answer (text,
	// refusal, tool calls), the hidden reasoning tokens of that choice.
	// They count among the output and reasoning tokens, never more than
	// the request's maximum output tokens leave after the visible answer,
	// so they never cut it; an answer already cut there spends none. A
	// reply's Usage override replaces the rule.
	Reasoning func(visible int) int
}

// Prompt is a request's prompt, cut into the segments prompt caching
// compares, with the codec's rules for counting and caching it.
type Prompt struct {
	// Segments are the prompt's parts in the order the model reads them.
	Segments []runtime.PromptSegment
	// Overhead counts tokens the format adds beyond the segments, such as
	// OpenAI's priming of the reply.
	Overhead int
	// Cache is how the provider caches prompts.
	Cache Cache
	// Window is the model's context window in tokens, which the prompt and
	// the request's maximum output tokens must fit; 0 when the codec's
	// catalog does not know the model, which is then never refused.
	Window int
}

// Cache is a provider's rule for the session's prompt cache, the one
// mechanism every provider's caching runs on: automatic, or at the
// breakpoints a request sets.
type Cache struct {
	// Prefix, when set, caches every prompt's prefixes under the model and
	// Key, and reports the cached part by the rule, as OpenAI does with
	// prompt_cache_key (see runtime.CachedTokens).
	Prefix *runtime.PrefixRule
	Key    string
	// Breakpoints are the prefixes a request asks to cache, by the Rule,
	// as Anthropic's cache_control does (see runtime.CacheAtBreakpoints).
	Breakpoints []runtime.Breakpoint
	Rule        runtime.BreakpointRule
	// Read, when set, is the tokens a prompt reads from a cache the
	// request names (Gemini's cachedContent): read whole, written never.
	Read int
}

// meet reports, and remembers, how a prompt of segments for model meets
// the session's prompt cache under c: the tokens read from it, those
// written to it, and those of them written with the one-hour TTL.
func (c *Cache) meet(rt *runtime.Runtime, model string, segments []runtime.PromptSegment) (read, write, write1h int) {
	switch {
	case c.Read > 0:
		return c.Read, 0, 0
	case c.Prefix != nil:
		return rt.CachedTokens(model, c.Key, segments, *c.Prefix), 0, 0
	case len(c.Breakpoints) > 0:
		return rt.CacheAtBreakpoints(model, segments, c.Breakpoints, c.Rule)
	}
	return 0, 0, 0
}

// build builds the neutral answer to req from reply, whose prompt is p,
// and fills the journal entry's answer fields: the answer's ID, the text
// (the JSON document of a structured reply, which the entry marks), the
// refusal, the tool calls with their IDs, the schema errors of a
// structured reply, what the reply contradicts of the request's
// tool_choice, tools and parallel_tool_calls (see contradictions), and the
// usage. An answer longer than req.MaxOutputTokens is cut there, at a
// token boundary, and finishes with FinishLength unless the reply scripts
// its own finish (see truncate).
func build(x *provider.Exchange, req *scenario.Request, reply *scenario.Reply, spec Spec, p *Prompt) provider.Answer {
	a := provider.Answer{ID: spec.ID, Model: req.Model, Created: x.Runtime.Now(),
		Text: reply.Text, Refusal: reply.Refusal, Thinking: reply.Thinking,
		RedactedThinking: reply.RedactedThinking, WebSearches: reply.WebSearches, Citations: reply.Citations,
		Iterations: reply.Iterations, AppliedEdits: reply.AppliedEdits}
	if reply.Model != "" {
		a.Model = reply.Model
	}
	if reply.JSON != nil {
		a.Text, a.JSON = string(reply.JSON), true
		x.Entry.SchemaErrors = checkSchema(req.ResponseFormat, reply.JSON)
	}
	x.Entry.Contradictions = contradictions(req, reply)
	// An answer longer than the request allows is cut, as the model stops.
	cut := truncate(&Counter{Ctx: x.Ctx, Model: req.Model}, req.MaxOutputTokens, &a)
	calls := reply.ToolCalls
	if cut.done {
		calls, a.Refusal = nil, ""
	}
	for _, c := range calls {
		if c.ID == "" {
			c.ID = x.Runtime.NewID(spec.ToolCallPrefix, spec.ToolCallIDLength)
		}
		if spec.AfterToolCall != nil {
			spec.AfterToolCall()
		}
		a.ToolCalls = append(a.ToolCalls, c)
		x.Entry.ToolCalls = append(x.Entry.ToolCalls, journal.ToolCall{ID: c.ID, Name: c.Name, Arguments: c.Arguments})
	}
	a.Finish = finishOf(reply, &a, cut.done)
	x.Entry.ReplyText, x.Entry.Refusal, x.Entry.JSON, x.Entry.ResponseID = a.Text, a.Refusal, a.JSON, a.ID
	a.Usage = usage(x, req, reply, &a, spec, p, cut)
	x.Entry.Usage = journal.Usage{Input: a.Usage.Input, CacheRead: a.Usage.CacheRead, CacheWrite: a.Usage.CacheWrite,
		Output: a.Usage.Output, Reasoning: a.Usage.Reasoning}
	return a
}

// finishOf is why the model stopped: the reply's override, or what the
// answer holds: cut says it was cut at the request's maximum output tokens.
func finishOf(reply *scenario.Reply, a *provider.Answer, cut bool) scenario.FinishKind {
	if k, ok := scenario.NormalizeFinish(reply.FinishReason); ok && k != "" {
		return k
	}
	switch {
	case cut:
		return scenario.FinishLength
	case len(a.ToolCalls) > 0:
		return scenario.FinishToolCalls
	case a.Refusal != "":
		return scenario.FinishRefusal
	}
	return scenario.FinishStop
}

// usage is the token accounting of a: the reply's override, or the prompt
// counted by the codec's rules with what the prompt cache holds of it, and
// the answer's output tokens, once per choice: for an answer cut at the
// request's maximum output tokens, exactly that maximum. The codec's
// hidden reasoning (Spec.Reasoning) adds to the reasoning and output
// tokens of an answer that was not cut, within that maximum.
func usage(x *provider.Exchange, req *scenario.Request, reply *scenario.Reply, a *provider.Answer, spec Spec, p *Prompt, cut cut) provider.Usage {
	if o := reply.Usage; o != nil {
		return provider.Usage{Input: o.Input, CacheRead: o.CacheRead, CacheWrite: o.CacheWrite, Output: o.Output, Reasoning: o.Reasoning}
	}
	model := req.Model
	choices := max(spec.Choices, 1)
	u := provider.Usage{Input: p.Tokens()}
	u.CacheRead, u.CacheWrite, u.CacheWrite1h = p.Cache.meet(x.Runtime, model, p.Segments)
	c := Counter{Ctx: x.Ctx, Model: model}
	thinking, text := c.Count(a.Thinking), c.Count(a.Text)+c.Count(a.Refusal)
	visible := text
	for _, tc := range a.ToolCalls {
		visible += c.Count(tc.Name) + c.Count(tc.Arguments)
	}
	u.Reasoning = thinking * choices
	u.Output = (thinking + visible) * choices
	if cut.done {
		u.Reasoning, u.Output = cut.thinking*choices, (cut.thinking+cut.text)*choices
	} else if spec.Reasoning != nil {
		hidden := max(spec.Reasoning(visible), 0)
		if limit := req.MaxOutputTokens; limit > 0 {
			// Tool calls are not held to the limit (see truncate), so
			// only the reasoning and the text take room.
			hidden = min(hidden, max(limit-thinking-text, 0))
		}
		u.Reasoning += hidden * choices
		u.Output += hidden * choices
	}
	if c.Err != nil {
		u.Output, u.Reasoning = 0, 0
	}
	return u
}
