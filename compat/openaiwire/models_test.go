package openaiwire_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"

	. "github.com/llmtestserver/llmtestserver/internal/openai"
	oai "github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
	goai "github.com/sashabaranov/go-openai"
)

func TestModelsDecodeInBothSDKs(t *testing.T) {
	ids := CatalogIDs()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		var v any = Models(ids)
		if id, ok := strings.CutPrefix(r.URL.Path, "/v1/models/"); ok {
			v = Models([]string{id}).Data[0]
		}
		json.NewEncoder(w).Encode(v)
	}))
	t.Cleanup(srv.Close)

	client := oai.NewClient(option.WithBaseURL(srv.URL+"/v1"), option.WithAPIKey("sk-test"), option.WithMaxRetries(0))
	var got []string
	iter := client.Models.ListAutoPaging(context.Background())
	for iter.Next() {
		m := iter.Current()
		info, _ := LookupModel(m.ID)
		if m.Created != info.Created || m.OwnedBy != info.OwnedBy || string(m.Object) != "model" {
			t.Errorf("openai-go model %+v, catalog %+v", m, info)
		}
		got = append(got, m.ID)
	}
	if err := iter.Err(); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(got, ids) {
		t.Errorf("openai-go listed %v, want %v", got, ids)
	}
	one, err := client.Models.Get(context.Background(), "sora-2")
	if err != nil || one.ID != "sora-2" || one.Created != 1759708615 {
		t.Errorf("openai-go Get = %+v, %v", one, err)
	}

	cfg := goai.DefaultConfig("sk-test")
	cfg.BaseURL = srv.URL + "/v1"
	list, err := goai.NewClientWithConfig(cfg).ListModels(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if len(list.Models) != len(ids) || list.Models[0].ID != ids[0] || list.Models[0].CreatedAt != catalog[0].Created || list.Models[0].OwnedBy != "system" {
		t.Errorf("go-openai listed %+v", list.Models)
	}
}
