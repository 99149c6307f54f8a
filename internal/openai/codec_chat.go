package openai

import (
	"github.com/llmtestserver/llmtestserver/internal/answer"
	"github.com/llmtestserver/llmtestserver/internal/apierr"
	"github.com/llmtestserver/llmtestserver/internal/httpx"
	"github.com/llmtestserver/llmtestserver/internal/provider"
	"github.com/llmtestserver/llmtestserver/internal/runtime"
	"github.com/llmtestserver/llmtestserver/internal/tokens"
	"github.com/llmtestserver/llmtestserver/scenario"
)

// serveChat serves POST /v1/chat/completions.
func serveChat(x *provider.Exchange) provider.Response {
	body, err := readBody(x)
	if err != nil {
		return provider.Response{Err: err}
	}
	if err := refuseParams(x, body, nil, CheckChatParams); err != nil {
		return provider.Response{Err: err}
	}
	req, err := DecodeChatRequest(body)
	if err != nil {
		return provider.Response{Err: err}
	}
	norm := req.Normalize()
	var prompt answer.Prompt
	res, reply, refused := find(x, norm, func() *apierr.Error {
		// Counted before the reply is reserved, so that a prompt too long
		// for the model uses none, and once: the usage counts the same.
		segments, serr := promptSegments(x.Ctx, norm)
		if serr != nil {
			return httpx.ClientGone()
		}
		prompt = chatPrompt(norm, segments, nil)
		window := contextWindow(norm.Model)
		return answer.CheckContext(x, &prompt, norm.MaxOutputTokens, window, func(n int) *apierr.Error {
			return ContextLengthExceeded(window, n, norm.MaxOutputTokens)
		})
	})
	if refused != nil {
		return *refused
	}
	if reply.Error != nil && reply.Error.AfterEvents == 0 {
		// A failure inside the stream: a 200 whose only event is the error.
		// One after some events is the HTTP core's (Exchange.StreamError).
		e := Resolve(apierr.Scripted(reply.Error))
		x.Entry.ErrorCode, x.Entry.ErrorMessage = e.JournalCode(), e.Message
		event := ErrorEvent(e)
		return provider.Response{SSE: &SSE{Body: event, Ends: []int{len(event)}}, Reservation: res}
	}
	// The model stops at a stop sequence; Build then cuts what is left at
	// the maximum output tokens, so whichever comes first ends the answer.
	cutAtStop(&reply, req.StopSequences())
	a := answer.Build(x, norm, &reply, answer.Spec{
		ID:             x.Runtime.NewID("chatcmpl-", 29),
		ToolCallPrefix: "call_", ToolCallIDLength: 24,
		Choices:   req.Choices(),
		Prompt:    prompt,
		Reasoning: chatReasoningRule(req),
	})
	a.Model = answeredModel(norm.Model, reply.Model)
	ca := chatAnswer(&a, req.Choices(), reply.FinishReason)
	split := func(s string) []string { p, _ := tokens.SplitContext(x.Ctx, req.Model, s); return p }
	withControls(ca, req, split)
	if !req.Stream {
		return provider.Response{JSON: ca.Completion(), Reservation: res, Delivered: storeChat(x, req, ca)}
	}
	stream := x.StreamSettings()
	return provider.Response{SSE: ca.StreamWith(split, ChatStreamOptions{TokensPerChunk: stream.TokensPerChunk,
		IncludeUsage: req.IncludeUsage(), Obfuscation: req.Obfuscation()}), Pacing: stream, Reservation: res,
		Delivered: storeChat(x, req, ca)}
}

// find finds the reply to a conversational request, refusing as the real
// API does a model that is no chat model, and then what check refuses (the
// prompt's length), before any reply is reserved. An unserved model is
// refused in the words of the request's API (see ResponsesModelNotFound).
func find(x *provider.Exchange, norm *scenario.Request, check func() *apierr.Error) (*runtime.Reservation, scenario.Reply, *provider.Response) {
	if norm.Endpoint == scenario.EndpointResponses && !x.Serves(norm.Model) {
		answer.RecordRequest(x, norm)
		err := ResponsesModelNotFound(norm.Model, x.Models(), len(x.Runtime.Settings().Models) > 0)
		return nil, scenario.Reply{}, &provider.Response{Err: err}
	}
	return answer.Find(x, norm, func() *apierr.Error {
		if info, ok := LookupModel(norm.Model); ok && info.Kind != KindChat && info.Kind != KindReasoning {
			return NotAChatModel(x.Request.URL.Path)
		}
		return check()
	})
}

// contextWindow is the context window of a catalog model, and 0 (no check)
// for a model the catalog does not know.
func contextWindow(model string) int {
	if info, ok := LookupModel(model); ok {
		return info.ContextWindow
	}
	return 0
}

// chatAnswer renders a neutral answer as a chat answer with n choices.
// finish is the reply's own finish reason: a scripted one is sent as the
// script says it, in OpenAI's words.
func chatAnswer(a *provider.Answer, n int, scripted string) *ChatAnswer {
	ca := &ChatAnswer{ID: a.ID, Created: a.Created.Unix(), Model: a.Model, N: n,
		Text: a.Text, Refusal: a.Refusal, ToolCalls: a.ToolCalls, Usage: usageOf(a.Usage)}
	if scripted != "" || a.Finish == scenario.FinishLength {
		ca.FinishReason = finishReason(a.Finish)
	}
	return ca
}

// finishReason is OpenAI's word for a finish kind. OpenAI has no finish
// reason for a refusal: the real API stops a refused answer with "stop".
func finishReason(k scenario.FinishKind) string {
	if k == scenario.FinishRefusal {
		return "stop"
	}
	return k
}

// usageOf is a neutral usage in Chat Completions' words.
func usageOf(u provider.Usage) Usage {
	out := NewUsage(u.Input, u.Output)
	out.PromptTokensDetails.CachedTokens = u.CacheRead
	out.CompletionTokensDetails.ReasoningTokens = u.Reasoning
	return out
}
