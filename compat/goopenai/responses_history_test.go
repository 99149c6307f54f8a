package goopenai_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/llmtestserver/llmtestserver/internal/e2e"
	"github.com/llmtestserver/llmtestserver/llmtest"
	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/responses"
	goopenai "github.com/sashabaranov/go-openai"
)

// GET /v1/responses/{id} returns the response as it was served, streamed or
// not; DELETE forgets it, after which chaining from it fails.
func TestResponsesRetrieveAndDelete(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t)
	sess := srv.NewSession(t)
	sess.Chat("any").Responds("Stored answer.").Repeat()
	client := e2e.ClientFor(sess, "k")
	goClient := rsGoClient(sess)
	ctx := t.Context()

	made := e2e.Respond(t, client, responses.ResponseNewParams{Model: e2e.ResponsesModel, Input: e2e.InputText("Keep this"),
		Metadata: map[string]string{"case": "get"}}, false)
	got, err := client.Responses.Get(ctx, made.ID, responses.ResponseGetParams{})
	if err != nil {
		t.Fatalf("Get: %v", err)
	}
	if !reflect.DeepEqual(e2e.DecodeObject(t, got.RawJSON()), e2e.DecodeObject(t, made.RawJSON())) {
		t.Errorf("GET returned\n %s\nwant the response as served\n %s", got.RawJSON(), made.RawJSON())
	}
	goGot, err := goClient.RetrieveResponse(ctx, made.ID)
	if err != nil || goGot.ID != made.ID || goGot.GetOutputText() != "Stored answer." || goGot.Metadata["case"] != "get" {
		t.Errorf("go-openai RetrieveResponse: %v, %+v", err, goGot)
	}

	streamed := e2e.Respond(t, client, responses.ResponseNewParams{Model: e2e.ResponsesModel, Input: e2e.InputText("Keep this too")}, true)
	got, err = client.Responses.Get(ctx, streamed.ID, responses.ResponseGetParams{})
	if err != nil {
		t.Fatalf("Get streamed: %v", err)
	}
	if !reflect.DeepEqual(e2e.DecodeObject(t, got.RawJSON()), e2e.DecodeObject(t, streamed.RawJSON())) {
		t.Errorf("GET of a streamed response returned\n %s\nwant the response.completed one\n %s", got.RawJSON(), streamed.RawJSON())
	}

	if err := client.Responses.Delete(ctx, made.ID); err != nil {
		t.Fatalf("Delete: %v", err)
	}
	_, err = client.Responses.Get(ctx, made.ID, responses.ResponseGetParams{})
	e2e.WantInvalidRequest(t, "GET after DELETE", err, http.StatusNotFound, "", "")
	err = client.Responses.Delete(ctx, made.ID)
	e2e.WantInvalidRequest(t, "second DELETE", err, http.StatusNotFound, "", "")
	_, err = client.Responses.New(ctx, responses.ResponseNewParams{Model: e2e.ResponsesModel, Input: e2e.InputText("Go on"),
		PreviousResponseID: openai.String(made.ID)})
	apiErr := e2e.WantInvalidRequest(t, "chaining from a deleted response", err, http.StatusBadRequest, "previous_response_not_found", "previous_response_id")
	if !strings.Contains(apiErr.Message, made.ID) {
		t.Errorf("message %q does not name %s", apiErr.Message, made.ID)
	}

	deleted, err := goClient.DeleteResponse(ctx, streamed.ID)
	if err != nil || deleted.ID != streamed.ID || deleted.Object != "response" || !deleted.Deleted {
		t.Errorf("go-openai DeleteResponse: %v, %+v, want {%s response true}", err, deleted, streamed.ID)
	}
	_, err = goClient.RetrieveResponse(ctx, streamed.ID)
	rsWantGoError(t, "go-openai GET after DELETE", err, http.StatusNotFound, "", "")
	_, err = goClient.CreateResponse(ctx, goopenai.CreateResponseRequest{Model: e2e.ResponsesModel, Input: "Go on", PreviousResponseID: streamed.ID})
	rsWantGoError(t, "go-openai chaining from a deleted response", err, http.StatusBadRequest, "previous_response_not_found", "previous_response_id")

	const unknown = "resp_doesnotexist"
	_, err = client.Responses.Get(ctx, unknown, responses.ResponseGetParams{})
	apiErr = e2e.WantInvalidRequest(t, "GET of an unknown id", err, http.StatusNotFound, "", "")
	if !strings.Contains(apiErr.Message, unknown) {
		t.Errorf("message %q does not name %s", apiErr.Message, unknown)
	}
	_, err = goClient.RetrieveResponse(ctx, unknown)
	rsWantGoError(t, "go-openai GET of an unknown id", err, http.StatusNotFound, "", "")
}

