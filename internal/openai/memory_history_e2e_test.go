package openai_test

import (
	"fmt"
	"net/http"
	goruntime "runtime"
	"strings"
	"testing"

	"github.com/llmtestserver/llmtestserver/internal/e2e"
	"github.com/llmtestserver/llmtestserver/journal"
	"github.com/llmtestserver/llmtestserver/llmtest"
	"github.com/llmtestserver/llmtestserver/scenario"
	"github.com/llmtestserver/llmtestserver/session"
	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/responses"
)

// The heap a session's history retains is bounded by history.max_bytes,
// whatever the inputs: 64 responses of 256 KiB inputs keep about 1 MiB,
// not 16. The journal is kept small so that only the history is measured.
func TestResponsesHistoryRetainsAtMostItsMaxBytes(t *testing.T) {
	if testing.Short() {
		t.Skip("heap measurement")
	}
	const (
		requests     = 64
		inputBytes   = 256 << 10
		historyBytes = 1 << 20
		journalBytes = 64 << 10
	)
	srv := llmtest.NewServer(t)
	sess := srv.NewSession(t, session.WithJournal(2, journalBytes), session.WithHistoryMaxBytes(historyBytes))
	sess.Chat("any").Responds("ok").Repeat()
	client := e2e.ClientFor(sess, "k")
	input := e2e.BigText(inputBytes)
	e2e.Respond(t, client, responses.ResponseNewParams{Model: e2e.ResponsesModel, Input: e2e.InputText(input)}, false) // warm up

	before := e2e.LiveHeap()
	var last *responses.Response
	for range requests {
		last = e2e.Respond(t, client, responses.ResponseNewParams{Model: e2e.ResponsesModel, Input: e2e.InputText(input)}, false)
	}
	growth := e2e.LiveHeap() - before
	t.Logf("%d responses of %d KiB inputs: heap grew by %.2f MiB (history.max_bytes %d MiB)",
		requests, inputBytes>>10, float64(growth)/(1<<20), historyBytes>>20)
	// The history keeps at most historyBytes; the journal keeps two
	// entries, which may reference their prompts until its clipped texts
	// are copied: allow those and a factor of 2.
	if limit := int64(2*(historyBytes+journalBytes) + 2*inputBytes); growth > limit {
		t.Errorf("heap grew by %d bytes, want at most %d", growth, limit)
	}
	if _, err := client.Responses.Get(t.Context(), last.ID, responses.ResponseGetParams{}); err != nil {
		t.Errorf("GET of the newest response: %v", err)
	}
	goruntime.KeepAlive(sess)
}

// A long previous_response_id chain keeps only the responses the history
// holds: evicted links become garbage, and the chain still continues with
// the right turn, conversation and usage.
func TestResponsesLongChainRetainsOnlyTheKeptLinks(t *testing.T) {
	if testing.Short() {
		t.Skip("heap measurement")
	}
	const (
		links      = 200
		inputBytes = 64 << 10
	)
	srv := llmtest.NewServer(t)
	sess := srv.NewSession(t, session.WithJournal(2, 64<<10), session.WithHistory(2),
		session.IgnoreContextWindow()) // the chain outgrows the model's window
	sess.Chat("any").Responds("ok").Repeat()
	client := e2e.ClientFor(sess, "k")
	input := e2e.BigText(inputBytes)

	before := e2e.LiveHeap()
	var first, prev *responses.Response
	var firstConv string
	var inputTokens []int64
	for i := range links {
		params := responses.ResponseNewParams{Model: e2e.ResponsesModel, Input: e2e.InputText(input)}
		if prev != nil {
			params.PreviousResponseID = openai.String(prev.ID)
		}
		prev = e2e.Respond(t, client, params, false)
		inputTokens = append(inputTokens, prev.Usage.InputTokens)
		if i == 0 {
			first = prev
			firstConv = e2e.JournalOf(t, sess, 1)[0].Conversation
		}
	}
	growth := e2e.LiveHeap() - before
	t.Logf("a chain of %d links of %d KiB inputs, history capacity 2: heap grew by %.2f MiB",
		links, inputBytes>>10, float64(growth)/(1<<20))
	if limit := int64(2 << 20); growth > limit {
		t.Errorf("heap grew by %d bytes, want at most %d", growth, limit)
	}
	if _, err := client.Responses.Get(t.Context(), first.ID, responses.ResponseGetParams{}); err == nil {
		t.Errorf("the first link is still kept")
	}

	// Usage follows the whole chain: link k carries k user messages of U
	// tokens and k-1 answers of A tokens, 3 more for the reply's priming.
	u := inputTokens[0] - 3
	a := inputTokens[1] - 3 - 2*u
	for _, k := range []int{3, links / 2, links} {
		if want := 3 + int64(k)*u + int64(k-1)*a; inputTokens[k-1] != want {
			t.Errorf("link %d: %d input tokens, want %d", k, inputTokens[k-1], want)
		}
	}
	next, err := client.Responses.New(t.Context(), responses.ResponseNewParams{Model: e2e.ResponsesModel,
		Input: e2e.InputText("one more"), PreviousResponseID: openai.String(prev.ID)})
	if err != nil {
		t.Fatalf("continuing the chain: %v", err)
	}
	// The prompt of the last link is cached: everything but its newest
	// answer and question was sent before.
	shared := int64(links)*u + int64(links-1)*a
	if want := 1024 + (shared-1024)/128*128; next.Usage.InputTokensDetails.CachedTokens != want {
		t.Errorf("continuing: %d cached tokens, want %d", next.Usage.InputTokensDetails.CachedTokens, want)
	}
	e2e.Eventually(t, "the last request is journaled", func() bool {
		e, ok := sess.Journal().Last()
		return ok && e.UserText == "one more"
	})
	e, _ := sess.Journal().Last()
	if e.Status != http.StatusOK || e.Turn != links+1 || e.Generation != 1 || e.Conversation != firstConv {
		t.Errorf("continuing: status %d turn %d generation %d conversation %q, want 200 turn %d generation 1 %q",
			e.Status, e.Turn, e.Generation, e.Conversation, links+1, firstConv)
	}
	goruntime.KeepAlive(sess)
}

