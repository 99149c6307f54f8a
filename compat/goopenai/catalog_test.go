package goopenai_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/openai/openai-go/v3"

	"github.com/llmtestserver/llmtestserver/internal/e2e"
	catalog "github.com/llmtestserver/llmtestserver/internal/openai"
	"github.com/llmtestserver/llmtestserver/llmtest"
	"github.com/llmtestserver/llmtestserver/session"
)

// catWant is a model as GET /v1/models must describe it.
type catWant struct {
	ID, Object, OwnedBy string
	Created             int64
}

// catRawModels reads GET /v1/models raw and checks what the SDKs cannot
// see: the envelope, integer created values and no cursor fields.
func catRawModels(t *testing.T, sess *session.Session) []catWant {
	t.Helper()
	r := e2e.Call(t, sess.HTTPClient(), http.MethodGet, sess.BaseURL()+"/models", "", e2e.SelectorOf(sess)...)
	if r.Status != http.StatusOK || r.Header.Get("Content-Type") != "application/json" {
		t.Fatalf("GET /v1/models: %d %s %s", r.Status, r.Header.Get("Content-Type"), r.Body)
	}
	var list struct {
		Object string                       `json:"object"`
		Data   []map[string]json.RawMessage `json:"data"`
	}
	dec := json.NewDecoder(bytes.NewReader(r.Body))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&list); err != nil || list.Object != "list" {
		t.Fatalf("GET /v1/models body %s: %v; want exactly {object:list, data}", r.Body, err)
	}
	var out []catWant
	for _, m := range list.Data {
		var w catWant
		var created json.Number
		dec := json.NewDecoder(bytes.NewReader(m["created"]))
		dec.UseNumber()
		if err := dec.Decode(&created); err != nil {
			t.Fatalf("model %s: created %s: %v", m["id"], m["created"], err)
		}
		n, err := created.Int64()
		if err != nil {
			t.Errorf("model %s: created %s is not an integer", m["id"], created)
		}
		w.Created = n
		for key, dst := range map[string]*string{"id": &w.ID, "object": &w.Object, "owned_by": &w.OwnedBy} {
			if err := json.Unmarshal(m[key], dst); err != nil {
				t.Errorf("model %v: %s = %s: %v", m, key, m[key], err)
			}
		}
		if len(m) != 4 {
			t.Errorf("model %s has fields %v, want id, object, created, owned_by", w.ID, m)
		}
		out = append(out, w)
	}
	return out
}

// GET /v1/models lists the whole catalog, in its order, with the creation
// times and owners the real API reports, through both SDKs.
func TestCatalogListsEveryModel(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t)
	sess := srv.NewSession(t)
	var want []catWant
	for _, id := range catalog.CatalogIDs() {
		info, ok := catalog.LookupModel(id)
		if !ok || info.Created == 0 || info.OwnedBy == "" {
			t.Fatalf("catalog model %s: %+v", id, info)
		}
		want = append(want, catWant{ID: id, Object: "model", OwnedBy: info.OwnedBy, Created: info.Created})
	}
	if len(want) < 10 {
		t.Fatalf("the catalog holds %d models", len(want))
	}
	if got := catRawModels(t, sess); !slices.Equal(got, want) {
		t.Errorf("GET /v1/models = %+v\nwant %+v", got, want)
	}

	client := e2e.ClientFor(sess, "k")
	page, err := client.Models.List(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	var got []catWant
	for _, m := range page.Data {
		got = append(got, catWant{ID: m.ID, Object: string(m.Object), OwnedBy: m.OwnedBy, Created: m.Created})
	}
	if !slices.Equal(got, want) || page.Object != "list" {
		t.Errorf("openai-go Models.List = %+v", got)
	}
	// The auto-pager stops after the one page.
	pager := client.Models.ListAutoPaging(t.Context())
	n := 0
	for pager.Next() {
		n++
	}
	if pager.Err() != nil || n != len(want) {
		t.Errorf("openai-go auto-pager saw %d models (%v), want %d", n, pager.Err(), len(want))
	}

	goList, err := rsGoClient(sess).ListModels(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	got = got[:0]
	for _, m := range goList.Models {
		got = append(got, catWant{ID: m.ID, Object: m.Object, OwnedBy: m.OwnedBy, Created: m.CreatedAt})
	}
	if !slices.Equal(got, want) {
		t.Errorf("go-openai ListModels = %+v", got)
	}
}

// GET /v1/models/{id} describes one model of any kind, as the list does;
// an unknown one is 404 model_not_found.
func TestCatalogModelByID(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t)
	sess := srv.NewSession(t)
	client := e2e.ClientFor(sess, "k")
	goClient := rsGoClient(sess)
	for _, tc := range []struct {
		id   string
		kind catalog.ModelKind
	}{
		{"gpt-4.1-mini", catalog.KindChat},
		{"gpt-4o", catalog.KindChat},
		{"o3", catalog.KindReasoning},
		{"gpt-5", catalog.KindReasoning},
		{"text-embedding-3-small", catalog.KindEmbedding},
		{"text-embedding-ada-002", catalog.KindEmbedding},
		{"sora-2", catalog.KindVideo},
	} {
		info, ok := catalog.LookupModel(tc.id)
		if !ok || info.Kind != tc.kind {
			t.Fatalf("catalog: %s is %+v, want a %s model", tc.id, info, tc.kind)
		}
		want := catWant{ID: tc.id, Object: "model", OwnedBy: info.OwnedBy, Created: info.Created}
		m, err := client.Models.Get(t.Context(), tc.id)
		if err != nil {
			t.Errorf("openai-go Models.Get(%s): %v", tc.id, err)
		} else if got := (catWant{ID: m.ID, Object: string(m.Object), OwnedBy: m.OwnedBy, Created: m.Created}); got != want {
			t.Errorf("openai-go Models.Get(%s) = %+v, want %+v", tc.id, got, want)
		}
		gm, err := goClient.GetModel(t.Context(), tc.id)
		if err != nil {
			t.Errorf("go-openai GetModel(%s): %v", tc.id, err)
		} else if got := (catWant{ID: gm.ID, Object: gm.Object, OwnedBy: gm.OwnedBy, Created: gm.CreatedAt}); got != want {
			t.Errorf("go-openai GetModel(%s) = %+v, want %+v", tc.id, got, want)
		}
	}

	const unknown = "gpt-7-ultra"
	_, err := client.Models.Get(t.Context(), unknown)
	apiErr := e2e.WantInvalidRequest(t, "openai-go Models.Get of an unknown model", err, http.StatusNotFound, "model_not_found", "")
	if !strings.HasPrefix(apiErr.Message, "The model `"+unknown+"` does not exist or you do not have access to it. Nearest in this server's catalog: ") ||
		!strings.HasSuffix(apiErr.Message, fmt.Sprintf(" (GET /v1/models lists all %d).", len(catalog.CatalogIDs()))) {
		t.Errorf("message %q", apiErr.Message)
	}
	_, err = goClient.GetModel(t.Context(), unknown)
	rsWantGoError(t, "go-openai GetModel of an unknown model", err, http.StatusNotFound, "model_not_found", "")
	r := e2e.Call(t, sess.HTTPClient(), http.MethodDelete, sess.BaseURL()+"/models/gpt-4o", "", e2e.SelectorOf(sess)...)
	if r.Status != http.StatusMethodNotAllowed {
		t.Errorf("DELETE /v1/models/gpt-4o: %d %s, want 405", r.Status, r.Body)
	}
}

