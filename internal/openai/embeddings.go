package openai

import (
	"context"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"math"
	"net/http"
	"strconv"
	"strings"

	"github.com/llmtestserver/llmtestserver/internal/answer"
	"github.com/llmtestserver/llmtestserver/internal/apierr"
	"github.com/llmtestserver/llmtestserver/internal/provider"
	"github.com/llmtestserver/llmtestserver/internal/tokens"
)

// EmbeddingsRequest is the body of POST /v1/embeddings as openai-go and
// go-openai send it, checked by DecodeEmbeddingsRequest. Fields it does not
// know are tolerated and dropped.
type EmbeddingsRequest struct {
	Model string
	// EncodingFormat is "float" or "base64"; "float" when the body left it out.
	EncodingFormat string
	// Dimensions is the vector length the body asked for, zero when it did
	// not ask.
	Dimensions int
	User       string

	inputs     []string
	tokens     []int
	vectorDims int
}

// embeddingsBody is the wire form DecodeEmbeddingsRequest reads.
type embeddingsBody struct {
	Model          string          `json:"model"`
	Input          json.RawMessage `json:"input"`
	EncodingFormat *string         `json:"encoding_format"`
	Dimensions     *int64          `json:"dimensions"`
	User           string          `json:"user"`
}

// Limits of POST /embeddings
// (https://platform.openai.com/docs/api-reference/embeddings/create).
const (
	maxEmbeddingInputs      = 2048
	maxEmbeddingBatchTokens = 300000
	// defaultEmbeddingTokens and defaultEmbeddingDimensions apply to models
	// outside the catalog, which are treated like text-embedding-3-small.
	defaultEmbeddingTokens     = 8192
	defaultEmbeddingDimensions = 1536
)

// DecodeEmbeddingsRequest decodes and validates an embeddings body the way
// the real API does. The checks, in order: JSON shape and field types; model
// and input present; input shape (a non-empty string, a non-empty array of
// non-empty strings, an array of token ids, or a non-empty array of
// non-empty token arrays, at most 2048 inputs); encoding_format; dimensions
// at least 1; a catalog model that is not an embedding model (403); a model
// that takes no dimensions, or more dimensions than it has; at most the
// model's tokens per input and 300,000 tokens in all.
//
// Counting the inputs' tokens is the costly part; it stops as soon as ctx is
// done, and the request is then refused with status 499 (the client closed
// the request), which its caller may replace with its own answer.
func DecodeEmbeddingsRequest(ctx context.Context, body []byte) (*EmbeddingsRequest, *Error) {
	var b embeddingsBody
	if err := decodeBody(body, &b); err != nil {
		return nil, err
	}
	if b.Model == "" {
		return nil, MissingParameter("model")
	}
	if !present(b.Input) {
		return nil, MissingParameter("input")
	}
	items, lone, err := decodeEmbeddingInput(b.Input)
	if err != nil {
		return nil, err
	}
	req := &EmbeddingsRequest{Model: b.Model, EncodingFormat: "float", User: b.User}
	if b.EncodingFormat != nil {
		switch f := *b.EncodingFormat; f {
		case "float", "base64":
			req.EncodingFormat = f
		default:
			return nil, invalidRequest(http.StatusBadRequest, "", "",
				"Invalid value for 'encoding_format' = %s. Supported values: ['float', 'base64'].", f)
		}
	}
	if b.Dimensions != nil && *b.Dimensions < 1 {
		return nil, invalidRequest(http.StatusBadRequest, "integer_below_min_value", "dimensions",
			"Invalid 'dimensions': integer below minimum value. Expected a value >= 1, but got %d instead.", *b.Dimensions)
	}

	native, accepts, maxTokens := defaultEmbeddingDimensions, true, defaultEmbeddingTokens
	if info, ok := LookupModel(b.Model); ok {
		if info.Kind != KindEmbedding {
			return nil, invalidRequest(http.StatusForbidden, "", "", "You are not allowed to generate embeddings from this model")
		}
		native, accepts, maxTokens = info.Dimensions, info.AcceptsDimensions, info.ContextWindow
	}
	req.vectorDims = native
	if b.Dimensions != nil {
		if !accepts {
			return nil, invalidRequest(http.StatusBadRequest, "", "", "This model does not support specifying dimensions.")
		}
		if *b.Dimensions > int64(native) {
			return nil, invalidRequest(http.StatusBadRequest, "", "",
				"Invalid value for 'dimensions' = %d. Must be less than or equal to %d.", *b.Dimensions, native)
		}
		req.Dimensions = int(*b.Dimensions)
		req.vectorDims = req.Dimensions
	}

	req.inputs = make([]string, len(items))
	req.tokens = make([]int, len(items))
	total := 0
	for i, it := range items {
		n := len(it.tokens)
		if it.tokens == nil {
			req.inputs[i] = it.text
			var cerr error
			if n, cerr = tokens.CountContext(ctx, b.Model, it.text); cerr != nil {
				return nil, countStopped(cerr)
			}
		} else {
			req.inputs[i] = tokenText(it.tokens)
		}
		if n > maxTokens {
			param := fmt.Sprintf("input[%d]", i)
			if lone {
				param = "input"
			}
			return nil, invalidRequest(http.StatusBadRequest, "", param,
				"Invalid '%s': maximum input length is %d tokens.", param, maxTokens)
		}
		req.tokens[i] = n
		total += n
	}
	if total > maxEmbeddingBatchTokens {
		return nil, &Error{Status: http.StatusBadRequest, Type: "max_tokens_per_request", Code: "max_tokens_per_request",
			Message: fmt.Sprintf("Requested %d tokens, max %d tokens per request", total, maxEmbeddingBatchTokens)}
	}
	return req, nil
}

