package goopenai_test

import (
	"errors"
	"fmt"
	"math"
	"net/http"
	"strings"
	"testing"

	"github.com/llmtestserver/llmtestserver/internal/e2e"
	"github.com/llmtestserver/llmtestserver/llmtest"
	"github.com/llmtestserver/llmtestserver/scenario"
	"github.com/llmtestserver/llmtestserver/session"
	"github.com/openai/openai-go/v3"
	goopenai "github.com/sashabaranov/go-openai"
	"github.com/tiktoken-go/tokenizer"
)

// embTexts are inputs with ASCII, accents and emoji.
var embTexts = []string{"The quick brown fox", "jumps over the lazy dog.", "café 🎉 naïve"}

// embVectors are the vectors of one embeddings answer, as float32 (what the
// server computes), with the usage it reported.
type embVectors struct {
	vectors      [][]float32
	promptTokens int64
	totalTokens  int64
}

// embOpenAIGo embeds input with openai-go. dims 0 leaves dimensions out.
func embOpenAIGo(t *testing.T, client openai.Client, input openai.EmbeddingNewParamsInputUnion,
	format openai.EmbeddingNewParamsEncodingFormat, dims int64) embVectors {
	t.Helper()
	params := openai.EmbeddingNewParams{Model: e2e.EmbeddingModel, Input: input, EncodingFormat: format}
	if dims > 0 {
		params.Dimensions = openai.Int(dims)
	}
	resp, err := client.Embeddings.New(t.Context(), params)
	if err != nil {
		t.Fatalf("openai-go embeddings (%s): %v", format, err)
	}
	if resp.Model != e2e.EmbeddingModel || resp.Object != "list" {
		t.Errorf("openai-go embeddings: model %q object %q", resp.Model, resp.Object)
	}
	out := embVectors{promptTokens: resp.Usage.PromptTokens, totalTokens: resp.Usage.TotalTokens}
	for i, d := range resp.Data {
		if d.Index != int64(i) || d.Object != "embedding" {
			t.Errorf("openai-go data[%d]: index %d object %q", i, d.Index, d.Object)
		}
		// The float encoding carries float32 values in their shortest
		// decimal form, so rounding the float64 back to float32 restores
		// the exact value.
		v := make([]float32, len(d.Embedding))
		for j, x := range d.Embedding {
			v[j] = float32(x)
		}
		out.vectors = append(out.vectors, v)
	}
	return out
}

// embGoOpenAI embeds with go-openai; req is an EmbeddingRequest or an
// EmbeddingRequestStrings.
func embGoOpenAI(t *testing.T, client *goopenai.Client, req goopenai.EmbeddingRequestConverter) embVectors {
	t.Helper()
	resp, err := client.CreateEmbeddings(t.Context(), req)
	if err != nil {
		t.Fatalf("go-openai embeddings %T: %v", req, err)
	}
	if string(resp.Model) != e2e.EmbeddingModel || resp.Usage.CompletionTokens != 0 {
		t.Errorf("go-openai embeddings: model %q usage %+v", resp.Model, resp.Usage)
	}
	out := embVectors{promptTokens: int64(resp.Usage.PromptTokens), totalTokens: int64(resp.Usage.TotalTokens)}
	for i, d := range resp.Data {
		if d.Index != i || d.Object != "embedding" {
			t.Errorf("go-openai data[%d]: index %d object %q", i, d.Index, d.Object)
		}
		out.vectors = append(out.vectors, d.Embedding)
	}
	return out
}

// embSameBits reports whether a and b hold bit-identical components.
func embSameBits(a, b []float32) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if math.Float32bits(a[i]) != math.Float32bits(b[i]) {
			return false
		}
	}
	return true
}

func embNorm(v []float32) float64 {
	var sum float64
	for _, x := range v {
		sum += float64(x) * float64(x)
	}
	return math.Sqrt(sum)
}

func embCosine(a, b []float32) float64 {
	var dot float64
	for i := range a {
		dot += float64(a[i]) * float64(b[i])
	}
	return dot / embNorm(a) / embNorm(b)
}

