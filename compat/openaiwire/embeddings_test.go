package openaiwire_test

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	. "github.com/llmtestserver/llmtestserver/internal/openai"
	oai "github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
	goai "github.com/sashabaranov/go-openai"
)

// embServer answers POST /v1/embeddings as the real handler would: decode,
// then deterministic vectors, or the decoder's error. It keeps the last body
// and decoded request for the test to inspect.
type embServer struct {
	*httptest.Server
	mu   sync.Mutex
	body []byte
	req  *EmbeddingsRequest
}

func newEmbServer(t *testing.T) *embServer {
	s := &embServer{}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		req, apiErr := DecodeEmbeddingsRequest(context.Background(), body)
		s.mu.Lock()
		s.body, s.req = body, req
		s.mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		if apiErr != nil {
			w.WriteHeader(apiErr.Status)
			json.NewEncoder(w).Encode(Envelope(apiErr))
			return
		}
		json.NewEncoder(w).Encode(NewEmbeddingList(req.Vectors(), req.Model, req.EncodingFormat, req.PromptTokens()))
	}))
	t.Cleanup(s.Close)
	return s
}

func (s *embServer) last() ([]byte, *EmbeddingsRequest) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.body, s.req
}

func (s *embServer) openaiGo() oai.Client {
	return oai.NewClient(option.WithBaseURL(s.URL+"/v1"), option.WithAPIKey("sk-test"), option.WithMaxRetries(0))
}

func (s *embServer) goOpenAI() *goai.Client {
	cfg := goai.DefaultConfig("sk-test")
	cfg.BaseURL = s.URL + "/v1"
	return goai.NewClientWithConfig(cfg)
}

// embWantVectors checks got (as either SDK decodes it) against the vectors
// of inputs: decoding must give back the very float32 values sent.
func embWantVectors[F float32 | float64](t *testing.T, got [][]F, inputs []string, dims int) {
	t.Helper()
	if len(got) != len(inputs) {
		t.Fatalf("%d vectors for %d inputs", len(got), len(inputs))
	}
	for i, in := range inputs {
		want := Vector(in, dims)
		if len(got[i]) != dims {
			t.Fatalf("vector %d has %d dimensions, want %d", i, len(got[i]), dims)
		}
		for j := range want {
			if float32(got[i][j]) != want[j] {
				t.Fatalf("vector %d component %d = %v, want %v", i, j, got[i][j], want[j])
			}
		}
	}
}

// go-openai converts every request type to EmbeddingRequest before sending,
// so empty fields (an EmbeddingRequestStrings' user) are left out.
func TestEmbeddingsGoOpenAI(t *testing.T) {
	srv := newEmbServer(t)
	client := srv.goOpenAI()
	for _, tc := range []struct {
		name   string
		req    goai.EmbeddingRequestConverter
		body   string
		inputs []string
		dims   int
	}{
		{"EmbeddingRequest string", goai.EmbeddingRequest{Input: "hi", Model: goai.SmallEmbedding3},
			`{"input":"hi","model":"text-embedding-3-small"}`, []string{"hi"}, 1536},
		{"EmbeddingRequest base64 with dimensions", goai.EmbeddingRequest{Input: []string{"hi", "there"}, Model: goai.LargeEmbedding3,
			EncodingFormat: goai.EmbeddingEncodingFormatBase64, Dimensions: 8},
			`{"dimensions":8,"encoding_format":"base64","input":["hi","there"],"model":"text-embedding-3-large"}`, []string{"hi", "there"}, 8},
		{"EmbeddingRequestStrings", goai.EmbeddingRequestStrings{Input: []string{"one", "two"}, Model: goai.AdaEmbeddingV2},
			`{"input":["one","two"],"model":"text-embedding-ada-002"}`, []string{"one", "two"}, 1536},
		{"EmbeddingRequestTokens base64", goai.EmbeddingRequestTokens{Input: [][]int{{5, 6}, {7}}, Model: goai.SmallEmbedding3, EncodingFormat: goai.EmbeddingEncodingFormatBase64},
			`{"encoding_format":"base64","input":[[5,6],[7]],"model":"text-embedding-3-small"}`, []string{"5 6", "7"}, 1536},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res, err := client.CreateEmbeddings(context.Background(), tc.req)
			if err != nil {
				t.Fatal(err)
			}
			body, req := srv.last()
			if string(body) != tc.body {
				t.Errorf("go-openai sent %s, want %s", body, tc.body)
			}
			vecs := make([][]float32, len(res.Data))
			for i, d := range res.Data {
				if d.Index != i || d.Object != "embedding" {
					t.Errorf("data[%d] = index %d object %q", i, d.Index, d.Object)
				}
				vecs[i] = d.Embedding
			}
			embWantVectors(t, vecs, tc.inputs, tc.dims)
			if res.Usage.PromptTokens != req.PromptTokens() || res.Usage.TotalTokens != req.PromptTokens() || res.Usage.CompletionTokens != 0 {
				t.Errorf("usage %+v, want %d prompt tokens", res.Usage, req.PromptTokens())
			}
		})
	}
}