// rsListedItem is an input item as input_items lists it.
type rsListedItem struct {
	ID      string `json:"id"`
	Type    string `json:"type"`
	Role    string `json:"role"`
	Content []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	} `json:"content"`
}

func rsListed(t *testing.T, raw string) rsListedItem {
	t.Helper()
	var it rsListedItem
	if err := json.Unmarshal([]byte(raw), &it); err != nil || len(it.Content) != 1 {
		t.Fatalf("item %s: %v", raw, err)
	}
	return it
}

// The input items of a response page with openai-go's auto-pager, in both
// orders, and with go-openai page by page.
func TestResponsesInputItemsPaging(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t)
	sess := srv.NewSession(t)
	sess.Chat("long").Responds("Read them all.")
	client := e2e.ClientFor(sess, "k")
	ctx := t.Context()

	const n = 30
	var input []responses.ResponseInputItemUnionParam
	for i := range n {
		role := responses.EasyInputMessageRoleUser
		if i%2 == 1 {
			role = responses.EasyInputMessageRoleAssistant
		}
		input = append(input, responses.ResponseInputItemParamOfMessage(fmt.Sprintf("item %d", i), role))
	}
	r := e2e.Respond(t, client, responses.ResponseNewParams{Model: e2e.ResponsesModel, Input: e2e.InputItems(input...)}, false)

	list := func(order responses.InputItemListParamsOrder) []rsListedItem {
		t.Helper()
		before := sess.Journal().Len()
		pager := client.Responses.InputItems.ListAutoPaging(ctx, r.ID, responses.InputItemListParams{
			Limit: openai.Int(10), Order: order})
		var items []rsListedItem
		for pager.Next() {
			items = append(items, rsListed(t, pager.Current().RawJSON()))
		}
		if err := pager.Err(); err != nil {
			t.Fatalf("order %q: %v", order, err)
		}
		if pages := sess.Journal().Len() - before; pages != 3 {
			t.Errorf("order %q: %d page requests, want 3 (has_more false on the last)", order, pages)
		}
		return items
	}
	asc := list(responses.InputItemListParamsOrderAsc)
	if len(asc) != n {
		t.Fatalf("ascending listing has %d items, want %d", len(asc), n)
	}
	ids := map[string]bool{}
	for i, it := range asc {
		wantRole, wantPart := "user", "input_text"
		if i%2 == 1 {
			wantRole, wantPart = "assistant", "output_text"
		}
		if it.Type != "message" || it.Role != wantRole || it.Content[0].Type != wantPart || it.Content[0].Text != fmt.Sprintf("item %d", i) {
			t.Errorf("item %d = %+v, want the %s message %q", i, it, wantRole, fmt.Sprintf("item %d", i))
		}
		if !strings.HasPrefix(it.ID, "msg_") || ids[it.ID] {
			t.Errorf("item %d id %q: want a fresh msg_ id", i, it.ID)
		}
		ids[it.ID] = true
	}
	desc := list(responses.InputItemListParamsOrderDesc)
	byDefault := list("")
	slices.Reverse(desc)
	slices.Reverse(byDefault)
	if !reflect.DeepEqual(desc, asc) || !reflect.DeepEqual(byDefault, asc) {
		t.Errorf("descending (explicit or default) listing is not the ascending one reversed")
	}

	goClient := rsGoClient(sess)
	var goIDs []string
	after := ""
	for page := 0; ; page++ {
		l, err := goClient.ListResponseInputItems(ctx, r.ID, goopenai.ResponseInputItemsListOptions{Limit: 7, Order: "asc", After: after})
		if err != nil {
			t.Fatalf("go-openai page %d: %v", page, err)
		}
		if l.Object != "list" || len(l.Data) == 0 || len(l.Data) > 7 {
			t.Fatalf("go-openai page %d: %+v", page, l)
		}
		for _, d := range l.Data {
			goIDs = append(goIDs, d.(map[string]any)["id"].(string))
		}
		if l.FirstID != goIDs[len(goIDs)-len(l.Data)] || l.LastID != goIDs[len(goIDs)-1] {
			t.Errorf("page %d: first_id %q last_id %q do not name its ends", page, l.FirstID, l.LastID)
		}
		if !l.HasMore {
			break
		}
		after = l.LastID
	}
	for i, id := range goIDs {
		if i >= len(asc) || id != asc[i].ID {
			t.Fatalf("go-openai paged ids %v differ from openai-go's", goIDs)
		}
	}
	if len(goIDs) != n {
		t.Errorf("go-openai paged %d items, want %d", len(goIDs), n)
	}
}
