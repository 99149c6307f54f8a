package openai_test

import (
	goruntime "runtime"
	"testing"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/responses"

	"github.com/llmtestserver/llmtestserver/internal/e2e"
	"github.com/llmtestserver/llmtestserver/llmtest"
	"github.com/llmtestserver/llmtestserver/scenario"
	"github.com/llmtestserver/llmtestserver/session"
)

// responseJobBytes is what the codec charges a background response's job
// (internal/openai.responseJobBytes), beyond its stored response.
const responseJobBytes = 1 << 10

// What a background response's job keeps on the heap, beyond the stored
// response the history bounds: measured as the growth of n background
// responses less that of n foreground ones, per job, against what the
// jobs' bound charges each.
func TestBackgroundResponseJobsRetainWhatTheyAreCharged(t *testing.T) {
	if testing.Short() {
		t.Skip("heap measurement")
	}
	const n = 2000
	growth := func(background bool) int64 {
		srv := llmtest.NewServer(t)
		sess := srv.NewSession(t, session.WithJournal(2, 64<<10), session.WithHistory(n+1), session.WithHistoryMaxBytes(64<<20),
			session.WithJobs(n+1, (n+1)*responseJobBytes))
		sess.Chat("any").Reply(scenario.Text("ok")).Repeat()
		client := e2e.ClientFor(sess, "k")
		params := responses.ResponseNewParams{Model: e2e.ResponsesModel, Input: e2e.InputText("go")}
		if background {
			params.Background, params.Store = openai.Bool(true), openai.Bool(true)
		}
		e2e.Respond(t, client, params, false) // warm up
		before := e2e.LiveHeap()
		for range n {
			e2e.Respond(t, client, params, false)
		}
		g := e2e.LiveHeap() - before
		goruntime.KeepAlive(sess)
		return g
	}
	foreground, background := growth(false), growth(true)
	perJob := (background - foreground) / n
	t.Logf("%d responses: heap grew %d B in the foreground, %d B in the background: %d B per job (charged %d B)",
		n, foreground, background, perJob, responseJobBytes)
	if perJob > responseJobBytes {
		t.Errorf("a background response's job keeps %d B, more than the %d B it is charged", perJob, responseJobBytes)
	}
}
