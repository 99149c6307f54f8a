package openai_test

import (
	"fmt"
	"net/http"
	"reflect"
	"strings"
	"testing"

	"github.com/llmtestserver/llmtestserver/internal/e2e"
	"github.com/llmtestserver/llmtestserver/llmtest"
	"github.com/llmtestserver/llmtestserver/session"
	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/responses"
)

// store:false answers but keeps nothing.
func TestResponsesStoreFalseKeepsNothing(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t)
	sess := srv.NewSession(t)
	sess.Chat("any").Responds("Not kept.").Repeat()
	client := e2e.ClientFor(sess, "k")
	ctx := t.Context()
	for _, stream := range []bool{false, true} {
		r := e2e.Respond(t, client, responses.ResponseNewParams{Model: e2e.ResponsesModel, Input: e2e.InputText("Forget me"),
			Store: openai.Bool(false)}, stream)
		if r.OutputText() != "Not kept." || e2e.DecodeObject(t, r.RawJSON())["store"] != false {
			t.Errorf("stream %v: text %q store %v, want the answer with store false", stream, r.OutputText(), e2e.DecodeObject(t, r.RawJSON())["store"])
		}
		_, err := client.Responses.Get(ctx, r.ID, responses.ResponseGetParams{})
		e2e.WantInvalidRequest(t, "GET of an unstored response", err, http.StatusNotFound, "", "")
		_, err = client.Responses.InputItems.List(ctx, r.ID, responses.InputItemListParams{})
		e2e.WantInvalidRequest(t, "input_items of an unstored response", err, http.StatusNotFound, "", "")
		_, err = client.Responses.New(ctx, responses.ResponseNewParams{Model: e2e.ResponsesModel, Input: e2e.InputText("Go on"),
			PreviousResponseID: openai.String(r.ID)})
		e2e.WantInvalidRequest(t, "chaining from an unstored response", err, http.StatusBadRequest, "previous_response_not_found", "previous_response_id")
	}
}

// Every session keeps its own history: a response of one is unknown to the
// other, and deleting it in one leaves the other's alone.
func TestResponsesHistoryIsolation(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t)
	a, b := srv.NewSession(t), srv.NewSession(t)
	a.Chat("a").Responds("From A.").Repeat()
	b.Chat("b").Responds("From B.").Repeat()
	clientA, clientB := e2e.ClientFor(a, "k"), e2e.ClientFor(b, "k")
	ctx := t.Context()

	rA := e2e.Respond(t, clientA, responses.ResponseNewParams{Model: e2e.ResponsesModel, Input: e2e.InputText("Hi")}, false)
	_, err := clientB.Responses.Get(ctx, rA.ID, responses.ResponseGetParams{})
	e2e.WantInvalidRequest(t, "B retrieves A's response", err, http.StatusNotFound, "", "")
	_, err = clientB.Responses.New(ctx, responses.ResponseNewParams{Model: e2e.ResponsesModel, Input: e2e.InputText("Go on"),
		PreviousResponseID: openai.String(rA.ID)})
	e2e.WantInvalidRequest(t, "B chains from A's response", err, http.StatusBadRequest, "previous_response_not_found", "previous_response_id")
	err = clientB.Responses.Delete(ctx, rA.ID)
	e2e.WantInvalidRequest(t, "B deletes A's response", err, http.StatusNotFound, "", "")

	// IDs are deterministic per session, so B's first response may well
	// have A's ID: each session must still answer with its own.
	rB := e2e.Respond(t, clientB, responses.ResponseNewParams{Model: e2e.ResponsesModel, Input: e2e.InputText("Hi")}, false)
	gotA, errA := clientA.Responses.Get(ctx, rA.ID, responses.ResponseGetParams{})
	gotB, errB := clientB.Responses.Get(ctx, rB.ID, responses.ResponseGetParams{})
	if errA != nil || errB != nil || gotA.OutputText() != "From A." || gotB.OutputText() != "From B." {
		t.Fatalf("A got %v %q, B got %v %q: each session must keep its own response", errA, gotA.OutputText(), errB, gotB.OutputText())
	}
	if err := clientA.Responses.Delete(ctx, rA.ID); err != nil {
		t.Fatal(err)
	}
	if got, err := clientB.Responses.Get(ctx, rB.ID, responses.ResponseGetParams{}); err != nil || got.OutputText() != "From B." {
		t.Errorf("after A deleted its response, B's: %v %q", err, got.OutputText())
	}
	r := e2e.Respond(t, clientB, responses.ResponseNewParams{Model: e2e.ResponsesModel, Input: e2e.InputText("Go on"),
		PreviousResponseID: openai.String(rB.ID)}, false)
	if r.PreviousResponseID != rB.ID {
		t.Errorf("B chains from its own response: previous %q", r.PreviousResponseID)
	}
}

