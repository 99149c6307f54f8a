package goopenai_test

import (
	"testing"

	"github.com/llmtestserver/llmtestserver/llmtest"
	"github.com/llmtestserver/llmtestserver/scenario"
	goopenai "github.com/sashabaranov/go-openai"
)

// go-openai reads a reasoning model's answers: the reasoning item with its
// summary first in the Responses output (plain and streamed), the
// effective effort, and reasoning tokens inside the output tokens of both
// APIs.
func TestReasoningModelsInGoOpenAI(t *testing.T) {
	t.Parallel()
	sess := llmtest.NewServer(t).NewSession(t)
	sess.Chat("any").Reply(scenario.Think("**Adding**\n\nTwo and two.", "4")).Repeat()
	client := rsGoClient(sess)
	ctx := t.Context()
	req := goopenai.CreateResponseRequest{Model: "o4-mini", Input: "2+2?",
		Reasoning: &goopenai.ResponseReasoning{Summary: "auto"},
		Include:   []goopenai.ResponseInclude{goopenai.ResponseIncludeReasoningEncryptedContent}}

	plain, err := client.CreateResponse(ctx, req)
	if err != nil {
		t.Fatalf("CreateResponse: %v", err)
	}
	for _, r := range []goopenai.CreateResponseResponse{plain, goCollect(t, ctx, client, req)} {
		items := goResponseItems(t, r.Output)
		if len(items) != 2 || items[0].Type != "reasoning" || len(items[0].Summary) != 1 ||
			items[0].Summary[0].Text != "**Adding**\n\nTwo and two." || items[1].Type != "message" {
			t.Errorf("output %+v, want the reasoning item with its summary, then the message", items)
		}
		if r.Reasoning == nil || r.Reasoning.Effort != "medium" || r.Reasoning.Summary != "auto" {
			t.Errorf("reasoning %+v, want effort medium and summary auto", r.Reasoning)
		}
		u := r.Usage
		if u == nil || u.OutputTokensDetails == nil || u.OutputTokensDetails.ReasoningTokens <= 0 ||
			u.OutputTokensDetails.ReasoningTokens >= u.OutputTokens || u.InputTokensDetails == nil {
			t.Errorf("usage %+v, want reasoning tokens inside the output tokens", u)
		}
	}

	chat, err := client.CreateChatCompletion(ctx, goopenai.ChatCompletionRequest{Model: "o3", ReasoningEffort: "high",
		Messages: []goopenai.ChatCompletionMessage{{Role: goopenai.ChatMessageRoleUser, Content: "2+2?"}}})
	if err != nil {
		t.Fatalf("CreateChatCompletion: %v", err)
	}
	d := chat.Usage.CompletionTokensDetails
	if d == nil || d.ReasoningTokens < 256 || d.ReasoningTokens >= chat.Usage.CompletionTokens || chat.Choices[0].Message.Content != "4" {
		t.Errorf("usage %+v details %+v, want at least 256 reasoning tokens at effort high inside the completion tokens", chat.Usage, d)
	}
}
