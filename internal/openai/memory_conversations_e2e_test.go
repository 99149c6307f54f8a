package openai_test

import (
	goruntime "runtime"
	"testing"

	"github.com/llmtestserver/llmtestserver/internal/e2e"
	"github.com/llmtestserver/llmtestserver/llmtest"
	"github.com/llmtestserver/llmtestserver/session"
	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/conversations"
	"github.com/openai/openai-go/v3/responses"
)

// A conversation that a Responses request extends turn after turn keeps
// at most history.max_bytes: 32 turns of 256 KiB inputs keep about 1 MiB,
// not 8, as the conversation drops its oldest items to stay within the
// bound. The journal is kept small so that only the history is measured.
func TestConversationRetainsAtMostTheHistoryMaxBytes(t *testing.T) {
	if testing.Short() {
		t.Skip("heap measurement")
	}
	const (
		turns        = 32
		inputBytes   = 256 << 10
		historyBytes = 1 << 20
		journalBytes = 64 << 10
	)
	srv := llmtest.NewServer(t)
	sess := srv.NewSession(t, session.WithJournal(2, journalBytes), session.WithHistoryMaxBytes(historyBytes),
		session.IgnoreContextWindow())
	sess.Chat("any").Responds("ok").Repeat()
	client := e2e.ClientFor(sess, "k")
	conv, err := client.Conversations.New(t.Context(), conversations.ConversationNewParams{})
	if err != nil {
		t.Fatalf("Conversations.New: %v", err)
	}
	input := e2e.BigText(inputBytes)
	params := responses.ResponseNewParams{Model: e2e.ResponsesModel, Input: e2e.InputText(input), Store: openai.Bool(false),
		Conversation: responses.ResponseNewParamsConversationUnion{OfString: openai.String(conv.ID)}}
	e2e.Respond(t, client, params, false) // warm up

	before := e2e.LiveHeap()
	for range turns {
		e2e.Respond(t, client, params, false)
	}
	growth := e2e.LiveHeap() - before
	t.Logf("%d turns of %d KiB inputs in one conversation: heap grew by %.2f MiB (history.max_bytes %d MiB)",
		turns, inputBytes>>10, float64(growth)/(1<<20), historyBytes>>20)
	// As in the responses' heap test: the history keeps at most
	// historyBytes, the journal two entries; allow those and a factor of 2.
	if limit := int64(2*(historyBytes+journalBytes) + 2*inputBytes); growth > limit {
		t.Errorf("heap grew by %d bytes, want at most %d", growth, limit)
	}
	var kept int
	pager := client.Conversations.Items.ListAutoPaging(t.Context(), conv.ID, conversations.ItemListParams{Limit: openai.Int(100)})
	for pager.Next() {
		kept++
	}
	if err := pager.Err(); err != nil {
		t.Fatalf("listing the items: %v", err)
	}
	// Each turn keeps its input (256 KiB) and its answer: three inputs fit
	// in 1 MiB, not four, and the answer of the turn before them may stay.
	if kept < 2 || kept > 7 {
		t.Errorf("the conversation keeps %d items, want those of the last turns that fit (2 to 7)", kept)
	}
	goruntime.KeepAlive(sess)
}
