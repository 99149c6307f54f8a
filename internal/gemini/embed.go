package gemini

import (
	"strconv"
	"strings"

	"github.com/llmtestserver/llmtestserver/internal/answer"
	"github.com/llmtestserver/llmtestserver/internal/apierr"
	"github.com/llmtestserver/llmtestserver/internal/provider"
	"github.com/llmtestserver/llmtestserver/scenario"
)

// maxBatchEmbed is the most requests one batchEmbedContents takes (the
// API's limit).
const maxBatchEmbed = 100

var (
	taskType = enum("TaskType", "TASK_TYPE_UNSPECIFIED",
		"RETRIEVAL_QUERY", "RETRIEVAL_DOCUMENT", "SEMANTIC_SIMILARITY", "CLASSIFICATION", "CLUSTERING",
		"QUESTION_ANSWERING", "FACT_VERIFICATION", "CODE_RETRIEVAL_QUERY")
	embedRequestMessage = msg("EmbedContentRequest", map[string]*field{
		"model": str(), "content": of(contentMessage), "taskType": taskType,
		"title": str(), "outputDimensionality": integer(),
	})
	batchEmbedMessage = msg("BatchEmbedContentsRequest", map[string]*field{"requests": list(of(embedRequestMessage))})
	predictMessage    = msg("PredictRequest", map[string]*field{"instances": list(value()), "parameters": value()})

	// Vertex's embedContent takes its options in an embedContentConfig,
	// which genai sends from v1.78 on for every Gemini embedding model
	// (gemini-embedding-001 included); the Developer API's request has the
	// options at its top level.
	vertexEmbedConfig = msg("EmbedContentConfig", map[string]*field{
		"taskType": taskType, "title": str(), "outputDimensionality": integer(), "autoTruncate": boolean(),
		"documentOcr": boolean(), "audioTrackExtraction": boolean(),
	})
	vertexEmbedRequestMessage = embedRequestMessage.with(map[string]*field{
		"autoTruncate": boolean(), "embedContentConfig": of(vertexEmbedConfig),
	})
	vertexBatchEmbedMessage = msg("BatchEmbedContentsRequest", map[string]*field{"requests": list(of(vertexEmbedRequestMessage))})
)

type embedRequest struct {
	Model                string  `json:"model"`
	Content              Content `json:"content"`
	OutputDimensionality *int    `json:"outputDimensionality"`
	// Config is Vertex's embedContentConfig.
	Config *struct {
		OutputDimensionality *int `json:"outputDimensionality"`
	} `json:"embedContentConfig"`
}

// dimensions is the vector size the request asks for, if it asks.
func (r *embedRequest) dimensions() *int {
	if r.Config != nil && r.Config.OutputDimensionality != nil {
		return r.Config.OutputDimensionality
	}
	return r.OutputDimensionality
}

type values struct {
	Values []float32 `json:"values"`
}

// serveEmbed serves embedContent, batchEmbedContents and Vertex's
// predict: deterministic vectors of each input's text (the vectors
// OpenAI's embeddings give the same text), unless a scenario that names
// the embeddings endpoint scripts them.
func serveEmbed(x *provider.Exchange, t target) provider.Response {
	body, err := x.ReadBody()
	if err != nil {
		return provider.Response{Err: err}
	}
	var reqs []embedRequest
	single, batch := embedRequestMessage, batchEmbedMessage
	if t.Vertex {
		single, batch = vertexEmbedRequestMessage, vertexBatchEmbedMessage
	}
	switch t.Method {
	case "embedContent":
		var r embedRequest
		err = decodeBody(x.Ctx, body, single, &r)
		reqs = []embedRequest{r}
	case "batchEmbedContents":
		var b struct {
			Requests []embedRequest `json:"requests"`
		}
		err = decodeBody(x.Ctx, body, batch, &b)
		reqs = b.Requests
		if err == nil && len(reqs) == 0 {
			err = fieldError("BatchEmbedContentsRequest", "requests", "requests is not specified")
		} else if len(reqs) > maxBatchEmbed {
			err = fieldError("BatchEmbedContentsRequest", "requests", "at most 100 requests can be in one batch")
		}
	case "predict":
		reqs, err = decodePredict(x, body)
	}
	if err != nil {
		return provider.Response{Err: err, Model: t.Name}
	}
	texts := make([]string, len(reqs))
	for i := range reqs {
		r := &reqs[i]
		if m := strings.TrimPrefix(r.Model, "models/"); m != "" && m != t.Name && !t.Vertex {
			// Inferred wording.
			return provider.Response{Err: invalid("requests["+strconv.Itoa(i)+"].model",
				"Model %q of the request does not match the model of the batch, models/%s.", r.Model, t.Name), Model: t.Name}
		}
		if t.Method != "predict" {
			if err := validateContents("EmbedContentRequest", []Content{r.Content}, true); err != nil {
				return provider.Response{Err: err, Model: t.Name}
			}
		}
		if d := r.dimensions(); d != nil && (*d < 1 || *d > 3072) {
			return provider.Response{Err: invalid("outputDimensionality",
				"* EmbedContentRequest.output_dimensionality: Output dimensionality must be between 1 and 3072.\n"), Model: t.Name}
		}
		texts[i] = textOf(&r.Content)
	}
	norm := &scenario.Request{Endpoint: scenario.EndpointEmbeddings, Model: t.Name, Messages: make([]scenario.Message, len(texts))}
	for i, text := range texts {
		norm.Messages[i] = scenario.Message{Role: "user", Content: text}
	}
	answer.RecordRequest(x, norm)
	if !x.Serves(t.Name) {
		return provider.Response{Err: ModelNotFound(t.Name, offered(t, x.Models()), len(x.Runtime.Settings().Models) > 0, t.Version, methodEmbed)}
	}
	if info, ok := Lookup(t.Name); ok && (!info.Supports(methodEmbed) || !servedOn(t, t.Name)) {
		return provider.Response{Err: ModelNotFound(t.Name, offered(t, x.Models()), false, t.Version, methodEmbed)}
	}
	if refused := answer.Limit(x, norm); refused != nil {
		return *refused
	}
	vectors := make([][]float32, len(reqs))
	for i := range reqs {
		dims := 3072
		if d := reqs[i].dimensions(); d != nil {
			dims = *d
		}
		vectors[i] = answer.Vector(texts[i], dims)
	}
	res, reply, refused := answer.Scripted(x, norm)
	if refused != nil {
		return *refused
	}
	if res != nil {
		for i := range min(len(vectors), len(reply.Vectors)) {
			vectors[i] = reply.Vectors[i]
		}
	}
	return provider.Response{JSON: embedBody(x, t, texts, vectors), Reservation: res}
}

