package anthropic

import (
	"net/http"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestCatalog(t *testing.T) {
	ids := CatalogIDs()
	assert.Contains(t, ids, "claude-haiku-4-5-20251001")
	assert.Contains(t, ids, "claude-haiku-4-5")
	assert.Contains(t, ids, "claude-opus-4-7")
	for _, id := range ids {
		m, ok := Lookup(id)
		require.True(t, ok, id)
		assert.Positive(t, m.ContextWindow, id)
		assert.Positive(t, m.MaxOutput, id)
		assert.Positive(t, m.MinCacheTokens, id)
		assert.NotEmpty(t, m.DisplayName, id)
	}
	m, ok := Lookup("claude-haiku-4-5")
	require.True(t, ok)
	assert.Equal(t, "claude-haiku-4-5-20251001", m.ID)
	assert.Equal(t, 4096, m.MinCacheTokens)
	_, ok = Lookup("gpt-4o")
	assert.False(t, ok)
}

func TestModelList(t *testing.T) {
	got := marshal(t, ModelList([]string{"claude-haiku-4-5-20251001", "claude-haiku-4-5", "my-model"}))
	assert.JSONEq(t, `{"data":[
	  {"type":"model","id":"claude-haiku-4-5-20251001","display_name":"Claude Haiku 4.5","created_at":"2025-10-15T00:00:00Z","max_input_tokens":200000,"max_tokens":64000},
	  {"type":"model","id":"my-model","display_name":"my-model","created_at":"1970-01-01T00:00:00Z"}],
	  "has_more":false,"first_id":"claude-haiku-4-5-20251001","last_id":"my-model"}`, got)
	assert.JSONEq(t, `{"data":[],"has_more":false,"first_id":null,"last_id":null}`, marshal(t, ModelList(nil)))
	assert.JSONEq(t, `{"type":"model","id":"claude-opus-4-5-20251101","display_name":"Claude Opus 4.5","created_at":"2025-11-24T00:00:00Z","max_input_tokens":200000,"max_tokens":64000}`,
		marshal(t, ModelObject("claude-opus-4-5")))
}

func TestRequestID(t *testing.T) {
	seen := map[string]bool{}
	pattern := regexp.MustCompile(`^req_011C[0-9a-z]{20}$`)
	for serial := range uint64(2000) {
		id := RequestID(serial)
		require.Regexp(t, pattern, id)
		require.False(t, seen[id], "IDs are unique")
		seen[id] = true
	}
	assert.Equal(t, RequestID(7), RequestID(7), "IDs are reproducible")
	h := http.Header{}
	SetHeaders(h, 7)
	assert.Equal(t, RequestID(7), h.Get("request-id"))
}

func TestReadmeListsTheCatalog(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, line, ok := strings.Cut(string(readme), "The Anthropic catalog: ")
	if !ok {
		t.Fatal(`README.md has no line starting the catalog with "The Anthropic catalog: "`)
	}
	line, _, _ = strings.Cut(line, ". ")
	var listed []string
	for _, f := range strings.Split(line, ", ") {
		listed = append(listed, strings.Trim(f, "`."))
	}
	if want := CatalogIDs(); !slices.Equal(listed, want) {
		t.Errorf("README lists %q, the catalog has %q", listed, want)
	}
}