// countStopped is the refusal of a request whose inputs were still being
// counted when its context ended: the client left, or its session was
// deleted.
func countStopped(cause error) *Error {
	return apierr.ClientClosed("The request ended before its input was counted: " + cause.Error() + ".")
}

// embeddingInput is one input: text, or token ids when tokens is non-nil.
type embeddingInput struct {
	text   string
	tokens []int64
}

// invalidEmbeddingInput is the API's answer to an input of the wrong shape,
// including an empty string or an empty array.
func invalidEmbeddingInput() *Error {
	return invalidRequest(http.StatusBadRequest, "", "",
		"'$.input' is invalid. Please check the API reference: https://platform.openai.com/docs/api-reference.")
}

// decodeEmbeddingInput reads the four shapes of input. lone reports a single
// input sent bare (a string or one token array) rather than in a list.
func decodeEmbeddingInput(raw json.RawMessage) (items []embeddingInput, lone bool, _ *Error) {
	switch provider.JSONKind(raw) {
	case "string":
		var s string
		if json.Unmarshal(raw, &s) != nil || s == "" {
			return nil, false, invalidEmbeddingInput()
		}
		return []embeddingInput{{text: s}}, true, nil
	case "array":
	default:
		return nil, false, invalidEmbeddingInput()
	}
	var elems []json.RawMessage
	if json.Unmarshal(raw, &elems) != nil || len(elems) == 0 {
		return nil, false, invalidEmbeddingInput()
	}
	switch provider.JSONKind(elems[0]) {
	case "number":
		ids, ok := tokenIDs(elems)
		if !ok {
			return nil, false, invalidEmbeddingInput()
		}
		return []embeddingInput{{tokens: ids}}, true, nil
	case "string", "array":
	default:
		return nil, false, invalidEmbeddingInput()
	}
	if len(elems) > maxEmbeddingInputs {
		return nil, false, invalidRequest(http.StatusBadRequest, "", "input",
			"Invalid 'input': array length must be %d or less.", maxEmbeddingInputs)
	}
	items = make([]embeddingInput, len(elems))
	strs := provider.JSONKind(elems[0]) == "string"
	for i, e := range elems {
		if strs {
			if provider.JSONKind(e) != "string" || json.Unmarshal(e, &items[i].text) != nil || items[i].text == "" {
				return nil, false, invalidEmbeddingInput()
			}
			continue
		}
		var inner []json.RawMessage
		if provider.JSONKind(e) != "array" || json.Unmarshal(e, &inner) != nil || len(inner) == 0 {
			return nil, false, invalidEmbeddingInput()
		}
		ids, ok := tokenIDs(inner)
		if !ok {
			return nil, false, invalidEmbeddingInput()
		}
		items[i].tokens = ids
	}
	return items, false, nil
}