// embedBody is the answer in the method's shape.
func embedBody(x *provider.Exchange, t target, texts []string, vectors [][]float32) any {
	switch t.Method {
	case "embedContent":
		if t.Vertex {
			// Vertex reports the tokens it read, which genai turns into
			// the embedding's statistics.tokenCount.
			type usage struct {
				PromptTokenCount int `json:"promptTokenCount"`
			}
			c := answer.Counter{Ctx: x.Ctx, Model: t.Name}
			return struct {
				Embedding     values `json:"embedding"`
				UsageMetadata usage  `json:"usageMetadata"`
				Truncated     bool   `json:"truncated"`
			}{values{vectors[0]}, usage{c.Count(texts[0])}, false}
		}
		return struct {
			Embedding values `json:"embedding"`
		}{values{vectors[0]}}
	case "predict":
		type statistics struct {
			Truncated  bool `json:"truncated"`
			TokenCount int  `json:"token_count"`
		}
		type prediction struct {
			Embeddings struct {
				Values     []float32  `json:"values"`
				Statistics statistics `json:"statistics"`
			} `json:"embeddings"`
		}
		c := answer.Counter{Ctx: x.Ctx, Model: t.Name}
		out := struct {
			Predictions []prediction `json:"predictions"`
			Metadata    struct {
				BillableCharacterCount int `json:"billableCharacterCount"`
			} `json:"metadata"`
		}{Predictions: make([]prediction, len(vectors))}
		for i, v := range vectors {
			out.Predictions[i].Embeddings.Values = v
			out.Predictions[i].Embeddings.Statistics.TokenCount = c.Count(texts[i])
			out.Metadata.BillableCharacterCount += len(texts[i])
		}
		return out
	}
	out := struct {
		Embeddings []values `json:"embeddings"`
	}{Embeddings: make([]values, len(vectors))}
	for i, v := range vectors {
		out.Embeddings[i] = values{v}
	}
	return out
}

// decodePredict reads Vertex's predict body: {"instances":[{"content",
// "task_type", "title"}], "parameters":{"outputDimensionality"}}, content
// a text (or a Content, as genai may send it).
func decodePredict(x *provider.Exchange, body []byte) ([]embedRequest, *apierr.Error) {
	var b struct {
		Instances []struct {
			Content any `json:"content"`
		} `json:"instances"`
		Parameters struct {
			OutputDimensionality *int `json:"outputDimensionality"`
		} `json:"parameters"`
	}
	if err := decodeBody(x.Ctx, body, predictMessage, &b); err != nil {
		return nil, err
	}
	if len(b.Instances) == 0 || len(b.Instances) > maxBatchEmbed {
		return nil, invalid("instances", "instances must hold between 1 and %d instances.", maxBatchEmbed)
	}
	out := make([]embedRequest, len(b.Instances))
	for i, in := range b.Instances {
		text := ""
		switch c := in.Content.(type) {
		case string:
			text = c
		case map[string]any:
			if parts, ok := c["parts"].([]any); ok {
				var texts []string
				for _, p := range parts {
					if m, ok := p.(map[string]any); ok {
						if s, ok := m["text"].(string); ok {
							texts = append(texts, s)
						}
					}
				}
				text = strings.Join(texts, "\n")
			}
		default:
			return nil, invalid("instances["+strconv.Itoa(i)+"].content", "content must be a text.")
		}
		out[i] = embedRequest{Content: Content{Parts: []Part{{Text: &text}}}, OutputDimensionality: b.Parameters.OutputDimensionality}
	}
	return out, nil
}
