package openai

import (
	"context"
	"encoding/json"
	"math"
	"net/http"
	"testing"

	oai "github.com/openai/openai-go/v3"
)

// FuzzDecodeEmbeddingsRequest feeds arbitrary bodies to the decoder. It must
// never panic; a refusal must be a well-formed API error; an accepted request
// must respect the API's limits and render into a list openai-go decodes.
func FuzzDecodeEmbeddingsRequest(f *testing.F) {
	for _, seed := range []string{
		`{"model":"text-embedding-3-small","input":"hello"}`,
		`{"model":"text-embedding-3-large","input":["a","b"],"dimensions":3,"encoding_format":"base64"}`,
		`{"model":"text-embedding-ada-002","input":[1,2,3],"user":"u"}`,
		`{"model":"text-embedding-3-small","input":[[1,2],[3]],"encoding_format":"float"}`,
		`{"model":"text-embedding-ada-002","input":"x","dimensions":8}`,
		`{"model":"gpt-4o","input":"x"}`,
		`{"model":"my-embedder","input":["", "x"]}`,
		`{"model":"text-embedding-3-small","input":[],"dimensions":0}`,
		`{"model":"text-embedding-3-small","input":[-1]}`,
		`{"model":"text-embedding-3-small","input":{"a":1},"encoding_format":"md5"}`,
		`{"model":"text-embedding-3-small","input":"\u00e9\ud83d\ude00"}`,
		`[]`, `null`, `{"input":1e400}`, ``,
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		req, apiErr := DecodeEmbeddingsRequest(context.Background(), body)
		if apiErr != nil {
			if req != nil {
				t.Fatal("both a request and an error")
			}
			if (apiErr.Status != http.StatusBadRequest && apiErr.Status != http.StatusForbidden) || apiErr.Type == "" || apiErr.Message == "" {
				t.Fatalf("malformed error %+v", apiErr)
			}
			if _, err := json.Marshal(Envelope(apiErr)); err != nil {
				t.Fatal(err)
			}
			return
		}
		inputs, counts := req.Inputs(), req.tokens
		if req.Model == "" || len(inputs) == 0 || len(inputs) > maxEmbeddingInputs || len(counts) != len(inputs) {
			t.Fatalf("accepted %+v with %d inputs, %d counts", req, len(inputs), len(counts))
		}
		if req.EncodingFormat != "float" && req.EncodingFormat != "base64" {
			t.Fatalf("encoding_format %q", req.EncodingFormat)
		}
		dims := req.vectorDims
		if dims < 1 || dims > 3072 || (req.Dimensions != 0 && req.Dimensions != dims) {
			t.Fatalf("dimensions %d, vectors of %d", req.Dimensions, dims)
		}
		total := 0
		for i, n := range counts {
			if inputs[i] == "" || n < 0 || n > defaultEmbeddingTokens {
				t.Fatalf("input %d %q counted %d tokens", i, inputs[i], n)
			}
			total += n
		}
		if total != req.PromptTokens() || total > maxEmbeddingBatchTokens {
			t.Fatalf("prompt tokens %d, counts sum to %d", req.PromptTokens(), total)
		}
		// Render the first inputs only: vectors of every input would make
		// each run slow without exercising anything new.
		vecs := make([][]float32, min(len(inputs), 2))
		for i := range vecs {
			vecs[i] = Vector(inputs[i], dims)
		}
		b, err := json.Marshal(NewEmbeddingList(vecs, req.Model, req.EncodingFormat, total))
		if err != nil {
			t.Fatal(err)
		}
		var res oai.CreateEmbeddingResponse
		if err := json.Unmarshal(b, &res); err != nil || len(res.Data) != len(vecs) {
			t.Fatalf("openai-go refused %s: %v", b, err)
		}
		for i, d := range res.Data {
			if len(d.Embedding) != dims {
				t.Fatalf("vector %d decoded to %d dimensions, want %d", i, len(d.Embedding), dims)
			}
			for j, x := range d.Embedding {
				if float32(x) != vecs[i][j] || math.IsNaN(x) {
					t.Fatalf("vector %d component %d decoded to %v, sent %v", i, j, x, vecs[i][j])
				}
			}
		}
	})
}
