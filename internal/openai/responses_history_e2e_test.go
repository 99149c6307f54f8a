package openai_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"reflect"
	"strings"
	"testing"

	"github.com/llmtestserver/llmtestserver/llmtest"
	"github.com/llmtestserver/llmtestserver/session"
	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/responses"
)

// rsObject decodes a response's raw JSON for comparison.
func rsObject(t *testing.T, raw string) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal([]byte(raw), &m); err != nil {
		t.Fatalf("response %q: %v", raw, err)
	}
	return m
}

// store:false answers but keeps nothing.
func TestResponsesStoreFalseKeepsNothing(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t)
	sess := srv.NewSession(t)
	sess.Chat("any").Responds("Not kept.").Repeat()
	client := clientFor(sess, "k")
	ctx := t.Context()
	for _, stream := range []bool{false, true} {
		r := rsRespond(t, client, responses.ResponseNewParams{Model: rsModel, Input: rsString("Forget me"),
			Store: openai.Bool(false)}, stream)
		if r.OutputText() != "Not kept." || rsObject(t, r.RawJSON())["store"] != false {
			t.Errorf("stream %v: text %q store %v, want the answer with store false", stream, r.OutputText(), rsObject(t, r.RawJSON())["store"])
		}
		_, err := client.Responses.Get(ctx, r.ID, responses.ResponseGetParams{})
		rsWantError(t, "GET of an unstored response", err, http.StatusNotFound, "", "")
		_, err = client.Responses.InputItems.List(ctx, r.ID, responses.InputItemListParams{})
		rsWantError(t, "input_items of an unstored response", err, http.StatusNotFound, "", "")
		_, err = client.Responses.New(ctx, responses.ResponseNewParams{Model: rsModel, Input: rsString("Go on"),
			PreviousResponseID: openai.String(r.ID)})
		rsWantError(t, "chaining from an unstored response", err, http.StatusBadRequest, "previous_response_not_found", "previous_response_id")
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
	clientA, clientB := clientFor(a, "k"), clientFor(b, "k")
	ctx := t.Context()

	rA := rsRespond(t, clientA, responses.ResponseNewParams{Model: rsModel, Input: rsString("Hi")}, false)
	_, err := clientB.Responses.Get(ctx, rA.ID, responses.ResponseGetParams{})
	rsWantError(t, "B retrieves A's response", err, http.StatusNotFound, "", "")
	_, err = clientB.Responses.New(ctx, responses.ResponseNewParams{Model: rsModel, Input: rsString("Go on"),
		PreviousResponseID: openai.String(rA.ID)})
	rsWantError(t, "B chains from A's response", err, http.StatusBadRequest, "previous_response_not_found", "previous_response_id")
	err = clientB.Responses.Delete(ctx, rA.ID)
	rsWantError(t, "B deletes A's response", err, http.StatusNotFound, "", "")

	// IDs are deterministic per session, so B's first response may well
	// have A's ID: each session must still answer with its own.
	rB := rsRespond(t, clientB, responses.ResponseNewParams{Model: rsModel, Input: rsString("Hi")}, false)
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
	r := rsRespond(t, clientB, responses.ResponseNewParams{Model: rsModel, Input: rsString("Go on"),
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
	client := clientFor(sess, "k")
	ctx := t.Context()
	var ids []string
	for i := range 3 {
		r := rsRespond(t, client, responses.ResponseNewParams{Model: rsModel, Input: rsString(fmt.Sprint("question ", i))}, i == 1)
		ids = append(ids, r.ID)
	}
	_, err := client.Responses.Get(ctx, ids[0], responses.ResponseGetParams{})
	rsWantError(t, "GET of the evicted response", err, http.StatusNotFound, "", "")
	_, err = client.Responses.New(ctx, responses.ResponseNewParams{Model: rsModel, Input: rsString("Go on"),
		PreviousResponseID: openai.String(ids[0])})
	rsWantError(t, "chaining from the evicted response", err, http.StatusBadRequest, "previous_response_not_found", "previous_response_id")
	for _, id := range ids[1:] {
		if _, err := client.Responses.Get(ctx, id, responses.ResponseGetParams{}); err != nil {
			t.Errorf("GET of kept response %s: %v", id, err)
		}
	}
	r := rsRespond(t, client, responses.ResponseNewParams{Model: rsModel, Input: rsString("Go on"),
		PreviousResponseID: openai.String(ids[2])}, false)
	if r.PreviousResponseID != ids[2] {
		t.Errorf("chaining from a kept response: previous %q", r.PreviousResponseID)
	}
	// That fourth response evicted the second.
	_, err = client.Responses.Get(ctx, ids[1], responses.ResponseGetParams{})
	rsWantError(t, "GET of the second response after a fourth", err, http.StatusNotFound, "", "")
}

// Reset forgets the stored responses.
func TestResponsesResetClearsHistory(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t)
	sess := srv.NewSession(t)
	sess.Chat("any").Responds("ok").Repeat()
	client := clientFor(sess, "k")
	ctx := t.Context()
	r := rsRespond(t, client, responses.ResponseNewParams{Model: rsModel, Input: rsString("Remember")}, false)
	if _, err := client.Responses.Get(ctx, r.ID, responses.ResponseGetParams{}); err != nil {
		t.Fatalf("GET before Reset: %v", err)
	}
	sess.Reset()
	_, err := client.Responses.Get(ctx, r.ID, responses.ResponseGetParams{})
	rsWantError(t, "GET after Reset", err, http.StatusNotFound, "", "")
	_, err = client.Responses.New(ctx, responses.ResponseNewParams{Model: rsModel, Input: rsString("Go on"),
		PreviousResponseID: openai.String(r.ID)})
	rsWantError(t, "chaining after Reset", err, http.StatusBadRequest, "previous_response_not_found", "previous_response_id")
}

// openai-go's GetStreaming (a GET with the JSON body {"stream":true}) and
// GET ?stream=true replay a stored response as its event stream, as
// wire.md §3 and §8.4 ask.
func TestResponsesGetStreamingReplaysTheResponse(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t)
	sess := srv.NewSession(t)
	sess.Chat("any").Responds("Replay me.")
	client := clientFor(sess, "k")
	r := rsRespond(t, client, responses.ResponseNewParams{Model: rsModel, Input: rsString("Hi")}, false)

	raw := call(t, srv.Client(), http.MethodGet, sess.BaseURL()+"/responses/"+r.ID+"?stream=true", "", selectorOf(sess)...)
	if ct := raw.header.Get("Content-Type"); raw.status != http.StatusOK || !strings.HasPrefix(ct, "text/event-stream") {
		t.Errorf("GET ?stream=true: %d %s, want 200 text/event-stream", raw.status, ct)
	}
	s := rsCollect(t, client.Responses.GetStreaming(t.Context(), r.ID, responses.ResponseGetParams{}))
	if s.completed.ID != r.ID || !reflect.DeepEqual(rsShapeOf(&s.completed), rsShapeOf(r)) {
		t.Errorf("replayed response %s, want %s", s.completed.RawJSON(), r.RawJSON())
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
	client := clientFor(sess, "k")
	ctx := t.Context()
	r := rsRespond(t, client, responses.ResponseNewParams{Model: rsModel, Input: rsString("Turn 1")}, false)
	for i := 2; i <= 3; i++ {
		r = rsRespond(t, client, responses.ResponseNewParams{Model: rsModel, Input: rsString(fmt.Sprint("Turn ", i)),
			PreviousResponseID: openai.String(r.ID)}, false)
	}
	if _, err := client.Responses.Get(ctx, r.ID, responses.ResponseGetParams{}); err != nil {
		t.Fatalf("GET of the newest response: %v", err)
	}
	if _, err := client.Responses.New(ctx, responses.ResponseNewParams{Model: rsModel, Input: rsString("Turn 4"),
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
	sel := join(selectorOf(sess), bearer("k"))
	for _, body := range []string{`{"history":{"max_bytes":0}}`, `{"history":{"max_bytes":1073741825}}`} {
		r := call(t, srv.Client(), http.MethodPut, srv.URL()+"/admin-api/config", body, sel...)
		code, _, param, _ := r.apiError(t)
		if r.status != http.StatusBadRequest || code != "invalid_configuration" || param != "history.max_bytes" {
			t.Errorf("PUT %s: %d %s param %q, want 400 invalid_configuration param history.max_bytes", body, r.status, code, param)
		}
	}
	if cfg, _ := sess.Config(); cfg.History.MaxBytes != 64<<10 {
		t.Errorf("a refused configuration changed history.max_bytes to %d", cfg.History.MaxBytes)
	}

	client := clientFor(sess, "k")
	small := rsRespond(t, client, responses.ResponseNewParams{Model: rsModel, Input: rsString("small")}, false)
	big := rsRespond(t, client, responses.ResponseNewParams{Model: rsModel, Input: rsString(strings.Repeat("big ", 32<<10))}, false)
	if big.OutputText() != "ok" {
		t.Errorf("the oversized request was answered %q, want ok", big.OutputText())
	}
	_, err := client.Responses.Get(t.Context(), big.ID, responses.ResponseGetParams{})
	rsWantError(t, "GET of a response larger than history.max_bytes", err, http.StatusNotFound, "", "")
	if _, err := client.Responses.Get(t.Context(), small.ID, responses.ResponseGetParams{}); err != nil {
		t.Errorf("the oversized response evicted a kept one: %v", err)
	}
}
