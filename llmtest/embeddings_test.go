package llmtest_test

import (
	"testing"

	"github.com/llmtestserver/llmtestserver/internal/e2e"
	"github.com/llmtestserver/llmtestserver/llmtest"
	"github.com/openai/openai-go/v3"
)

// Embeddings leave the conversations of chat requests alone: an exact retry
// of a chat request stays in its generation even when an embeddings call
// with the same text came between.
func TestEmbeddingsDoNotDisturbChatConversations(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t)
	sess := srv.NewSession(t)
	sess.Chat("any").Responds("ok").Repeat()
	client := e2e.ClientFor(sess, "k")
	ctx := t.Context()
	if _, err := client.Chat.Completions.New(ctx, e2e.UserTurn(e2e.ResponsesModel, "hello")); err != nil {
		t.Fatal(err)
	}
	if _, err := client.Embeddings.New(ctx, openai.EmbeddingNewParams{Model: e2e.EmbeddingModel,
		Input: openai.EmbeddingNewParamsInputUnion{OfArrayOfStrings: []string{"hello", "world"}}}); err != nil {
		t.Fatal(err)
	}
	if _, err := client.Chat.Completions.New(ctx, e2e.UserTurn(e2e.ResponsesModel, "hello")); err != nil {
		t.Fatal(err)
	}
	entries := sess.Journal().Entries()
	if len(entries) != 3 || entries[0].Conversation != entries[2].Conversation || entries[2].Generation != entries[0].Generation {
		t.Errorf("chat retry: conversation %s generation %d, first request %s generation %d: "+
			"an embeddings call between them must not start a new generation",
			entries[2].Conversation, entries[2].Generation, entries[0].Conversation, entries[0].Generation)
	}
}