// The same text gets the same vector, bit for bit, on every call, through
// both SDKs and both encodings, single or batched; vectors are unit length,
// listed in input order, and usage counts the inputs' tokens.
func TestEmbeddingsAreDeterministicAcrossSDKsAndEncodings(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t)
	sess := srv.NewSession(t)
	client := e2e.ClientFor(sess, "k")
	goClient := rsGoClient(sess)
	codec, err := tokenizer.Get(tokenizer.Cl100kBase)
	if err != nil {
		t.Fatal(err)
	}
	float, b64 := openai.EmbeddingNewParamsEncodingFormatFloat, openai.EmbeddingNewParamsEncodingFormatBase64

	// The reference: each text alone, openai-go, float.
	want := make([][]float32, len(embTexts))
	var sumTokens, firstTokens int64
	for i, text := range embTexts {
		got := embOpenAIGo(t, client, openai.EmbeddingNewParamsInputUnion{OfString: openai.String(text)}, float, 0)
		if len(got.vectors) != 1 || len(got.vectors[0]) != 1536 {
			t.Fatalf("%q: %d vectors, want one of 1536 components", text, len(got.vectors))
		}
		want[i] = got.vectors[0]
		if n := embNorm(want[i]); math.Abs(n-1) > 1e-5 {
			t.Errorf("%q: norm %v, want 1", text, n)
		}
		tokens, err := codec.Count(text)
		if err != nil {
			t.Fatal(err)
		}
		if got.promptTokens != int64(tokens) || got.totalTokens != got.promptTokens {
			t.Errorf("%q: usage %d/%d, want %d cl100k tokens for both", text, got.promptTokens, got.totalTokens, tokens)
		}
		sumTokens += got.promptTokens
		if i == 0 {
			firstTokens = got.promptTokens
		}
	}
	for i := range want {
		for j := range i {
			if c := embCosine(want[i], want[j]); c > 0.2 {
				t.Errorf("texts %d and %d have cosine %v: different texts must get unrelated vectors", i, j, c)
			}
		}
	}

	oneOf := func(i int) openai.EmbeddingNewParamsInputUnion {
		return openai.EmbeddingNewParamsInputUnion{OfString: openai.String(embTexts[i])}
	}
	all := openai.EmbeddingNewParamsInputUnion{OfArrayOfStrings: embTexts}
	answers := map[string]embVectors{
		"openai-go string float again": embOpenAIGo(t, client, oneOf(0), float, 0),
		"openai-go string default":     embOpenAIGo(t, client, oneOf(0), "", 0),
		"openai-go string base64":      embOpenAIGo(t, client, oneOf(0), b64, 0),
		"openai-go strings float":      embOpenAIGo(t, client, all, float, 0),
		"openai-go strings base64":     embOpenAIGo(t, client, all, b64, 0),
		"go-openai string float": embGoOpenAI(t, goClient, goopenai.EmbeddingRequest{Model: e2e.EmbeddingModel, Input: embTexts[0],
			EncodingFormat: goopenai.EmbeddingEncodingFormatFloat}),
		"go-openai string base64": embGoOpenAI(t, goClient, goopenai.EmbeddingRequest{Model: e2e.EmbeddingModel, Input: embTexts[0],
			EncodingFormat: goopenai.EmbeddingEncodingFormatBase64}),
		"go-openai strings default": embGoOpenAI(t, goClient, goopenai.EmbeddingRequestStrings{Model: e2e.EmbeddingModel, Input: embTexts}),
		"go-openai strings base64": embGoOpenAI(t, goClient, goopenai.EmbeddingRequestStrings{Model: e2e.EmbeddingModel, Input: embTexts,
			EncodingFormat: goopenai.EmbeddingEncodingFormatBase64}),
		"go-openai []string in EmbeddingRequest": embGoOpenAI(t, goClient, goopenai.EmbeddingRequest{Model: e2e.EmbeddingModel, Input: embTexts,
			EncodingFormat: goopenai.EmbeddingEncodingFormatFloat}),
	}
	for name, got := range answers {
		if len(got.vectors) != 1 && len(got.vectors) != len(embTexts) {
			t.Errorf("%s: %d vectors", name, len(got.vectors))
			continue
		}
		for i, v := range got.vectors {
			if !embSameBits(v, want[i]) {
				t.Errorf("%s: vector %d differs from the reference (first components %v, want %v)", name, i, v[:3], want[i][:3])
			}
		}
		wantTokens := sumTokens
		if len(got.vectors) == 1 {
			wantTokens = firstTokens
		}
		if got.promptTokens != wantTokens || got.totalTokens != wantTokens {
			t.Errorf("%s: usage %d/%d, want %d", name, got.promptTokens, got.totalTokens, wantTokens)
		}
	}
	for _, e := range sess.Journal().Entries() {
		if e.Path != "/v1/embeddings" || e.Status != http.StatusOK || e.Model != e2e.EmbeddingModel || e.Scenario != "" {
			t.Errorf("journal entry %+v, want a 200 embeddings call answered without a scenario", e)
		}
	}
}

