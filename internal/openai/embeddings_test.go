package openai

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"

	oai "github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"

	"github.com/llmtestserver/llmtestserver/internal/tokens"
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

func embCount(texts ...string) int {
	n := 0
	for _, s := range texts {
		n += tokens.Count("text-embedding-3-small", s)
	}
	return n
}

func TestEmbeddingsOpenAIGo(t *testing.T) {
	srv := newEmbServer(t)
	client := srv.openaiGo()
	for _, tc := range []struct {
		name    string
		params  oai.EmbeddingNewParams
		body    string // the request body openai-go sends
		inputs  []string
		dims    int
		prompt  int
		encoded string
	}{
		{"string", oai.EmbeddingNewParams{Input: oai.EmbeddingNewParamsInputUnion{OfString: oai.String("hello world")}, Model: oai.EmbeddingModelTextEmbedding3Small},
			`{"input":"hello world","model":"text-embedding-3-small"}`, []string{"hello world"}, 1536, embCount("hello world"), "float"},
		{"strings with dimensions", oai.EmbeddingNewParams{Input: oai.EmbeddingNewParamsInputUnion{OfArrayOfStrings: []string{"a cat", "a dog", "a cat"}},
			Model: oai.EmbeddingModelTextEmbedding3Large, Dimensions: oai.Int(256), User: oai.String("u1")},
			`{"input":["a cat","a dog","a cat"],"model":"text-embedding-3-large","dimensions":256,"user":"u1"}`, []string{"a cat", "a dog", "a cat"}, 256, embCount("a cat", "a dog", "a cat"), "float"},
		{"tokens base64", oai.EmbeddingNewParams{Input: oai.EmbeddingNewParamsInputUnion{OfArrayOfTokens: []int64{9906, 1917}}, Model: oai.EmbeddingModelTextEmbedding3Small,
			Dimensions: oai.Int(3), EncodingFormat: oai.EmbeddingNewParamsEncodingFormatBase64},
			`{"input":[9906,1917],"model":"text-embedding-3-small","dimensions":3,"encoding_format":"base64"}`, []string{"9906 1917"}, 3, 2, "base64"},
		{"token arrays on ada-002", oai.EmbeddingNewParams{Input: oai.EmbeddingNewParamsInputUnion{OfArrayOfTokenArrays: [][]int64{{1}, {2, 3, 4}}}, Model: oai.EmbeddingModelTextEmbeddingAda002,
			EncodingFormat: oai.EmbeddingNewParamsEncodingFormatFloat},
			`{"input":[[1],[2,3,4]],"model":"text-embedding-ada-002","encoding_format":"float"}`, []string{"1", "2 3 4"}, 1536, 4, "float"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res, err := client.Embeddings.New(context.Background(), tc.params)
			if err != nil {
				t.Fatal(err)
			}
			body, req := srv.last()
			if string(body) != tc.body {
				t.Errorf("openai-go sent %s, want %s", body, tc.body)
			}
			if req.EncodingFormat != tc.encoded || !slices.Equal(req.Inputs(), tc.inputs) || req.PromptTokens() != tc.prompt {
				t.Errorf("decoded %+v inputs %q tokens %d", req, req.Inputs(), req.PromptTokens())
			}
			vecs := make([][]float64, len(res.Data))
			for i, d := range res.Data {
				if d.Index != int64(i) || string(d.Object) != "embedding" {
					t.Errorf("data[%d] = index %d object %q", i, d.Index, d.Object)
				}
				vecs[i] = d.Embedding
			}
			embWantVectors(t, vecs, tc.inputs, tc.dims)
			if res.Model != string(tc.params.Model) || string(res.Object) != "list" ||
				res.Usage.PromptTokens != int64(tc.prompt) || res.Usage.TotalTokens != int64(tc.prompt) {
				t.Errorf("response model %q object %q usage %+v", res.Model, res.Object, res.Usage)
			}
		})
	}
}

