package genaisdk_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/anthropics/anthropic-sdk-go/v2"
	aoption "github.com/anthropics/anthropic-sdk-go/v2/option"
	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
	"github.com/stretchr/testify/require"
	"google.golang.org/genai"
)

// CountTokens reports exactly the promptTokenCount generateContent bills
// for the same contents.
func TestCountTokensMatchesUsage(t *testing.T) {
	t.Parallel()
	sess := newSession(t)
	sess.Chat("c").Responds("ok")
	c := client(t, sess)
	contents := []*genai.Content{genai.NewContentFromText("How many tokens is this sentence, exactly?", genai.RoleUser),
		genai.NewContentFromText("Some.", genai.RoleModel), genai.NewContentFromText("And this one?", genai.RoleUser)}
	count, err := c.Models.CountTokens(context.Background(), model, contents, nil)
	require.NoError(t, err)
	resp, err := c.Models.GenerateContent(context.Background(), model, contents, nil)
	require.NoError(t, err)
	require.Positive(t, count.TotalTokens)
	require.Equal(t, count.TotalTokens, resp.UsageMetadata.PromptTokenCount)
}

// EmbedContent (which genai always sends as batchEmbedContents) answers
// one vector per content, the same for the same text, of the asked length.
func TestEmbedContent(t *testing.T) {
	t.Parallel()
	sess := newSession(t)
	c := client(t, sess)
	dims := int32(64)
	contents := []*genai.Content{genai.NewContentFromText("alpha", genai.RoleUser), genai.NewContentFromText("beta", genai.RoleUser)}
	a, err := c.Models.EmbedContent(context.Background(), "gemini-embedding-001", contents, &genai.EmbedContentConfig{OutputDimensionality: &dims})
	require.NoError(t, err)
	require.Len(t, a.Embeddings, 2)
	require.Len(t, a.Embeddings[0].Values, 64)
	require.NotEqual(t, a.Embeddings[0].Values, a.Embeddings[1].Values)
	b, err := c.Models.EmbedContent(context.Background(), "gemini-embedding-001", contents[:1], &genai.EmbedContentConfig{OutputDimensionality: &dims})
	require.NoError(t, err)
	require.Equal(t, a.Embeddings[0].Values, b.Embeddings[0].Values)
	require.Equal(t, "/v1/models/gemini-embedding-001:batchEmbedContents", sess.Journal().Entries()[0].Path)
	require.Equal(t, "embeddings", sess.Journal().Entries()[0].Endpoint)

	// A generative model does not embed: 404, as the API answers.
	_, err = c.Models.EmbedContent(context.Background(), model, contents, nil)
	require.Equal(t, 404, apiError(t, err).Code)
}

// The models API lists the catalog in pages and describes each model
// with its limits and methods.
func TestModelsListAndGet(t *testing.T) {
	t.Parallel()
	sess := newSession(t)
	c := client(t, sess)
	page, err := c.Models.List(context.Background(), &genai.ListModelsConfig{PageSize: 5})
	require.NoError(t, err)
	require.Len(t, page.Items, 5)
	require.NotEmpty(t, page.NextPageToken)
	seen := map[string]bool{}
	for m, err := range c.Models.All(context.Background()) {
		require.NoError(t, err)
		require.False(t, seen[m.Name], m.Name)
		seen[m.Name] = true
	}
	require.True(t, seen["models/gemini-2.5-flash"])
	require.True(t, seen["models/gemini-embedding-001"])

	m, err := c.Models.Get(context.Background(), model, nil)
	require.NoError(t, err)
	require.Equal(t, "models/gemini-2.5-flash", m.Name)
	require.Equal(t, int32(1_048_576), m.InputTokenLimit)
	require.Equal(t, int32(65_536), m.OutputTokenLimit)
	require.Contains(t, m.SupportedActions, "generateContent")

	_, err = c.Models.Get(context.Background(), "gemini-9-ultra", nil)
	require.Equal(t, 404, apiError(t, err).Code)
}

