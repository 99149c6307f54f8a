package anthropicsdk_test

import (
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/anthropics/anthropic-sdk-go/v2"
	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
	"github.com/openai/openai-go/v3/responses"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestOneScenarioEveryProvider answers openai-go's Chat Completions and
// Responses and anthropic-sdk-go's Messages from one scenario of one
// session.
func TestOneScenarioEveryProvider(t *testing.T) {
	t.Parallel()
	sess := newSession(t)
	sess.Chat("x").Responds("hi").Repeat()
	oc := openai.NewClient(option.WithBaseURL(sess.BaseURL()), option.WithAPIKey("k"),
		option.WithHTTPClient(sess.HTTPClient()), option.WithMaxRetries(0))
	ac := clientFor(sess, "k", 0)

	comp, err := oc.Chat.Completions.New(t.Context(), openai.ChatCompletionNewParams{
		Model:    "gpt-4.1-mini",
		Messages: []openai.ChatCompletionMessageParamUnion{openai.UserMessage("hello")},
	})
	require.NoError(t, err)
	assert.Equal(t, "hi", comp.Choices[0].Message.Content)

	resp, err := oc.Responses.New(t.Context(), responses.ResponseNewParams{
		Model: "gpt-4.1-mini",
		Input: responses.ResponseNewParamsInputUnion{OfString: openai.String("hello")},
	})
	require.NoError(t, err)
	assert.Equal(t, "hi", resp.OutputText())

	msg, err := ac.Messages.New(t.Context(), userTurn("hello"))
	require.NoError(t, err)
	require.Len(t, msg.Content, 1)
	assert.Equal(t, "hi", msg.Content[0].Text)

	streamed := accumulate(t, ac.Messages.NewStreaming(t.Context(), userTurn("hello")))
	require.Len(t, streamed.Content, 1)
	assert.Equal(t, "hi", streamed.Content[0].Text)

	entries := sess.Journal().Entries()
	require.Len(t, entries, 4)
	for i, want := range []struct{ provider, path string }{
		{"openai", "/v1/chat/completions"}, {"openai", "/v1/responses"},
		{"anthropic", "/v1/messages"}, {"anthropic", "/v1/messages"},
	} {
		assert.Equal(t, want.provider, entries[i].Provider, "entry %d", i)
		assert.Equal(t, want.path, entries[i].Path, "entry %d", i)
		assert.Equal(t, "x", entries[i].Scenario, "entry %d", i)
		assert.Equal(t, "hi", entries[i].ReplyText, "entry %d", i)
		assert.Equal(t, "hello", entries[i].UserText, "entry %d", i)
	}
}

// TestModelsThroughBothSDKs lists GET /v1/models through each SDK: each
// gets its provider's catalog, in its provider's shape.
func TestModelsThroughBothSDKs(t *testing.T) {
	t.Parallel()
	sess := newSession(t)
	ac := clientFor(sess, "k", 0)
	page, err := ac.Models.List(t.Context(), anthropic.ModelListParams{})
	require.NoError(t, err)
	require.NotEmpty(t, page.Data)
	ids := map[string]string{}
	for _, m := range page.Data {
		assert.True(t, strings.HasPrefix(m.ID, "claude-"), "Anthropic lists %q", m.ID)
		assert.NotEmpty(t, m.DisplayName, "model %s", m.ID)
		assert.Equal(t, "model", string(m.Type))
		assert.False(t, m.CreatedAt.IsZero(), "model %s", m.ID)
		ids[m.ID] = m.DisplayName
	}
	assert.Equal(t, "Claude Haiku 4.5", ids["claude-haiku-4-5-20251001"])
	assert.NotContains(t, ids, "claude-haiku-4-5", "the list shows dated IDs, not aliases")
	assert.False(t, page.HasMore)
	assert.Equal(t, page.Data[0].ID, page.FirstID)
	assert.Equal(t, page.Data[len(page.Data)-1].ID, page.LastID)

	got, err := ac.Models.Get(t.Context(), "claude-haiku-4-5", anthropic.ModelGetParams{})
	require.NoError(t, err)
	assert.Equal(t, "claude-haiku-4-5-20251001", got.ID, "an alias resolves to its dated model")
	assert.Equal(t, "Claude Haiku 4.5", got.DisplayName)

	oc := openai.NewClient(option.WithBaseURL(sess.BaseURL()), option.WithAPIKey("k"),
		option.WithHTTPClient(sess.HTTPClient()), option.WithMaxRetries(0))
	opage, err := oc.Models.List(t.Context())
	require.NoError(t, err)
	require.NotEmpty(t, opage.Data)
	var gpt int
	for _, m := range opage.Data {
		assert.False(t, strings.HasPrefix(m.ID, "claude-"), "OpenAI lists %q", m.ID)
		assert.Equal(t, "model", string(m.Object))
		if strings.HasPrefix(m.ID, "gpt-") {
			gpt++
		}
	}
	assert.Positive(t, gpt, "no gpt model in OpenAI's catalog")

	entries := sess.Journal().Entries()
	require.Len(t, entries, 3)
	assert.Equal(t, []string{"anthropic", "anthropic", "openai"},
		[]string{entries[0].Provider, entries[1].Provider, entries[2].Provider})
}

// TestParallelSessionsIdenticalPrompts sends the same prompt from eight
// sessions at once, half of them streamed: each gets its own scripted
// reply and journals only its own request.
func TestParallelSessionsIdenticalPrompts(t *testing.T) {
	t.Parallel()
	srv := newServer(t)
	const n = 8
	var mu sync.Mutex
	seen := map[string]bool{}
	for i := range n {
		t.Run(fmt.Sprint("session", i), func(t *testing.T) {
			t.Parallel()
			key := fmt.Sprint("key-", i)
			want := fmt.Sprint("reply of session ", i)
			sess := srv.NewSession(t)
			sess.Chat("mine").Responds(want)
			client := clientFor(sess, key, 0)
			var text string
			if i%2 == 0 {
				msg, err := client.Messages.New(t.Context(), userTurn("The same prompt everywhere"))
				require.NoError(t, err)
				require.Len(t, msg.Content, 1)
				text = msg.Content[0].Text
			} else {
				msg := accumulate(t, client.Messages.NewStreaming(t.Context(), userTurn("The same prompt everywhere")))
				require.Len(t, msg.Content, 1)
				text = msg.Content[0].Text
			}
			assert.Equal(t, want, text)
			entries := sess.Journal().Entries()
			require.Len(t, entries, 1)
			assert.Equal(t, want, entries[0].ReplyText)
			mu.Lock()
			defer mu.Unlock()
			assert.False(t, seen[text], "two sessions got %q", text)
			seen[text] = true
		})
	}
}