func TestEmbeddingListJSON(t *testing.T) {
	v := []float32{0.5, -1.25, 3}
	for format, want := range map[string]string{
		"float":  `{"object":"list","data":[{"object":"embedding","index":0,"embedding":[0.5,-1.25,3]}],"model":"m","usage":{"prompt_tokens":4,"total_tokens":4}}`,
		"base64": `{"object":"list","data":[{"object":"embedding","index":0,"embedding":"AAAAPwAAoL8AAEBA"}],"model":"m","usage":{"prompt_tokens":4,"total_tokens":4}}`,
	} {
		b, err := json.Marshal(NewEmbeddingList([][]float32{v}, "m", format, 4))
		if err != nil || string(b) != want {
			t.Errorf("%s: got %s (%v)\nwant %s", format, b, err, want)
		}
	}
	b, _ := json.Marshal(NewEmbeddingList([][]float32{{}}, "m", "float", 0))
	if !strings.Contains(string(b), `"embedding":[]`) {
		t.Errorf("empty vector rendered as %s", b)
	}
}

func TestDecodeEmbeddingsRequest(t *testing.T) {
	req, err := DecodeEmbeddingsRequest(context.Background(), []byte(`{"model":"text-embedding-3-small","input":["a b","c"],"encoding_format":null,"dimensions":null,"extra":{"x":1}}`))
	if err != nil {
		t.Fatal(err)
	}
	if req.EncodingFormat != "float" || req.Dimensions != 0 || req.vectorDims != 1536 ||
		!slices.Equal(req.Inputs(), []string{"a b", "c"}) || !slices.Equal(req.tokens, []int{embCount("a b"), embCount("c")}) {
		t.Errorf("decoded %+v inputs %q tokens %v", req, req.Inputs(), req.tokens)
	}
	req, err = DecodeEmbeddingsRequest(context.Background(), []byte(`{"model":"my-embedder","input":[0, 17, 100000],"dimensions":1536}`))
	if err != nil {
		t.Fatal(err)
	}
	if req.vectorDims != 1536 || !slices.Equal(req.Inputs(), []string{"0 17 100000"}) || !slices.Equal(req.tokens, []int{3}) {
		t.Errorf("model outside the catalog: %+v inputs %q tokens %v", req, req.Inputs(), req.tokens)
	}
}

// embTokenArrays renders n token arrays of size tokens each.
func embTokenArrays(n, size int) string {
	one := "[" + strings.TrimSuffix(strings.Repeat("1,", size), ",") + "]"
	return "[" + strings.TrimSuffix(strings.Repeat(one+",", n), ",") + "]"
}