// An explicit cache is created, read, listed, extended and deleted on the
// session's clock; a request that uses it reports its tokens as
// cachedContentTokenCount, within promptTokenCount. Caching is a v1beta
// API, which genai no longer calls by default.
func TestCachedContents(t *testing.T) {
	t.Parallel()
	sess := newSession(t)
	sess.Chat("c").Responds("from the cache").Repeat()
	c := betaClient(t, sess)
	doc := strings.Repeat("The cached document says many things about many topics. ", 200)
	cache, err := c.Caches.Create(context.Background(), model, &genai.CreateCachedContentConfig{
		DisplayName: "doc", TTL: time.Hour,
		Contents:          []*genai.Content{genai.NewContentFromText(doc, genai.RoleUser)},
		SystemInstruction: genai.NewContentFromText("Answer from the document.", genai.RoleUser),
	})
	require.NoError(t, err)
	require.True(t, strings.HasPrefix(cache.Name, "cachedContents/"))
	require.Equal(t, "models/"+model, cache.Model)
	require.Positive(t, cache.UsageMetadata.TotalTokenCount)
	require.Equal(t, time.Hour, cache.ExpireTime.Sub(cache.CreateTime))

	got, err := c.Caches.Get(context.Background(), cache.Name, nil)
	require.NoError(t, err)
	require.Equal(t, cache.Name, got.Name)

	resp, err := c.Models.GenerateContent(context.Background(), model, genai.Text("What does it say?"),
		&genai.GenerateContentConfig{CachedContent: cache.Name})
	require.NoError(t, err)
	require.Equal(t, "from the cache", resp.Text())
	u := resp.UsageMetadata
	require.Equal(t, cache.UsageMetadata.TotalTokenCount, u.CachedContentTokenCount)
	require.Greater(t, u.PromptTokenCount, u.CachedContentTokenCount)
	e := sess.Journal().Entries()[len(sess.Journal().Entries())-1]
	require.Equal(t, "Answer from the document.", e.Request.System)

	updated, err := c.Caches.Update(context.Background(), cache.Name, &genai.UpdateCachedContentConfig{TTL: 2 * time.Hour})
	require.NoError(t, err)
	require.True(t, updated.ExpireTime.After(cache.ExpireTime))

	n := 0
	for item, err := range c.Caches.All(context.Background()) {
		require.NoError(t, err)
		require.Equal(t, cache.Name, item.Name)
		n++
	}
	require.Equal(t, 1, n)

	_, err = c.Caches.Delete(context.Background(), cache.Name, nil)
	require.NoError(t, err)
	_, err = c.Caches.Get(context.Background(), cache.Name, nil)
	require.Equal(t, 403, apiError(t, err).Code)
	_, err = c.Models.GenerateContent(context.Background(), model, genai.Text("again"), &genai.GenerateContentConfig{CachedContent: cache.Name})
	require.Equal(t, 403, apiError(t, err).Code)

	// Too small a cache is refused, as the API refuses it.
	_, err = c.Caches.Create(context.Background(), model, &genai.CreateCachedContentConfig{
		Contents: []*genai.Content{genai.NewContentFromText("short", genai.RoleUser)}})
	require.Contains(t, apiError(t, err).Message, "Cached content is too small")
}

// On v1, genai's default, there is no context caching and no -latest
// alias, as genai's changelog for v1.78.0 warns; v1beta serves both.
func TestStableVersionServesLess(t *testing.T) {
	t.Parallel()
	sess := newSession(t)
	sess.Chat("c").Responds("ok").Repeat()
	c := client(t, sess)
	_, err := c.Caches.Create(context.Background(), model, &genai.CreateCachedContentConfig{
		Contents: []*genai.Content{genai.NewContentFromText("doc", genai.RoleUser)}})
	e := apiError(t, err)
	require.Equal(t, 404, e.Code)
	require.Contains(t, e.Message, `APIVersion: "v1beta"`)

	_, err = c.Models.GenerateContent(context.Background(), "gemini-flash-latest", genai.Text("hi"), nil)
	e = apiError(t, err)
	require.Equal(t, 404, e.Code)
	require.Contains(t, e.Message, "models/gemini-flash-latest is not found for API version v1,")
	require.NotContains(t, e.Message, "gemini-flash-lite-latest", "v1's 404 names no model v1 lacks")
	_, err = c.Models.Get(context.Background(), "gemini-flash-latest", nil)
	require.Equal(t, 404, apiError(t, err).Code)
	for m, err := range c.Models.All(context.Background()) {
		require.NoError(t, err)
		require.NotContains(t, m.Name, "-latest")
	}

	resp, err := betaClient(t, sess).Models.GenerateContent(context.Background(), "gemini-flash-latest", genai.Text("hi"), nil)
	require.NoError(t, err)
	require.Equal(t, "ok", resp.Text())
	require.Equal(t, "/v1beta/models/gemini-flash-latest:generateContent", sess.Journal().Entries()[len(sess.Journal().Entries())-1].Path)
}

