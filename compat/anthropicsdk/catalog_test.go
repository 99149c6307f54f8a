package anthropicsdk_test

import (
	"net/http"
	"slices"
	"testing"
	"time"

	"github.com/anthropics/anthropic-sdk-go/v2"
	"github.com/llmtestserver/llmtestserver/clock"
	internal "github.com/llmtestserver/llmtestserver/internal/anthropic"
	"github.com/llmtestserver/llmtestserver/llmtest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Every model constant of the SDK is in the catalog, and every catalog
// model is an SDK constant or retired: a model a newer SDK adds fails here
// before a user's request is answered 404 for it.
func TestCatalogIsTheSDKs(t *testing.T) {
	t.Parallel()
	sdk := sdkConstants(t, "message.go", "Model")
	require.NotEmpty(t, sdk)
	ours := internal.CatalogIDs()
	for _, id := range sdk {
		assert.Contains(t, ours, id, "an SDK model the catalog lacks")
	}
	for _, id := range ours {
		if !slices.Contains(sdk, id) {
			assert.True(t, internal.RetiredAt(id, time.Now()), "%s is in the catalog, neither an SDK constant nor retired", id)
		}
	}
	t.Logf("catalog: %d IDs, %d SDK constants", len(ours), len(sdk))
}

// Models.List pages through the catalog with its capabilities and
// lifecycle, with no field the SDK requires missing; a retired model is
// listed only when asked for, is still described by Models.Get, and
// answers 404 on Messages and count_tokens, once the session's clock has
// passed its date.
func TestModelsLifecycleOnTheSessionsClock(t *testing.T) {
	t.Parallel()
	fake := clock.NewFake(time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC))
	srv := llmtest.NewServer(t, llmtest.WithClock(fake))
	sess := srv.NewSession(t)
	sess.Chat("Hi").Responds("hello").Repeat()
	client := clientFor(sess, "k", 0)
	retiring := anthropic.Model("claude-sonnet-4-5")

	page, err := client.Models.List(t.Context(), anthropic.ModelListParams{Limit: anthropic.Int(3)})
	require.NoError(t, err)
	require.Len(t, page.Data, 3)
	assert.True(t, page.HasMore)
	assert.Empty(t, missingRequired(t, page.Data), "fields the SDK requires")
	var all []string
	for m := range client.Models.ListAutoPaging(t.Context(), anthropic.ModelListParams{Limit: anthropic.Int(4)}).All() {
		all = append(all, m.ID)
		assert.Empty(t, missingRequired(t, m), m.ID)
	}
	assert.Contains(t, all, "claude-sonnet-4-5-20250929", "listed until it retires")
	assert.Contains(t, all, "claude-opus-5-5")
	assert.NotContains(t, all, "claude-mythos-preview", "retired in June")
	opus, err := client.Models.Get(t.Context(), "claude-opus-5-5", anthropic.ModelGetParams{})
	require.NoError(t, err)
	assert.True(t, opus.Capabilities.Thinking.Types.Adaptive.Supported)
	assert.False(t, opus.Capabilities.Thinking.Types.Enabled.Supported)
	assert.Equal(t, anthropic.ModelInfoLifecycleActive, opus.Lifecycle)
	_, err = client.Messages.New(t.Context(), anthropic.MessageNewParams{Model: retiring, MaxTokens: 64,
		Messages: []anthropic.MessageParam{anthropic.NewUserMessage(anthropic.NewTextBlock("Hi"))}})
	require.NoError(t, err)

	fake.Advance(24 * time.Hour) // 2026-11-30T12:00Z: Sonnet 4.5 is retired
	_, err = client.Messages.New(t.Context(), anthropic.MessageNewParams{Model: retiring, MaxTokens: 64,
		Messages: []anthropic.MessageParam{anthropic.NewUserMessage(anthropic.NewTextBlock("Hi"))}})
	apiErr := apiError(t, err)
	assert.Equal(t, http.StatusNotFound, apiErr.StatusCode)
	assert.Equal(t, "not_found_error", string(apiErr.Type()))
	assert.Contains(t, apiErr.Message, "model: claude-sonnet-4-5")
	_, err = client.Messages.CountTokens(t.Context(), anthropic.MessageCountTokensParams{Model: retiring,
		Messages: []anthropic.MessageParam{anthropic.NewUserMessage(anthropic.NewTextBlock("Hi"))}})
	assert.Equal(t, http.StatusNotFound, apiError(t, err).StatusCode)

	all = nil
	for m := range client.Models.ListAutoPaging(t.Context(), anthropic.ModelListParams{}).All() {
		all = append(all, m.ID)
	}
	assert.NotContains(t, all, "claude-sonnet-4-5-20250929")
	retired, err := client.Models.List(t.Context(), anthropic.ModelListParams{Lifecycle: []string{"retired"}})
	require.NoError(t, err)
	var ids []string
	for _, m := range retired.Data {
		ids = append(ids, m.ID)
		assert.Equal(t, anthropic.ModelInfoLifecycleRetired, m.Lifecycle)
	}
	assert.Equal(t, []string{"claude-mythos-preview", "claude-sonnet-4-5-20250929"}, ids)
	got, err := client.Models.Get(t.Context(), string(retiring), anthropic.ModelGetParams{})
	require.NoError(t, err)
	assert.Equal(t, anthropic.ModelInfoLifecycleRetired, got.Lifecycle)
	assert.Equal(t, time.Date(2026, 11, 30, 0, 0, 0, 0, time.UTC), got.RetiresAt)
	assert.Equal(t, 1, sess.Pending(), "refused requests take no reply")
}