// dimensions shortens a vector the way text-embedding-3 does: the shorter
// vector is the longer one's prefix, scaled back to unit length.
func TestEmbeddingsDimensions(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t)
	sess := srv.NewSession(t)
	client := e2e.ClientFor(sess, "k")
	goClient := rsGoClient(sess)
	text := openai.EmbeddingNewParamsInputUnion{OfString: openai.String(embTexts[1])}
	full := embOpenAIGo(t, client, text, openai.EmbeddingNewParamsEncodingFormatFloat, 0).vectors[0]

	for _, dims := range []int{1, 3, 256, 1024, 1536} {
		got := embOpenAIGo(t, client, text, openai.EmbeddingNewParamsEncodingFormatBase64, int64(dims)).vectors[0]
		if len(got) != dims {
			t.Fatalf("dimensions %d: %d components", dims, len(got))
		}
		if n := embNorm(got); math.Abs(n-1) > 1e-5 {
			t.Errorf("dimensions %d: norm %v, want 1", dims, n)
		}
		prefix := embNorm(full[:dims])
		for i, x := range got {
			if want := float64(full[i]) / prefix; math.Abs(float64(x)-want) > 1e-5 {
				t.Fatalf("dimensions %d: component %d = %v, want the normalized prefix's %v", dims, i, x, want)
			}
		}
		goGot := embGoOpenAI(t, goClient, goopenai.EmbeddingRequest{Model: e2e.EmbeddingModel, Input: embTexts[1], Dimensions: dims,
			EncodingFormat: goopenai.EmbeddingEncodingFormatFloat}).vectors[0]
		if !embSameBits(goGot, got) {
			t.Errorf("dimensions %d: go-openai's float vector differs from openai-go's base64 one", dims)
		}
	}
	if !embSameBits(embOpenAIGo(t, client, text, "", 1536).vectors[0], full) {
		t.Error("dimensions 1536 differs from the native vector")
	}
	large, err := client.Embeddings.New(t.Context(), openai.EmbeddingNewParams{Model: "text-embedding-3-large", Input: text})
	if err != nil || len(large.Data) != 1 || len(large.Data[0].Embedding) != 3072 {
		t.Errorf("text-embedding-3-large: %v, want 3072 components", err)
	}
}