// A repeated long prefix is reported as implicitly cached from the
// model's minimum on.
func TestImplicitCaching(t *testing.T) {
	t.Parallel()
	sess := newSession(t)
	sess.Chat("c").Responds("ok").Repeat()
	c := client(t, sess)
	doc := strings.Repeat("A long shared preamble that every request repeats word for word. ", 300)
	for i, q := range []string{"first question", "second question"} {
		resp, err := c.Models.GenerateContent(context.Background(), model, []*genai.Content{
			genai.NewContentFromText(doc, genai.RoleUser), genai.NewContentFromText(q, genai.RoleUser)}, nil)
		require.NoError(t, err)
		if i == 0 {
			require.Zero(t, resp.UsageMetadata.CachedContentTokenCount)
		} else {
			require.GreaterOrEqual(t, resp.UsageMetadata.CachedContentTokenCount, int32(2048))
		}
	}
}

// Vertex AI's paths, with a project and in express mode, are served by
// the same scenarios, and its embeddings by :predict; the client needs
// no Google credentials when it brings its own HTTP client.
func TestVertex(t *testing.T) {
	t.Parallel()
	sess := newSession(t)
	sess.Chat("v").Responds("from vertex").Repeat()
	project, err := genai.NewClient(context.Background(), &genai.ClientConfig{Backend: genai.BackendVertexAI,
		Project: "my-project", Location: "us-central1", HTTPClient: sess.HTTPClient(),
		HTTPOptions: genai.HTTPOptions{BaseURL: sess.GeminiBaseURL()}})
	require.NoError(t, err)
	resp, err := project.Models.GenerateContent(context.Background(), model, genai.Text("hi"), nil)
	require.NoError(t, err)
	require.Equal(t, "from vertex", resp.Text())
	require.Equal(t, "/v1beta1/projects/my-project/locations/us-central1/publishers/google/models/gemini-2.5-flash:generateContent",
		sess.Journal().Entries()[0].Path)

	express, err := genai.NewClient(context.Background(), &genai.ClientConfig{Backend: genai.BackendVertexAI,
		APIKey: "k", HTTPClient: sess.HTTPClient(), HTTPOptions: genai.HTTPOptions{BaseURL: sess.GeminiBaseURL()}})
	require.NoError(t, err)
	var joined strings.Builder
	for chunk, err := range express.Models.GenerateContentStream(context.Background(), model, genai.Text("hi"), nil) {
		require.NoError(t, err)
		joined.WriteString(chunk.Text())
	}
	require.Equal(t, "from vertex", joined.String())
	require.Equal(t, "/v1beta1/publishers/google/models/gemini-2.5-flash:streamGenerateContent", sess.Journal().Entries()[1].Path)

	// genai sends a Gemini embedding model's one content to Vertex's
	// embedContent, its options in an embedContentConfig, and several
	// contents to batchEmbedContents.
	dims := int32(8)
	emb, err := project.Models.EmbedContent(context.Background(), "gemini-embedding-001", genai.Text("vector me"),
		&genai.EmbedContentConfig{OutputDimensionality: &dims})
	require.NoError(t, err)
	require.Len(t, emb.Embeddings, 1)
	require.Len(t, emb.Embeddings[0].Values, 8)
	require.Positive(t, emb.Embeddings[0].Statistics.TokenCount)
	require.True(t, strings.HasSuffix(sess.Journal().Entries()[2].Path, "/gemini-embedding-001:embedContent"))

	two := []*genai.Content{genai.NewContentFromText("one", genai.RoleUser), genai.NewContentFromText("two", genai.RoleUser)}
	emb, err = project.Models.EmbedContent(context.Background(), "gemini-embedding-001", two, nil)
	require.NoError(t, err)
	require.Len(t, emb.Embeddings, 2)
	require.Len(t, emb.Embeddings[1].Values, 3072)
	require.True(t, strings.HasSuffix(sess.Journal().Entries()[3].Path, "/gemini-embedding-001:batchEmbedContents"))
}

// Vertex's predict, which genai sends for the models that are not Gemini
// embedding models (and sent for gemini-embedding-001 before v1.78),
// answers predictions with their statistics.
func TestVertexPredict(t *testing.T) {
	t.Parallel()
	sess := newSession(t)
	url := sess.GeminiBaseURL() + "/v1beta1/projects/p/locations/us-central1/publishers/google/models/gemini-embedding-001:predict"
	req, err := http.NewRequest(http.MethodPost, url, strings.NewReader(
		`{"instances":[{"content":"vector me"},{"content":"and me"}],"parameters":{"outputDimensionality":4}}`))
	require.NoError(t, err)
	req.Header.Set("Content-Type", "application/json")
	res, err := sess.HTTPClient().Do(req)
	require.NoError(t, err)
	defer res.Body.Close()
	require.Equal(t, http.StatusOK, res.StatusCode)
	var out struct {
		Predictions []struct {
			Embeddings struct {
				Values     []float32 `json:"values"`
				Statistics struct {
					TokenCount int `json:"token_count"`
				} `json:"statistics"`
			} `json:"embeddings"`
		} `json:"predictions"`
	}
	require.NoError(t, json.NewDecoder(res.Body).Decode(&out))
	require.Len(t, out.Predictions, 2)
	require.Len(t, out.Predictions[0].Embeddings.Values, 4)
	require.Positive(t, out.Predictions[1].Embeddings.Statistics.TokenCount)
}

