package openai

import (
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/llmtestserver/llmtestserver/internal/tokens"
)

// The catalog and the tokenizer's prefix table must name the same encoding
// for every model, or usage would count in one vocabulary and the catalog
// claim another.
func TestCatalogEncodingsAgreeWithTokens(t *testing.T) {
	for _, id := range CatalogIDs() {
		info, ok := LookupModel(id)
		if !ok {
			t.Fatalf("LookupModel(%q) found nothing for a catalog ID", id)
		}
		if got := string(tokens.EncodingFor(id)); got != info.Encoding {
			t.Errorf("%s: catalog encoding %q, tokens.EncodingFor %q", id, info.Encoding, got)
		}
	}
}

func TestCatalogEntries(t *testing.T) {
	required := []string{
		"gpt-4.1", "gpt-4.1-mini", "gpt-4.1-nano", "gpt-4o", "gpt-4o-mini", "gpt-5", "gpt-5-mini", "gpt-5-nano",
		"o3", "o3-mini", "o4-mini", "o1", "gpt-3.5-turbo", "gpt-4-turbo",
		"text-embedding-3-small", "text-embedding-3-large", "text-embedding-ada-002", "sora-2", "sora-2-pro",
	}
	ids := CatalogIDs()
	for _, id := range required {
		if !slices.Contains(ids, id) {
			t.Errorf("catalog lacks %s", id)
		}
	}
	seen := map[string]bool{}
	for _, id := range ids {
		if seen[id] {
			t.Errorf("%s listed twice", id)
		}
		seen[id] = true
		m, _ := LookupModel(id)
		if m.Created < 1600000000 || m.Created > 2000000000 {
			t.Errorf("%s: created %d is not a plausible Unix time", id, m.Created)
		}
		if !slices.Contains([]string{"system", "openai", "openai-internal"}, m.OwnedBy) {
			t.Errorf("%s: owned_by %q", id, m.OwnedBy)
		}
		switch m.Kind {
		case KindChat, KindReasoning:
			if m.ContextWindow <= 0 || m.MaxOutputTokens <= 0 || m.MaxOutputTokens > m.ContextWindow || m.Dimensions != 0 {
				t.Errorf("%s: limits %+v", id, m)
			}
		case KindEmbedding:
			if m.ContextWindow != 8192 || m.MaxOutputTokens != 0 || m.Dimensions <= 0 {
				t.Errorf("%s: limits %+v", id, m)
			}
			if m.AcceptsDimensions != strings.HasPrefix(id, "text-embedding-3-") {
				t.Errorf("%s: AcceptsDimensions %t", id, m.AcceptsDimensions)
			}
		case KindVideo:
			if m.Dimensions != 0 || m.AcceptsDimensions {
				t.Errorf("%s: limits %+v", id, m)
			}
		default:
			t.Errorf("%s: kind %q", id, m.Kind)
		}
	}
	for id, dims := range map[string]int{"text-embedding-3-small": 1536, "text-embedding-3-large": 3072, "text-embedding-ada-002": 1536} {
		if m, _ := LookupModel(id); m.Dimensions != dims {
			t.Errorf("%s: %d dimensions, want %d", id, m.Dimensions, dims)
		}
	}
	if _, ok := LookupModel("ft:gpt-4o:org::x"); ok {
		t.Error("LookupModel found a model outside the catalog")
	}
}

// Each model object carries exactly the four fields the real list sends.
func TestModelJSON(t *testing.T) {
	b, err := json.Marshal(Models([]string{"text-embedding-ada-002", "ft:gpt-4o:acme::x"}))
	if err != nil {
		t.Fatal(err)
	}
	want := `{"object":"list","data":[` +
		`{"id":"text-embedding-ada-002","object":"model","created":1671217299,"owned_by":"openai-internal"},` +
		`{"id":"ft:gpt-4o:acme::x","object":"model","created":0,"owned_by":"organization-owner"}]}`
	if string(b) != want {
		t.Errorf("got  %s\nwant %s", b, want)
	}
}

func TestKindOfComesFromTheCatalog(t *testing.T) {
	for _, id := range CatalogIDs() {
		info, _ := LookupModel(id)
		if got := KindOf(id); got != info.Kind {
			t.Errorf("KindOf(%q) = %s, want the catalog's %s", id, got, info.Kind)
		}
	}
	for model, want := range map[string]ModelKind{
		"o3-2025-04-16":             KindReasoning, // a dated snapshot takes its family's kind
		"o3-mini-2025-01-31":        KindReasoning,
		"gpt-5.1":                   KindReasoning,
		"gpt-4.1-2025-04-14":        KindChat,
		"gpt-4o-mini-2024":          KindChat,
		"o3x":                       KindChat, // no separator: not the o3 family
		"ft:gpt-4.1:acme::123":      KindChat,
		"text-embedding-3-small-v2": KindEmbedding,
		"my-model":                  KindChat,
	} {
		if got := KindOf(model); got != want {
			t.Errorf("KindOf(%q) = %s, want %s", model, got, want)
		}
	}
}

// TestReadmeListsTheCatalog keeps the README's model list and GET /v1/models
// in step.
func TestReadmeListsTheCatalog(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, line, ok := strings.Cut(string(readme), "The OpenAI catalog: ")
	if !ok {
		t.Fatal("README.md has no line starting the catalog with \"The OpenAI catalog: \"")
	}
	line, _, _ = strings.Cut(line, ". ")
	var listed []string
	for _, f := range strings.Split(line, ", ") {
		listed = append(listed, strings.Trim(f, "`."))
	}
	var aliases []string
	for _, id := range CatalogIDs() {
		if AliasOf(id) == "" {
			aliases = append(aliases, id)
		}
	}
	if !slices.Equal(listed, aliases) {
		t.Errorf("README lists %q, the catalog's aliases are %q", listed, aliases)
	}
	if count := fmt.Sprintf("%d IDs in all", len(CatalogIDs())); !strings.Contains(string(readme), count) {
		t.Errorf("README does not say %q", count)
	}
}