// A scripted embeddings reply overrides the computed vectors of the inputs
// it covers, once; chat scenarios never answer embeddings.
func TestEmbeddingsScriptedVectorsWinForTheFirstInput(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t)
	sess := srv.NewSession(t)
	sess.Chat("chat-only").Responds("not a vector").Repeat()
	fixed := []float32{0.6, 0.8, 0}
	sess.Embeddings("fixed").Reply(scenario.Vectors(fixed)).Reply(scenario.Vectors(fixed))
	client := e2e.ClientFor(sess, "k")
	goClient := rsGoClient(sess)
	inputs := openai.EmbeddingNewParamsInputUnion{OfArrayOfStrings: []string{"first", "second"}}

	scripted := embOpenAIGo(t, client, inputs, openai.EmbeddingNewParamsEncodingFormatFloat, 3)
	goScripted := embGoOpenAI(t, goClient, goopenai.EmbeddingRequestStrings{Model: e2e.EmbeddingModel, Input: []string{"first", "second"},
		Dimensions: 3, EncodingFormat: goopenai.EmbeddingEncodingFormatBase64})
	computed := embOpenAIGo(t, client, inputs, openai.EmbeddingNewParamsEncodingFormatFloat, 3)

	for name, got := range map[string]embVectors{"openai-go float": scripted, "go-openai base64": goScripted} {
		if len(got.vectors) != 2 || !embSameBits(got.vectors[0], fixed) {
			t.Errorf("%s: vectors %v, want the scripted %v first", name, got.vectors, fixed)
			continue
		}
		if !embSameBits(got.vectors[1], computed.vectors[1]) {
			t.Errorf("%s: second vector %v, want the computed %v", name, got.vectors[1], computed.vectors[1])
		}
		if got.promptTokens != computed.promptTokens || got.promptTokens == 0 {
			t.Errorf("%s: prompt tokens %d, want the inputs' %d", name, got.promptTokens, computed.promptTokens)
		}
	}
	if embSameBits(computed.vectors[0], fixed) || len(computed.vectors[0]) != 3 {
		t.Errorf("after the script: first vector %v, want the computed one", computed.vectors[0])
	}
	entries := sess.Journal().Entries()
	if len(entries) != 3 || entries[0].Scenario != "fixed" || entries[1].Scenario != "fixed" || entries[2].Scenario != "" {
		t.Errorf("journal %+v, want the two scripted calls then a computed one", entries)
	}
	if st := sess.Scenarios(); len(st) != 2 || st[0].Remaining != 1 || st[1].Remaining != 0 {
		t.Errorf("scenarios %+v: the chat scenario must be untouched, the embeddings one used up", st)
	}
}

// A model the session does not serve is 404 model_not_found in both SDKs.
func TestEmbeddingsUnknownModel(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t)
	for _, tc := range []struct {
		name   string
		opts   []session.Option
		model  string
		served string // how the message goes on, naming what is served
	}{
		{"outside the catalog", nil, "text-embedding-9", " Nearest in this server's catalog: text-embedding-3-small, text-embedding-3-large, "},
		{"not served by the session", []session.Option{session.OnlyModels(e2e.EmbeddingModel, "gpt-4.1-mini")}, "text-embedding-3-large",
			" This session serves only: " + e2e.EmbeddingModel + ", gpt-4.1-mini."},
	} {
		sess := srv.NewSession(t, tc.opts...)
		client := e2e.ClientFor(sess, "k")
		_, err := client.Embeddings.New(t.Context(), openai.EmbeddingNewParams{Model: tc.model,
			Input: openai.EmbeddingNewParamsInputUnion{OfString: openai.String("hi")}})
		apiErr := e2e.WantInvalidRequest(t, tc.name, err, http.StatusNotFound, "model_not_found", "")
		if !strings.HasPrefix(apiErr.Message, fmt.Sprintf("The model `%s` does not exist or you do not have access to it.%s", tc.model, tc.served)) {
			t.Errorf("%s: message %q", tc.name, apiErr.Message)
		}
		_, err = rsGoClient(sess).CreateEmbeddings(t.Context(), goopenai.EmbeddingRequest{Model: goopenai.EmbeddingModel(tc.model), Input: "hi"})
		rsWantGoError(t, "go-openai: "+tc.name, err, http.StatusNotFound, "model_not_found", "")
		if e, ok := sess.Journal().Last(); !ok || e.Status != http.StatusNotFound || e.ErrorCode != "model_not_found" || e.Model != tc.model {
			t.Errorf("%s: journal %+v", tc.name, e)
		}
	}
}