// One scenario answers openai-go, anthropic-sdk-go and genai in one
// session.
func TestOneScenarioThreeProviders(t *testing.T) {
	t.Parallel()
	sess := newSession(t)
	sess.Chat("x").Responds("hi").Repeat()
	oc := openai.NewClient(option.WithBaseURL(sess.BaseURL()), option.WithAPIKey("k"), option.WithHTTPClient(sess.HTTPClient()))
	comp, err := oc.Chat.Completions.New(t.Context(), openai.ChatCompletionNewParams{Model: "gpt-4.1-mini",
		Messages: []openai.ChatCompletionMessageParamUnion{openai.UserMessage("hello")}})
	require.NoError(t, err)
	require.Equal(t, "hi", comp.Choices[0].Message.Content)
	ac := anthropic.NewClient(aoption.WithBaseURL(sess.AnthropicBaseURL()), aoption.WithAPIKey("k"), aoption.WithHTTPClient(sess.HTTPClient()))
	msg, err := ac.Messages.New(t.Context(), anthropic.MessageNewParams{Model: anthropic.ModelClaudeSonnet5_5, MaxTokens: 100,
		Messages: []anthropic.MessageParam{anthropic.NewUserMessage(anthropic.NewTextBlock("hello"))}})
	require.NoError(t, err)
	require.Equal(t, "hi", msg.Content[0].Text)
	resp, err := client(t, sess).Models.GenerateContent(t.Context(), model, genai.Text("hello"), nil)
	require.NoError(t, err)
	require.Equal(t, "hi", resp.Text())
	entries := sess.Journal().Entries()
	require.Len(t, entries, 3)
	for i, p := range []string{"openai", "anthropic", "gemini"} {
		require.Equal(t, p, entries[i].Provider)
		require.Equal(t, "x", entries[i].Scenario)
	}
}

// Parallel sessions sending identical prompts each get their own
// scenario's answer.
func TestParallelSessions(t *testing.T) {
	t.Parallel()
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sess := newSession(t)
			want := fmt.Sprintf("answer %d", i)
			sess.Chat("p").Responds(want)
			resp, err := client(t, sess).Models.GenerateContent(context.Background(), model, genai.Text("same prompt"), nil)
			if err != nil || resp.Text() != want {
				t.Errorf("session %d: %q, %v", i, resp.Text(), err)
			}
		}()
	}
	wg.Wait()
}

// The Developer API's embedContent, which genai never calls but the REST
// API's users do, answers one embedding in its single shape, the same
// vector batchEmbedContents gives the same text.
func TestEmbedContentSingle(t *testing.T) {
	t.Parallel()
	sess := newSession(t)
	post := func(method, body string) []byte {
		req, err := http.NewRequest(http.MethodPost, sess.GeminiBaseURL()+"/v1beta/models/gemini-embedding-001:"+method, strings.NewReader(body))
		require.NoError(t, err)
		req.Header.Set("Content-Type", "application/json")
		res, err := sess.HTTPClient().Do(req)
		require.NoError(t, err)
		defer res.Body.Close()
		var b strings.Builder
		_, err = io.Copy(&b, res.Body)
		require.NoError(t, err)
		require.Equal(t, http.StatusOK, res.StatusCode, b.String())
		return []byte(b.String())
	}
	var one struct {
		Embedding struct {
			Values []float32 `json:"values"`
		} `json:"embedding"`
	}
	require.NoError(t, json.Unmarshal(post("embedContent",
		`{"content":{"parts":[{"text":"vector me"}]},"outputDimensionality":16}`), &one))
	require.Len(t, one.Embedding.Values, 16)

	var batch struct {
		Embeddings []struct {
			Values []float32 `json:"values"`
		} `json:"embeddings"`
	}
	require.NoError(t, json.Unmarshal(post("batchEmbedContents",
		`{"requests":[{"model":"models/gemini-embedding-001","content":{"parts":[{"text":"vector me"}]},"outputDimensionality":16}]}`), &batch))
	require.Len(t, batch.Embeddings, 1)
	require.Equal(t, one.Embedding.Values, batch.Embeddings[0].Values)
}
