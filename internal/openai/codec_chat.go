package openai

import (
	"context"

	"github.com/llmtestserver/llmtestserver/internal/answer"
	"github.com/llmtestserver/llmtestserver/internal/apierr"
	"github.com/llmtestserver/llmtestserver/internal/provider"
	"github.com/llmtestserver/llmtestserver/scenario"
)

// chatTurn is one POST /v1/chat/completions on the core's pipeline (see
// answer.Turn).
type chatTurn struct {
	x    *provider.Exchange
	req  *ChatRequest
	norm *scenario.Request
	// answer is the rendered answer, which a stored completion keeps.
	answer *ChatAnswer
}

var _ answer.Turn = (*chatTurn)(nil)

// decodeChat is the answer.Decoder of POST /v1/chat/completions: the
// parameters the API does not know are refused first, as the API does,
// then the body is read and checked.
func decodeChat(x *provider.Exchange, body []byte) (answer.Turn, *apierr.Error) {
	if err := refuseParams(x, body, nil, CheckChatParams); err != nil {
		return nil, err
	}
	req, err := DecodeChatRequest(body)
	if err != nil {
		return nil, err
	}
	return &chatTurn{x: x, req: req, norm: req.Normalize()}, nil
}

// Request implements answer.Turn.
func (t *chatTurn) Request() *scenario.Request { return t.norm }

// Ignored implements answer.Turn.
func (t *chatTurn) Ignored() []string { return nil }

// Rules refuses a model that is no chat model, as the real API does.
func (t *chatTurn) Rules() *apierr.Error { return notAChatModel(t.x, t.norm.Model) }

// Prompt implements answer.Turn.
func (t *chatTurn) Prompt(ctx context.Context) (answer.Prompt, error) {
	segments, err := promptSegments(ctx, t.norm)
	return chatPrompt(t.norm, segments), err
}

// TooLong implements answer.Turn.
func (t *chatTurn) TooLong(n int) *apierr.Error {
	return ContextLengthExceeded(contextWindow(t.norm.Model), n, t.norm.MaxOutputTokens)
}

// Spec implements answer.Turn.
func (t *chatTurn) Spec(*scenario.Reply) answer.Spec {
	return answer.Spec{
		ID:             t.x.Runtime.NewID("chatcmpl-", 29),
		ToolCallPrefix: "call_", ToolCallIDLength: 24,
		Choices:   t.req.Choices(),
		Reasoning: chatReasoningRule(t.req),
	}
}

// Render renders a as a completion of the request's n choices, named as
// the alias's snapshot, with the request's controls (logprobs, service
// tier), streamed as the request's stream_options say.
func (t *chatTurn) Render(a *provider.Answer, reply *scenario.Reply, s answer.Stream) answer.Rendered {
	a.Model = answeredModel(t.norm.Model, reply.Model)
	t.answer = chatAnswer(a, t.req.Choices(), reply.FinishReason)
	withControls(t.answer, t.req, s.Split)
	if !t.req.Stream {
		return answer.Rendered{JSON: t.answer.Completion()}
	}
	return answer.Rendered{SSE: t.answer.StreamWith(s.Split, ChatStreamOptions{TokensPerChunk: s.TokensPerChunk,
		IncludeUsage: t.req.IncludeUsage(), Obfuscation: t.req.Obfuscation()})}
}

// Delivered stores the completion when the request says store:true. A
// stream that fails part-way stores nothing: the completion was never
// whole (inferred: the API documents no stored failures).
func (t *chatTurn) Delivered(failure *apierr.Error) func() {
	if !t.req.Stores() || failure != nil {
		return nil
	}
	stored := newStoredChat(t.req, t.answer)
	return func() { t.x.Runtime.Store(stored) }
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

// chatReasoningRule is reasoningRule for a Chat Completions request: the
// effort is its reasoning_effort, for a reasoning model.
func chatReasoningRule(req *ChatRequest) func(visible int) int {
	if !isReasoningModel(req.Model) {
		return nil
	}
	return reasoningRule(req.Model, req.reasoningEffort)
}
