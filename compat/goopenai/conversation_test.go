package goopenai_test

import (
	"testing"

	"github.com/llmtestserver/llmtestserver/internal/e2e"
	"github.com/llmtestserver/llmtestserver/llmtest"
	"github.com/llmtestserver/llmtestserver/session"
	"github.com/openai/openai-go/v3"
	goopenai "github.com/sashabaranov/go-openai"
)

// Without the conversation header, a conversation is identified by its
// opening (system text and first user message), whichever SDK sends it;
// coming back to the opening starts generation 2.
func TestConversationDerivedFromTheOpening(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t)
	sess := srv.NewSession(t, session.OnlyModels(e2e.ConversationModel))
	sess.Chat("any").Responds("ok").Repeat()
	client := e2e.ClientFor(sess, "k")
	ctx := t.Context()
	opening := []openai.ChatCompletionMessageParamUnion{openai.SystemMessage(e2e.ConversationSystem), openai.UserMessage("Plan a trip to Lyon.")}
	send := func(msgs ...openai.ChatCompletionMessageParamUnion) {
		t.Helper()
		if _, err := client.Chat.Completions.New(ctx, openai.ChatCompletionNewParams{Model: e2e.ConversationModel, Messages: msgs}); err != nil {
			t.Fatal(err)
		}
	}

	send(opening...)                                                                                       // 1: opening
	send(append(opening, openai.AssistantMessage("ok"), openai.UserMessage("By train?"))...)               // 2: turn 2
	send(opening...)                                                                                       // 3: restart
	send(openai.SystemMessage("You are a chef."), openai.UserMessage("Plan a trip to Lyon."))              // 4: other opening
	send(openai.SystemMessage(e2e.ConversationSystem), openai.UserMessage("Plan a trip to Lyon, please.")) // 5: other opening
	send(append(opening, openai.AssistantMessage("ok"), openai.UserMessage("By bike?"))...)                // 6: generation 2 goes on
	send(append(opening, openai.AssistantMessage("ok"), openai.UserMessage("By bike?"))...)                // 7: exact retry
	goClient := goOpenAIClient(sess)
	if _, err := goClient.CreateChatCompletion(ctx, goopenai.ChatCompletionRequest{Model: e2e.ConversationModel, Messages: []goopenai.ChatCompletionMessage{
		{Role: "system", Content: e2e.ConversationSystem}, {Role: "user", Content: "Plan a trip to Lyon."},
		{Role: "assistant", Content: "ok"}, {Role: "user", Content: "By bike?"},
		{Role: "assistant", Content: "ok"}, {Role: "user", Content: "Tomorrow?"},
	}}); err != nil { // 8: the same conversation from go-openai
		t.Fatal(err)
	}

	entries := e2e.JournalOf(t, sess, 8)
	if len(entries) != 8 {
		t.Fatalf("journal holds %d entries, want 8", len(entries))
	}
	trip := entries[0].Conversation
	if trip == "" || trip == "alice" {
		t.Fatalf("derived conversation = %q, want an identity from the opening", trip)
	}
	want := []struct {
		sameConv         bool
		generation, turn int
	}{
		{true, 1, 1}, {true, 1, 2}, {true, 2, 1}, {false, 1, 1}, {false, 1, 1}, {true, 2, 2}, {true, 2, 2}, {true, 2, 3},
	}
	for i, w := range want {
		e := entries[i]
		if (e.Conversation == trip) != w.sameConv || e.Generation != w.generation || e.Turn != w.turn {
			t.Errorf("request %d: conversation %q generation %d turn %d; want same as the opening: %t, generation %d, turn %d",
				i+1, e.Conversation, e.Generation, e.Turn, w.sameConv, w.generation, w.turn)
		}
	}
	if entries[3].Conversation == entries[4].Conversation {
		t.Errorf("two different openings share conversation %q", entries[3].Conversation)
	}
}

// goOpenAIClient returns a go-openai client that talks to sess.
func goOpenAIClient(sess *session.Session) *goopenai.Client {
	cfg := goopenai.DefaultConfig("k")
	cfg.BaseURL = sess.BaseURL()
	cfg.HTTPClient = sess.HTTPClient()
	return goopenai.NewClientWithConfig(cfg)
}