// Rendered bytes decode into go-openai's own response types: the float list
// into EmbeddingResponse, the base64 list into EmbeddingResponseBase64.
func TestEmbeddingListDecodesInGoOpenAITypes(t *testing.T) {
	vecs := [][]float32{Vector("x", 5), Vector("y", 5)}
	b, _ := json.Marshal(NewEmbeddingList(vecs, "text-embedding-3-small", "float", 2))
	var plain goai.EmbeddingResponse
	if err := json.Unmarshal(b, &plain); err != nil {
		t.Fatal(err)
	}
	b, _ = json.Marshal(NewEmbeddingList(vecs, "text-embedding-3-small", "base64", 2))
	var encoded goai.EmbeddingResponseBase64
	if err := json.Unmarshal(b, &encoded); err != nil {
		t.Fatal(err)
	}
	decoded, err := encoded.ToEmbeddingResponse()
	if err != nil {
		t.Fatal(err)
	}
	for _, res := range []goai.EmbeddingResponse{plain, decoded} {
		if res.Object != "list" || res.Model != goai.SmallEmbedding3 || res.Usage.PromptTokens != 2 || len(res.Data) != 2 {
			t.Fatalf("decoded %+v", res)
		}
		embWantVectors(t, [][]float32{res.Data[0].Embedding, res.Data[1].Embedding}, []string{"x", "y"}, 5)
	}
}

// Refusals reach both SDKs as their API error types.
func TestEmbeddingsErrorsInSDKs(t *testing.T) {
	srv := newEmbServer(t)
	client := srv.openaiGo()
	_, err := client.Embeddings.New(context.Background(), oai.EmbeddingNewParams{
		Input: oai.EmbeddingNewParamsInputUnion{OfArrayOfStrings: []string{"a", ""}}, Model: oai.EmbeddingModelTextEmbedding3Small})
	var oaiErr *oai.Error
	if !errors.As(err, &oaiErr) || oaiErr.StatusCode != 400 || oaiErr.Type != typeInvalidRequest || oaiErr.Param != "" || oaiErr.Code != "" ||
		!strings.HasPrefix(oaiErr.Message, "'$.input' is invalid.") {
		t.Errorf("openai-go error %#v", err)
	}
	_, err = srv.goOpenAI().CreateEmbeddings(context.Background(), goai.EmbeddingRequest{Input: "a", Model: goai.LargeEmbedding3, Dimensions: 4000})
	var apiErr *goai.APIError
	if !errors.As(err, &apiErr) || apiErr.HTTPStatusCode != 400 || apiErr.Param != nil || apiErr.Code != 0 ||
		apiErr.Message != "Invalid value for 'dimensions' = 4000. Must be less than or equal to 3072." {
		t.Errorf("go-openai error %#v", err)
	}
}