// A session keeps at most its history capacity of responses, evicting the
// oldest.
func TestResponsesHistoryEvictsAtCapacity(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t)
	sess := srv.NewSession(t, session.WithHistory(2))
	sess.Chat("any").Responds("ok").Repeat()
	client := e2e.ClientFor(sess, "k")
	ctx := t.Context()
	var ids []string
	for i := range 3 {
		r := e2e.Respond(t, client, responses.ResponseNewParams{Model: e2e.ResponsesModel, Input: e2e.InputText(fmt.Sprint("question ", i))}, i == 1)
		ids = append(ids, r.ID)
	}
	_, err := client.Responses.Get(ctx, ids[0], responses.ResponseGetParams{})
	e2e.WantInvalidRequest(t, "GET of the evicted response", err, http.StatusNotFound, "", "")
	_, err = client.Responses.New(ctx, responses.ResponseNewParams{Model: e2e.ResponsesModel, Input: e2e.InputText("Go on"),
		PreviousResponseID: openai.String(ids[0])})
	e2e.WantInvalidRequest(t, "chaining from the evicted response", err, http.StatusBadRequest, "previous_response_not_found", "previous_response_id")
	for _, id := range ids[1:] {
		if _, err := client.Responses.Get(ctx, id, responses.ResponseGetParams{}); err != nil {
			t.Errorf("GET of kept response %s: %v", id, err)
		}
	}
	r := e2e.Respond(t, client, responses.ResponseNewParams{Model: e2e.ResponsesModel, Input: e2e.InputText("Go on"),
		PreviousResponseID: openai.String(ids[2])}, false)
	if r.PreviousResponseID != ids[2] {
		t.Errorf("chaining from a kept response: previous %q", r.PreviousResponseID)
	}
	// That fourth response evicted the second.
	_, err = client.Responses.Get(ctx, ids[1], responses.ResponseGetParams{})
	e2e.WantInvalidRequest(t, "GET of the second response after a fourth", err, http.StatusNotFound, "", "")
}

// Reset forgets the stored responses.
func TestResponsesResetClearsHistory(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t)
	sess := srv.NewSession(t)
	sess.Chat("any").Responds("ok").Repeat()
	client := e2e.ClientFor(sess, "k")
	ctx := t.Context()
	r := e2e.Respond(t, client, responses.ResponseNewParams{Model: e2e.ResponsesModel, Input: e2e.InputText("Remember")}, false)
	if _, err := client.Responses.Get(ctx, r.ID, responses.ResponseGetParams{}); err != nil {
		t.Fatalf("GET before Reset: %v", err)
	}
	sess.Reset()
	_, err := client.Responses.Get(ctx, r.ID, responses.ResponseGetParams{})
	e2e.WantInvalidRequest(t, "GET after Reset", err, http.StatusNotFound, "", "")
	_, err = client.Responses.New(ctx, responses.ResponseNewParams{Model: e2e.ResponsesModel, Input: e2e.InputText("Go on"),
		PreviousResponseID: openai.String(r.ID)})
	e2e.WantInvalidRequest(t, "chaining after Reset", err, http.StatusBadRequest, "previous_response_not_found", "previous_response_id")
}