// tokenIDs reads an array of non-negative integers.
func tokenIDs(elems []json.RawMessage) ([]int64, bool) {
	ids := make([]int64, len(elems))
	for i, e := range elems {
		if provider.JSONKind(e) != "number" || json.Unmarshal(e, &ids[i]) != nil || ids[i] < 0 {
			return nil, false
		}
	}
	return ids, true
}

// tokenText is the stable text form of a token-id input: the decimal ids
// joined by spaces.
func tokenText(ids []int64) string {
	var sb strings.Builder
	for i, id := range ids {
		if i > 0 {
			sb.WriteByte(' ')
		}
		sb.WriteString(strconv.FormatInt(id, 10))
	}
	return sb.String()
}

// Inputs returns the inputs in order. A token-id input is rendered as its
// decimal ids joined by spaces, so it hashes stably; note that the text
// "1 2" and the tokens [1, 2] therefore get the same vector.
func (r *EmbeddingsRequest) Inputs() []string { return r.inputs }

// PromptTokens returns the tokens of all inputs, as usage reports them.
func (r *EmbeddingsRequest) PromptTokens() int {
	n := 0
	for _, t := range r.tokens {
		n += t
	}
	return n
}

// Vectors returns the deterministic vector of every input.
func (r *EmbeddingsRequest) Vectors() [][]float32 {
	out := make([][]float32, len(r.inputs))
	for i, in := range r.inputs {
		out[i] = Vector(in, r.vectorDims)
	}
	return out
}

// Vector is the deterministic embedding of text (answer.Vector), which
// every provider's embeddings answer alike.
func Vector(text string, dims int) []float32 { return answer.Vector(text, dims) }

// EmbeddingList is the body of a successful POST /v1/embeddings.
type EmbeddingList struct {
	Object string          `json:"object"`
	Data   []Embedding     `json:"data"`
	Model  string          `json:"model"`
	Usage  EmbeddingsUsage `json:"usage"`
}

// Embedding is one element of EmbeddingList.Data.
type Embedding struct {
	Object    string          `json:"object"`
	Index     int             `json:"index"`
	Embedding EmbeddingVector `json:"embedding"`
}

// EmbeddingVector is a vector as the request's encoding_format asks: a JSON
// array of numbers, or with Base64 set a string holding the standard, padded
// base64 of the components as little-endian IEEE-754 float32 values.
type EmbeddingVector struct {
	Values []float32
	Base64 bool
}

// MarshalJSON writes the vector in its format.
func (v EmbeddingVector) MarshalJSON() ([]byte, error) {
	if !v.Base64 {
		if v.Values == nil {
			return []byte("[]"), nil
		}
		return json.Marshal(v.Values)
	}
	buf := make([]byte, 4*len(v.Values))
	for i, f := range v.Values {
		binary.LittleEndian.PutUint32(buf[4*i:], math.Float32bits(f))
	}
	return json.Marshal(base64.StdEncoding.EncodeToString(buf))
}

// EmbeddingsUsage is the usage of an embeddings call; it has no completion
// tokens.
type EmbeddingsUsage struct {
	PromptTokens int `json:"prompt_tokens"`
	TotalTokens  int `json:"total_tokens"`
}

// NewEmbeddingList builds the answer to an embeddings call: vectors in input
// order, encoded as format ("base64", else float arrays).
func NewEmbeddingList(vectors [][]float32, model, format string, promptTokens int) *EmbeddingList {
	list := &EmbeddingList{Object: "list", Data: make([]Embedding, len(vectors)), Model: model,
		Usage: EmbeddingsUsage{PromptTokens: promptTokens, TotalTokens: promptTokens}}
	for i, v := range vectors {
		list.Data[i] = Embedding{Object: "embedding", Index: i, Embedding: EmbeddingVector{Values: v, Base64: format == "base64"}}
	}
	return list
}
