package anthropic

import (
	"net/http"
	"net/url"
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
	now := day(2026, 12, 2)
	all := listQuery{Limit: 20, Lifecycles: defaultLifecycles}
	got := marshal(t, ModelList([]string{"claude-haiku-4-5-20251001", "claude-haiku-4-5", "my-model"}, now, all))
	haiku := `{"type":"model","id":"claude-haiku-4-5-20251001","display_name":"Claude Haiku 4.5","created_at":"2025-10-15T00:00:00Z",
	  "max_input_tokens":200000,"max_tokens":64000,"lifecycle":"active","line":"haiku","deprecated_at":null,"retires_at":null,
	  "capabilities":{"batch":{"supported":true},"citations":{"supported":true},"code_execution":{"supported":true},
	    "context_management":{"clear_thinking_20251015":{"supported":true},"clear_tool_uses_20250919":{"supported":true},"compact_20260112":{"supported":false},"supported":true},
	    "effort":{"high":{"supported":false},"low":{"supported":false},"max":{"supported":false},"medium":{"supported":false},"supported":false,"xhigh":{"supported":false}},
	    "image_input":{"supported":true},"pdf_input":{"supported":true},
	    "server_tools":{"code_execution":{"supported":true},"supported":true,"web_search":{"supported":true}},
	    "structured_outputs":{"supported":true},
	    "thinking":{"supported":true,"types":{"adaptive":{"supported":false},"between_tools":{"supported":false},"disabled":{"supported":true},"enabled":{"supported":true}}}}}`
	assert.JSONEq(t, `{"data":[`+haiku+`,
	  {"type":"model","id":"my-model","display_name":"my-model","created_at":"1970-01-01T00:00:00Z","max_input_tokens":0,"max_tokens":0,
	   "lifecycle":"active","line":null,"deprecated_at":null,"retires_at":null,
	   "capabilities":{"batch":{"supported":false},"citations":{"supported":false},"code_execution":{"supported":false},
	    "context_management":{"clear_thinking_20251015":{"supported":false},"clear_tool_uses_20250919":{"supported":false},"compact_20260112":{"supported":false},"supported":false},
	    "effort":{"high":{"supported":false},"low":{"supported":false},"max":{"supported":false},"medium":{"supported":false},"supported":false,"xhigh":{"supported":false}},
	    "image_input":{"supported":false},"pdf_input":{"supported":false},
	    "server_tools":{"code_execution":{"supported":false},"supported":false,"web_search":{"supported":false}},
	    "structured_outputs":{"supported":false},
	    "thinking":{"supported":false,"types":{"adaptive":{"supported":false},"between_tools":{"supported":false},"disabled":{"supported":false},"enabled":{"supported":false}}}}}],
	  "has_more":false,"first_id":"claude-haiku-4-5-20251001","last_id":"my-model"}`, got)
	assert.JSONEq(t, `{"data":[],"has_more":false,"first_id":null,"last_id":null}`, marshal(t, ModelList(nil, now, all)))
}

// A model is deprecated, then retired, on the clock it is asked at: the
// list leaves a retired model out unless retired models are asked for,
// and deprecated_at and retires_at are null while a model is active.
func TestModelLifecycle(t *testing.T) {
	opus45, _ := Lookup("claude-opus-4-5")
	assert.Equal(t, "active", opus45.LifecycleAt(day(2026, 10, 1)))
	assert.Equal(t, "deprecated", opus45.LifecycleAt(day(2026, 12, 2)))
	assert.Equal(t, "retired", opus45.LifecycleAt(day(2027, 1, 22)))
	assert.True(t, RetiredAt("claude-sonnet-4-5", day(2026, 12, 2)))
	assert.False(t, RetiredAt("claude-sonnet-4-5", day(2026, 11, 29)))
	assert.False(t, RetiredAt("my-model", day(2999, 1, 1)))

	o := modelFor("claude-opus-4-5", day(2026, 12, 2))
	require.NotNil(t, o.RetiresAt)
	assert.Equal(t, "2027-01-22T00:00:00Z", *o.RetiresAt)
	assert.Nil(t, modelFor("claude-opus-4-5", day(2026, 10, 1)).RetiresAt)

	ids := CatalogIDs()
	listed := func(q listQuery) []string {
		var out []string
		for _, m := range ModelList(ids, day(2026, 12, 2), q).(modelList).Data {
			out = append(out, m.ID)
		}
		return out
	}
	def := listed(listQuery{Limit: 1000, Lifecycles: defaultLifecycles})
	assert.NotContains(t, def, "claude-sonnet-4-5-20250929")
	assert.NotContains(t, def, "claude-mythos-preview")
	assert.Contains(t, def, "claude-opus-4-5-20251101")
	assert.Equal(t, []string{"claude-mythos-preview", "claude-sonnet-4-5-20250929"}, listed(listQuery{Limit: 1000, Lifecycles: []string{"retired"}}))
}

// Pages of the list follow limit, after_id and before_id as the SDK's
// pagination reads them.
func TestModelListPages(t *testing.T) {
	ids := []string{"claude-opus-4-7", "claude-opus-4-6", "claude-sonnet-4-6", "claude-haiku-4-5-20251001"}
	now := day(2026, 12, 2)
	page := func(q listQuery) modelList {
		q.Lifecycles = defaultLifecycles
		return ModelList(ids, now, q).(modelList)
	}
	first := page(listQuery{Limit: 2})
	require.Len(t, first.Data, 2)
	assert.True(t, first.HasMore)
	assert.Equal(t, "claude-opus-4-6", *first.LastID)
	next := page(listQuery{Limit: 2, AfterID: *first.LastID})
	assert.Equal(t, "claude-sonnet-4-6", *next.FirstID)
	assert.False(t, next.HasMore)
	back := page(listQuery{Limit: 1, BeforeID: "claude-sonnet-4-6"})
	assert.Equal(t, "claude-opus-4-6", *back.FirstID)
	assert.True(t, back.HasMore)

	for q, msg := range map[string]string{"limit=0": "limit: Input should be greater than or equal to 1",
		"limit=1001": "limit: Input should be less than or equal to 1000", "lifecycle[]=gone": "lifecycle: Input should be 'active', 'deprecated' or 'retired'"} {
		v, _ := url.ParseQuery(q)
		_, err := parseListQuery(v)
		require.NotNil(t, err, q)
		assert.Equal(t, msg, err.Message, q)
	}
	v, _ := url.ParseQuery("lifecycle[]=retired&lifecycle[]=active&limit=5")
	q, err := parseListQuery(v)
	require.Nil(t, err)
	assert.Equal(t, listQuery{Limit: 5, Lifecycles: []string{"retired", "active"}}, q)
}

func TestRequestID(t *testing.T) {
	seen := map[string]bool{}
	pattern := regexp.MustCompile(`^req_011C[1-9A-HJ-NP-Za-km-z]{20}$`)
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