// openai-go's GetStreaming (a GET with the JSON body {"stream":true}) and
// GET ?stream=true replay a stored response as its event stream, as
// wire.md §3 and §8.4 ask.
func TestResponsesGetStreamingReplaysTheResponse(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t)
	sess := srv.NewSession(t)
	sess.Chat("any").Responds("Replay me.")
	client := e2e.ClientFor(sess, "k")
	r := e2e.Respond(t, client, responses.ResponseNewParams{Model: e2e.ResponsesModel, Input: e2e.InputText("Hi")}, false)

	raw := e2e.Call(t, srv.Client(), http.MethodGet, sess.BaseURL()+"/responses/"+r.ID+"?stream=true", "", e2e.SelectorOf(sess)...)
	if ct := raw.Header.Get("Content-Type"); raw.Status != http.StatusOK || !strings.HasPrefix(ct, "text/event-stream") {
		t.Errorf("GET ?stream=true: %d %s, want 200 text/event-stream", raw.Status, ct)
	}
	s := e2e.CollectResponses(t, client.Responses.GetStreaming(t.Context(), r.ID, responses.ResponseGetParams{}))
	if s.Completed.ID != r.ID || !reflect.DeepEqual(rsShapeOf(&s.Completed), rsShapeOf(r)) {
		t.Errorf("replayed response %s, want %s", s.Completed.RawJSON(), r.RawJSON())
	}
}

// Chaining from a response the session still keeps works even when an
// older link of its chain was evicted: GET finds the response, so chaining
// from it must too.
func TestResponsesChainFromAKeptResponseSurvivesEviction(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t)
	sess := srv.NewSession(t, session.WithHistory(2))
	sess.Chat("any").Responds("ok").Repeat()
	client := e2e.ClientFor(sess, "k")
	ctx := t.Context()
	r := e2e.Respond(t, client, responses.ResponseNewParams{Model: e2e.ResponsesModel, Input: e2e.InputText("Turn 1")}, false)
	for i := 2; i <= 3; i++ {
		r = e2e.Respond(t, client, responses.ResponseNewParams{Model: e2e.ResponsesModel, Input: e2e.InputText(fmt.Sprint("Turn ", i)),
			PreviousResponseID: openai.String(r.ID)}, false)
	}
	if _, err := client.Responses.Get(ctx, r.ID, responses.ResponseGetParams{}); err != nil {
		t.Fatalf("GET of the newest response: %v", err)
	}
	if _, err := client.Responses.New(ctx, responses.ResponseNewParams{Model: e2e.ResponsesModel, Input: e2e.InputText("Turn 4"),
		PreviousResponseID: openai.String(r.ID)}); err != nil {
		t.Errorf("chaining from the kept response %s: %v", r.ID, err)
	}
}

// history.max_bytes is validated with its range, and a response larger
// than it is answered but not kept, as with store:false.
func TestResponsesHistoryMaxBytes(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t)
	sess := srv.NewSession(t, session.RequireAPIKey("k"), session.WithHistoryMaxBytes(64<<10))
	sess.Chat("any").Responds("ok").Repeat()
	sel := e2e.Join(e2e.SelectorOf(sess), e2e.Bearer("k"))
	for _, body := range []string{`{"history":{"max_bytes":0}}`, `{"history":{"max_bytes":1073741825}}`} {
		r := e2e.Call(t, srv.Client(), http.MethodPut, srv.URL()+"/admin-api/config", body, sel...)
		code, _, param, _ := r.APIError(t)
		if r.Status != http.StatusBadRequest || code != "invalid_configuration" || param != "history.max_bytes" {
			t.Errorf("PUT %s: %d %s param %q, want 400 invalid_configuration param history.max_bytes", body, r.Status, code, param)
		}
	}
	if cfg, _ := sess.Config(); cfg.History.MaxBytes != 64<<10 {
		t.Errorf("a refused configuration changed history.max_bytes to %d", cfg.History.MaxBytes)
	}

	client := e2e.ClientFor(sess, "k")
	small := e2e.Respond(t, client, responses.ResponseNewParams{Model: e2e.ResponsesModel, Input: e2e.InputText("small")}, false)
	big := e2e.Respond(t, client, responses.ResponseNewParams{Model: e2e.ResponsesModel, Input: e2e.InputText(strings.Repeat("big ", 32<<10))}, false)
	if big.OutputText() != "ok" {
		t.Errorf("the oversized request was answered %q, want ok", big.OutputText())
	}
	_, err := client.Responses.Get(t.Context(), big.ID, responses.ResponseGetParams{})
	e2e.WantInvalidRequest(t, "GET of a response larger than history.max_bytes", err, http.StatusNotFound, "", "")
	if _, err := client.Responses.Get(t.Context(), small.ID, responses.ResponseGetParams{}); err != nil {
		t.Errorf("the oversized response evicted a kept one: %v", err)
	}
}