// A session that names its models lists exactly those, in its order, and
// knows no other.
func TestCatalogSessionModels(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t)
	sess := srv.NewSession(t, session.OnlyModels("text-embedding-3-small", "o3", "ft:gpt-4.1-mini:acme::abc123"))
	o3, _ := catalog.LookupModel("o3")
	emb, _ := catalog.LookupModel("text-embedding-3-small")
	want := []catWant{
		{ID: "text-embedding-3-small", Object: "model", OwnedBy: emb.OwnedBy, Created: emb.Created},
		{ID: "o3", Object: "model", OwnedBy: o3.OwnedBy, Created: o3.Created},
		{ID: "ft:gpt-4.1-mini:acme::abc123", Object: "model", OwnedBy: "organization-owner"},
	}
	if got := catRawModels(t, sess); !slices.Equal(got, want) {
		t.Errorf("GET /v1/models = %+v\nwant %+v", got, want)
	}
	goList, err := rsGoClient(sess).ListModels(t.Context())
	if err != nil || len(goList.Models) != 3 || goList.Models[2].ID != want[2].ID {
		t.Errorf("go-openai ListModels: %v, %+v", err, goList.Models)
	}
	client := e2e.ClientFor(sess, "k")
	if m, err := client.Models.Get(t.Context(), want[2].ID); err != nil || m.OwnedBy != "organization-owner" {
		t.Errorf("Models.Get of the session's fine-tune: %v, %+v", err, m)
	}
	for _, id := range []string{"gpt-4.1-mini", "text-embedding-3-large", "sora-2"} {
		_, err := client.Models.Get(t.Context(), id)
		e2e.WantInvalidRequest(t, "Models.Get("+id+") outside the session's models", err, http.StatusNotFound, "model_not_found", "")
	}
	// The session's models are the ones its endpoints serve.
	_, err = client.Chat.Completions.New(t.Context(), e2e.UserTurn("gpt-4.1-mini", "Hi"))
	e2e.WantInvalidRequest(t, "chat with a model outside the session's", err, http.StatusNotFound, "model_not_found", "")
	if _, err := client.Embeddings.New(t.Context(), openai.EmbeddingNewParams{Model: "text-embedding-3-small",
		Input: openai.EmbeddingNewParamsInputUnion{OfString: openai.String("Hi")}}); err != nil {
		t.Errorf("embeddings with the session's model: %v", err)
	}
	if _, err := rsGoClient(sess).GetModel(t.Context(), "o3"); err != nil {
		t.Errorf("go-openai GetModel(o3): %v", err)
	}
	_, err = rsGoClient(sess).GetModel(t.Context(), "gpt-4o")
	rsWantGoError(t, "go-openai GetModel(gpt-4o) outside the session's models", err, http.StatusNotFound, "model_not_found", "")
}