func TestDecodeEmbeddingsLimits(t *testing.T) {
	ok := func(body string) {
		t.Helper()
		if _, err := DecodeEmbeddingsRequest(context.Background(), []byte(body)); err != nil {
			t.Errorf("refused %.80s…: %v", body, err)
		}
	}
	many := func(n int) string {
		return `{"model":"text-embedding-3-small","input":[` + strings.TrimSuffix(strings.Repeat(`"a",`, n), ",") + `]}`
	}
	ok(many(2048))
	ok(`{"model":"text-embedding-3-small","input":` + embTokenArrays(1, 8192) + `}`)
	ok(`{"model":"text-embedding-3-small","input":` + embTokenArrays(36, 8192) + `}`)
	ok(`{"model":"text-embedding-3-small","input":[` + strings.TrimSuffix(strings.Repeat("1,", 8192), ",") + `]}`)
	ok(`{"model":"text-embedding-3-large","input":"x","dimensions":3072}`)
	ok(`{"model":"text-embedding-3-small","input":"x","dimensions":1}`)
	ok(`{"model":"text-embedding-3-small","input":" "}`)

	long := strings.Repeat("hello ", 8200)
	for _, tc := range []struct {
		name, body                string
		status                    int
		typ, code, param, message string
	}{
		{"not JSON", `{"model":`, 400, typeInvalidRequest, "", "", "We could not parse"},
		{"no model", `{"input":"hi"}`, 400, typeInvalidRequest, "missing_required_parameter", "model", "Missing required parameter: 'model'."},
		{"model not a string", `{"model":3,"input":"hi"}`, 400, typeInvalidRequest, "invalid_type", "model", "Invalid type for 'model'"},
		{"no input", `{"model":"text-embedding-3-small"}`, 400, typeInvalidRequest, "missing_required_parameter", "input", "Missing required parameter: 'input'."},
		{"null input", `{"model":"text-embedding-3-small","input":null}`, 400, typeInvalidRequest, "missing_required_parameter", "input", ""},
		{"empty string", `{"model":"text-embedding-3-small","input":""}`, 400, typeInvalidRequest, "", "", "'$.input' is invalid. Please check the API reference: https://platform.openai.com/docs/api-reference."},
		{"empty array", `{"model":"text-embedding-3-small","input":[]}`, 400, typeInvalidRequest, "", "", "'$.input' is invalid."},
		{"empty string in array", `{"model":"text-embedding-3-small","input":["a",""]}`, 400, typeInvalidRequest, "", "", "'$.input' is invalid."},
		{"empty token array", `{"model":"text-embedding-3-small","input":[[1],[]]}`, 400, typeInvalidRequest, "", "", "'$.input' is invalid."},
		{"mixed array", `{"model":"text-embedding-3-small","input":["a",1]}`, 400, typeInvalidRequest, "", "", "'$.input' is invalid."},
		{"negative token", `{"model":"text-embedding-3-small","input":[1,-2]}`, 400, typeInvalidRequest, "", "", "'$.input' is invalid."},
		{"fractional token", `{"model":"text-embedding-3-small","input":[[1.5]]}`, 400, typeInvalidRequest, "", "", "'$.input' is invalid."},
		{"object input", `{"model":"text-embedding-3-small","input":{"text":"a"}}`, 400, typeInvalidRequest, "", "", "'$.input' is invalid."},
		{"too many inputs", many(2049), 400, typeInvalidRequest, "", "input", "Invalid 'input': array length must be 2048 or less."},
		{"too many token arrays", `{"model":"text-embedding-3-small","input":` + embTokenArrays(2049, 1) + `}`, 400, typeInvalidRequest, "", "input", "array length must be 2048 or less"},
		{"unknown encoding_format", `{"model":"text-embedding-3-small","input":"a","encoding_format":"md5"}`, 400, typeInvalidRequest, "", "",
			"Invalid value for 'encoding_format' = md5. Supported values: ['float', 'base64']."},
		{"empty encoding_format", `{"model":"text-embedding-3-small","input":"a","encoding_format":""}`, 400, typeInvalidRequest, "", "", "Invalid value for 'encoding_format'"},
		{"encoding_format not a string", `{"model":"text-embedding-3-small","input":"a","encoding_format":1}`, 400, typeInvalidRequest, "invalid_type", "encoding_format", ""},
		{"zero dimensions", `{"model":"text-embedding-3-small","input":"a","dimensions":0}`, 400, typeInvalidRequest, "integer_below_min_value", "dimensions", "Expected a value >= 1, but got 0 instead."},
		{"fractional dimensions", `{"model":"text-embedding-3-small","input":"a","dimensions":2.5}`, 400, typeInvalidRequest, "invalid_type", "dimensions", ""},
		{"dimensions on ada-002", `{"model":"text-embedding-ada-002","input":"a","dimensions":1536}`, 400, typeInvalidRequest, "", "", "This model does not support specifying dimensions."},
		{"dimensions above native", `{"model":"text-embedding-3-small","input":"a","dimensions":1537}`, 400, typeInvalidRequest, "", "", "Must be less than or equal to 1536."},
		{"dimensions above native, large", `{"model":"text-embedding-3-large","input":"a","dimensions":3073}`, 400, typeInvalidRequest, "", "", "Must be less than or equal to 3072."},
		{"dimensions above default for unknown model", `{"model":"ft-embedder","input":"a","dimensions":1537}`, 400, typeInvalidRequest, "", "", "Must be less than or equal to 1536."},
		{"chat model", `{"model":"gpt-4o","input":"a"}`, 403, typeInvalidRequest, "", "", "You are not allowed to generate embeddings from this model"},
		{"video model", `{"model":"sora-2","input":"a"}`, 403, typeInvalidRequest, "", "", "You are not allowed to generate embeddings from this model"},
		{"string too long", `{"model":"text-embedding-3-small","input":"` + long + `"}`, 400, typeInvalidRequest, "", "input", "Invalid 'input': maximum input length is 8192 tokens."},
		{"listed string too long", `{"model":"text-embedding-3-small","input":["a","` + long + `"]}`, 400, typeInvalidRequest, "", "input[1]", "Invalid 'input[1]': maximum input length is 8192 tokens."},
		{"token array too long", `{"model":"text-embedding-3-small","input":` + embTokenArrays(1, 8193) + `}`, 400, typeInvalidRequest, "", "input[0]", "maximum input length is 8192 tokens"},
		{"bare tokens too long", `{"model":"text-embedding-3-small","input":[` + strings.TrimSuffix(strings.Repeat("1,", 8193), ",") + `]}`, 400, typeInvalidRequest, "", "input", "maximum input length is 8192 tokens"},
		{"too many tokens in all", `{"model":"text-embedding-3-small","input":` + embTokenArrays(37, 8192) + `}`, 400, "max_tokens_per_request", "max_tokens_per_request", "",
			"Requested 303104 tokens, max 300000 tokens per request"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			req, err := DecodeEmbeddingsRequest(context.Background(), []byte(tc.body))
			if err == nil {
				t.Fatalf("accepted: %+v", req)
			}
			if err.Status != tc.status || err.Type != tc.typ || err.Code != tc.code || err.Param != tc.param || !strings.Contains(err.Message, tc.message) {
				t.Errorf("got %d %s code %q param %q: %s\nwant %d %s code %q param %q: %s",
					err.Status, err.Type, err.Code, err.Param, err.Message, tc.status, tc.typ, tc.code, tc.param, tc.message)
			}
		})
	}
}