// A chain continued after its older links were evicted is answered as if
// they were kept: same turns, generation, conversation, tool results,
// usage and cached tokens as a session that keeps them all.
func TestResponsesChainAfterEvictionMatchesAFullHistory(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t)
	long := strings.Repeat("Tell me about the weather and the climate of Paris in spring. ", 40)
	script := func(sess *session.Session) {
		// Matchers that look at the newest turns only: older ones are gone
		// from a conversation rebuilt after eviction.
		toolTurn := scenario.Func(func(r *scenario.Request) bool {
			return len(r.Messages) > 0 && r.Messages[len(r.Messages)-1].Role == "tool"
		})
		sess.Chat("answer").When(toolTurn).Responds("It is sunny.").Repeat()
		sess.Chat("ask").When(scenario.UserContains("weather?")).CallsTool("get_weather", `{"city":"Paris"}`).Repeat()
		sess.Chat("rest").Responds("ok").Repeat()
	}
	run := func(sess *session.Session) ([]*responses.Response, []journal.Entry) {
		client := e2e.ClientFor(sess, "k")
		var out []*responses.Response
		var prev *responses.Response
		next := func(input responses.ResponseNewParamsInputUnion) {
			t.Helper()
			params := responses.ResponseNewParams{Model: e2e.ResponsesModel, Tools: e2e.WeatherTools(), Input: input,
				Instructions: openai.String("Be brief.")}
			if prev != nil {
				params.PreviousResponseID = openai.String(prev.ID)
			}
			prev = e2e.Respond(t, client, params, false)
			out = append(out, prev)
		}
		next(e2e.InputItems(responses.ResponseInputItemParamOfMessage("You are a weather bot.", responses.EasyInputMessageRoleDeveloper),
			responses.ResponseInputItemParamOfMessage(long+"What is the weather?", responses.EasyInputMessageRoleUser)))
		call := prev.Output[0].AsFunctionCall()
		next(e2e.InputItems(e2e.CallOutput(call.CallID, "sunny")))
		for i := range 4 {
			next(e2e.InputText(fmt.Sprint(long, "question ", i)))
		}
		next(e2e.InputText("And the weather?"))
		call = prev.Output[0].AsFunctionCall()
		next(e2e.InputItems(e2e.CallOutput(call.CallID, "rainy")))
		next(e2e.InputText("Thanks."))
		return out, e2e.JournalOf(t, sess, len(out))
	}
	full := srv.NewSession(t, session.WithHistory(100))
	script(full)
	wantResp, want := run(full)
	evicting := srv.NewSession(t, session.WithHistory(2))
	script(evicting)
	gotResp, got := run(evicting)

	for i := range want {
		w, g := want[i], got[i]
		if g.Scenario != w.Scenario || g.Turn != w.Turn || g.Generation != w.Generation || g.Status != w.Status {
			t.Errorf("request %d: scenario %q turn %d generation %d status %d, want %q %d %d %d",
				i+1, g.Scenario, g.Turn, g.Generation, g.Status, w.Scenario, w.Turn, w.Generation, w.Status)
		}
		// The journal lists the tool results the rebuilt conversation
		// holds: evicted turns' are gone, the newest one's is there.
		if w.Scenario == "answer" && (len(g.ToolResults) == 0 ||
			lastResult(g.ToolResults) != lastResult(w.ToolResults)) {
			t.Errorf("request %d: tool results %+v, want them to end with %+v", i+1, g.ToolResults, lastResult(w.ToolResults))
		}
		wu, gu := wantResp[i].Usage, gotResp[i].Usage
		if gu.InputTokens != wu.InputTokens || gu.InputTokensDetails.CachedTokens != wu.InputTokensDetails.CachedTokens {
			t.Errorf("request %d: %d input tokens (%d cached), want %d (%d cached)", i+1,
				gu.InputTokens, gu.InputTokensDetails.CachedTokens, wu.InputTokens, wu.InputTokensDetails.CachedTokens)
		}
	}
	if got[len(got)-1].Conversation != got[0].Conversation {
		t.Errorf("the chain changed conversation: %q, then %q", got[0].Conversation, got[len(got)-1].Conversation)
	}
	if wantResp[len(wantResp)-1].Usage.InputTokensDetails.CachedTokens == 0 {
		t.Errorf("the reference chain caches nothing: the comparison proves little")
	}

	// A tool output for a call the chain never made is refused, after
	// eviction as before.
	client := e2e.ClientFor(evicting, "k")
	_, err := client.Responses.New(t.Context(), responses.ResponseNewParams{Model: e2e.ResponsesModel,
		PreviousResponseID: openai.String(gotResp[len(gotResp)-1].ID), Input: e2e.InputItems(e2e.CallOutput("call_unknown", "x"))})
	e2e.WantInvalidRequest(t, "an output for an unknown call", err, http.StatusBadRequest, "", "input")
}

// lastResult is the newest tool result, without its call ID, which differs
// between sessions.
func lastResult(results []journal.ToolResult) journal.ToolResult {
	r := results[len(results)-1]
	r.CallID = ""
	return r
}