// Invalid embeddings requests are refused with errors both SDKs parse.
func TestEmbeddingsValidationErrors(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t)
	sess := srv.NewSession(t)
	sess.Embeddings("unused").Reply(scenario.Vectors([]float32{1}))
	client := e2e.ClientFor(sess, "k")
	goClient := rsGoClient(sess)
	str := func(s string) openai.EmbeddingNewParamsInputUnion {
		return openai.EmbeddingNewParamsInputUnion{OfString: openai.String(s)}
	}
	cases := []struct {
		name   string
		params openai.EmbeddingNewParams
		goReq  goopenai.EmbeddingRequest
		status int
		code   string
		param  string
	}{
		{name: "empty string", params: openai.EmbeddingNewParams{Model: e2e.EmbeddingModel, Input: str("")},
			goReq: goopenai.EmbeddingRequest{Model: e2e.EmbeddingModel, Input: ""}, status: 400},
		{name: "empty array", params: openai.EmbeddingNewParams{Model: e2e.EmbeddingModel, Input: openai.EmbeddingNewParamsInputUnion{OfArrayOfStrings: []string{}}},
			goReq: goopenai.EmbeddingRequest{Model: e2e.EmbeddingModel, Input: []string{}}, status: 400},
		{name: "an empty string in the array", params: openai.EmbeddingNewParams{Model: e2e.EmbeddingModel,
			Input: openai.EmbeddingNewParamsInputUnion{OfArrayOfStrings: []string{"a", ""}}},
			goReq: goopenai.EmbeddingRequest{Model: e2e.EmbeddingModel, Input: []string{"a", ""}}, status: 400},
		{name: "unknown encoding_format", params: openai.EmbeddingNewParams{Model: e2e.EmbeddingModel, Input: str("a"), EncodingFormat: "hex"},
			goReq: goopenai.EmbeddingRequest{Model: e2e.EmbeddingModel, Input: "a", EncodingFormat: "hex"}, status: 400},
		{name: "more dimensions than the model has", params: openai.EmbeddingNewParams{Model: e2e.EmbeddingModel, Input: str("a"), Dimensions: openai.Int(2000)},
			goReq: goopenai.EmbeddingRequest{Model: e2e.EmbeddingModel, Input: "a", Dimensions: 2000}, status: 400},
		{name: "dimensions on ada-002", params: openai.EmbeddingNewParams{Model: "text-embedding-ada-002", Input: str("a"), Dimensions: openai.Int(8)},
			goReq: goopenai.EmbeddingRequest{Model: "text-embedding-ada-002", Input: "a", Dimensions: 8}, status: 400},
		{name: "zero dimensions", params: openai.EmbeddingNewParams{Model: e2e.EmbeddingModel, Input: str("a"), Dimensions: openai.Int(0)},
			goReq:  goopenai.EmbeddingRequest{Model: e2e.EmbeddingModel, Input: "a", ExtraBody: map[string]any{"dimensions": 0}},
			status: 400, code: "integer_below_min_value", param: "dimensions"},
		{name: "a chat model", params: openai.EmbeddingNewParams{Model: e2e.ResponsesModel, Input: str("a")},
			goReq: goopenai.EmbeddingRequest{Model: e2e.ResponsesModel, Input: "a"}, status: http.StatusForbidden},
		{name: "missing model", params: openai.EmbeddingNewParams{Input: str("a")},
			goReq: goopenai.EmbeddingRequest{Input: "a"}, status: 400, code: "missing_required_parameter", param: "model"},
	}
	for _, tc := range cases {
		_, err := client.Embeddings.New(t.Context(), tc.params)
		var apiErr *openai.Error
		if !errors.As(err, &apiErr) || apiErr.StatusCode != tc.status || apiErr.Code != tc.code || apiErr.Param != tc.param ||
			apiErr.Type != "invalid_request_error" || apiErr.Message == "" {
			t.Errorf("openai-go %s: err = %v, want %d invalid_request_error code %q param %q", tc.name, err, tc.status, tc.code, tc.param)
		}
		_, err = goClient.CreateEmbeddings(t.Context(), tc.goReq)
		var goErr *goopenai.APIError
		if !errors.As(err, &goErr) || goErr.HTTPStatusCode != tc.status || goErr.Type != "invalid_request_error" || goErr.Message == "" {
			t.Errorf("go-openai %s: err = %v, want an APIError %d", tc.name, err, tc.status)
			continue
		}
		if code, _ := goErr.Code.(string); code != tc.code {
			t.Errorf("go-openai %s: code %v, want %q", tc.name, goErr.Code, tc.code)
		}
	}
	if sess.Pending() != 1 {
		t.Errorf("a refused request used the scripted vectors")
	}
	for _, e := range sess.Journal().Entries() {
		if e.Status < 400 || e.Scenario != "" {
			t.Errorf("journal entry %+v, want a refused request", e)
		}
	}
}