func embNorm(v []float32) float64 {
	var s float64
	for _, x := range v {
		s += float64(x) * float64(x)
	}
	return math.Sqrt(s)
}

func TestVector(t *testing.T) {
	for _, dims := range []int{1, 2, 3, 256, 1536, 3072} {
		a, b := Vector("The quick brown fox", dims), Vector("The quick brown fox", dims)
		if !slices.Equal(a, b) {
			t.Fatalf("dims %d: two calls differ", dims)
		}
		if len(a) != dims || math.Abs(1-embNorm(a)) > 1e-6 {
			t.Errorf("dims %d: length %d, norm %v", dims, len(a), embNorm(a))
		}
	}
	if Vector("x", 0) != nil || Vector("x", -1) != nil {
		t.Error("Vector of no dimensions is not nil")
	}
	// Unrelated texts give nearly orthogonal vectors, never equal ones.
	seen := map[string]bool{}
	for i := range 200 {
		v := Vector(fmt.Sprint("text ", i), 64)
		key := fmt.Sprint(v)
		if seen[key] {
			t.Fatalf("text %d repeats a vector", i)
		}
		seen[key] = true
	}
	if dot := embDot(Vector("cat", 1536), Vector("dog", 1536)); math.Abs(dot) > 0.15 {
		t.Errorf("cosine of unrelated texts %v", dot)
	}
	if v := Vector("", 8); len(v) != 8 || math.Abs(1-embNorm(v)) > 1e-6 {
		t.Errorf("empty text: %v", v)
	}
}

func embDot(a, b []float32) float64 {
	var s float64
	for i := range a {
		s += float64(a[i]) * float64(b[i])
	}
	return s
}

// A shortened vector is the prefix of the full one, re-normalized, as the
// text-embedding-3 models shorten theirs.
func TestVectorShortening(t *testing.T) {
	full := Vector("shorten me", 3072)
	for _, dims := range []int{1, 8, 256, 1024, 1536} {
		short := Vector("shorten me", dims)
		prefix := full[:dims]
		n := embNorm(prefix)
		for i := range short {
			if d := math.Abs(float64(short[i]) - float64(prefix[i])/n); d > 1e-6 {
				t.Fatalf("dims %d component %d: %v, prefix gives %v", dims, i, short[i], float64(prefix[i])/n)
			}
		}
		if cos := embDot(short, prefix) / n; math.Abs(1-cos) > 1e-6 {
			t.Errorf("dims %d: cosine with the full vector's prefix %v", dims, cos)
		}
	}
}

// Counting a pathological input stops when the request's context ends, and
// the request is refused with 499 rather than answered.
func TestDecodeEmbeddingsRequestStopsCountingWhenCancelled(t *testing.T) {
	cause := errors.New("session deleted")
	ctx, cancel := context.WithCancelCause(context.Background())
	cancel(cause)
	body, _ := json.Marshal(map[string]any{"model": "text-embedding-3-small", "input": strings.Repeat(" \n", 64<<10)})
	req, err := DecodeEmbeddingsRequest(ctx, body)
	if req != nil || err == nil || err.Status != 499 || !strings.Contains(err.Message, cause.Error()) {
		t.Fatalf("DecodeEmbeddingsRequest after cancel = %v, %v; want a 499 naming the cause", req, err)
	}
}
