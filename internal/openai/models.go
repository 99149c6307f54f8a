package openai

import "strings"

// Model is one entry of GET /v1/models. It carries only the four fields the
// real API sends; the rest of what the server knows about a model is in
// ModelInfo.
type Model struct {
	ID      string `json:"id"`
	Object  string `json:"object"`
	Created int64  `json:"created"`
	OwnedBy string `json:"owned_by"`
}

// ModelList is the body of GET /v1/models. It has no cursor fields: the real
// list never pages.
type ModelList struct {
	Object string  `json:"object"`
	Data   []Model `json:"data"`
}

// ModelKind says which API family a model serves.
type ModelKind string

// The kinds of catalog models.
const (
	KindChat      ModelKind = "chat"      // Chat Completions and Responses
	KindReasoning ModelKind = "reasoning" // o-series and gpt-5: chat that refuses max_tokens
	KindEmbedding ModelKind = "embedding" // POST /embeddings only
	KindVideo     ModelKind = "video"     // POST /videos only
)

// ModelInfo is what the server knows about a catalog model.
type ModelInfo struct {
	ID string
	// Created is the Unix time GET /v1/models reports for the model, and
	// OwnedBy its owned_by ("system", "openai" or "openai-internal").
	Created int64
	OwnedBy string
	Kind    ModelKind
	// Encoding names the tokenizer vocabulary ("o200k_base", "cl100k_base").
	Encoding string
	// ContextWindow is the most tokens one request may carry, its prompt
	// and its maximum output together (a conversational request past it is
	// refused with context_length_exceeded unless the session ignores
	// context windows): for an embedding model, the most tokens of one
	// input. MaxOutputTokens is the
	// most the model writes per answer; zero for embedding and video models.
	ContextWindow   int
	MaxOutputTokens int
	// Dimensions is an embedding model's native vector length, and
	// AcceptsDimensions whether a request may ask for a shorter one.
	Dimensions        int
	AcceptsDimensions bool
}

const (
	encodingO200k  = "o200k_base"
	encodingCl100k = "cl100k_base"
)

// catalog lists current model IDs with the creation times and owners the
// real GET /v1/models reports for them, and the limits OpenAI documents.
var catalog = []ModelInfo{
	{ID: "gpt-4.1", Created: 1744316542, OwnedBy: "system", Kind: KindChat, Encoding: encodingO200k, ContextWindow: 1047576, MaxOutputTokens: 32768},
	{ID: "gpt-4.1-mini", Created: 1744318173, OwnedBy: "system", Kind: KindChat, Encoding: encodingO200k, ContextWindow: 1047576, MaxOutputTokens: 32768},
	{ID: "gpt-4.1-nano", Created: 1744321707, OwnedBy: "system", Kind: KindChat, Encoding: encodingO200k, ContextWindow: 1047576, MaxOutputTokens: 32768},
	{ID: "gpt-4o", Created: 1715367049, OwnedBy: "system", Kind: KindChat, Encoding: encodingO200k, ContextWindow: 128000, MaxOutputTokens: 16384},
	{ID: "gpt-4o-mini", Created: 1721172741, OwnedBy: "system", Kind: KindChat, Encoding: encodingO200k, ContextWindow: 128000, MaxOutputTokens: 16384},
	{ID: "gpt-5", Created: 1754425777, OwnedBy: "system", Kind: KindReasoning, Encoding: encodingO200k, ContextWindow: 400000, MaxOutputTokens: 128000},
	{ID: "gpt-5-mini", Created: 1754425928, OwnedBy: "system", Kind: KindReasoning, Encoding: encodingO200k, ContextWindow: 400000, MaxOutputTokens: 128000},
	{ID: "gpt-5-nano", Created: 1754426384, OwnedBy: "system", Kind: KindReasoning, Encoding: encodingO200k, ContextWindow: 400000, MaxOutputTokens: 128000},
	{ID: "o3", Created: 1744225308, OwnedBy: "system", Kind: KindReasoning, Encoding: encodingO200k, ContextWindow: 200000, MaxOutputTokens: 100000},
	{ID: "o3-mini", Created: 1737146383, OwnedBy: "system", Kind: KindReasoning, Encoding: encodingO200k, ContextWindow: 200000, MaxOutputTokens: 100000},
	{ID: "o4-mini", Created: 1744225351, OwnedBy: "system", Kind: KindReasoning, Encoding: encodingO200k, ContextWindow: 200000, MaxOutputTokens: 100000},
	{ID: "o1", Created: 1734375816, OwnedBy: "system", Kind: KindReasoning, Encoding: encodingO200k, ContextWindow: 200000, MaxOutputTokens: 100000},
	{ID: "gpt-4-turbo", Created: 1712361441, OwnedBy: "system", Kind: KindChat, Encoding: encodingCl100k, ContextWindow: 128000, MaxOutputTokens: 4096},
	{ID: "gpt-4", Created: 1687882411, OwnedBy: "openai", Kind: KindChat, Encoding: encodingCl100k, ContextWindow: 8192, MaxOutputTokens: 8192},
	{ID: "gpt-3.5-turbo", Created: 1677610602, OwnedBy: "openai", Kind: KindChat, Encoding: encodingCl100k, ContextWindow: 16385, MaxOutputTokens: 4096},
	{ID: "text-embedding-3-small", Created: 1705948997, OwnedBy: "system", Kind: KindEmbedding, Encoding: encodingCl100k, ContextWindow: 8192, Dimensions: 1536, AcceptsDimensions: true},
	{ID: "text-embedding-3-large", Created: 1705953180, OwnedBy: "system", Kind: KindEmbedding, Encoding: encodingCl100k, ContextWindow: 8192, Dimensions: 3072, AcceptsDimensions: true},
	{ID: "text-embedding-ada-002", Created: 1671217299, OwnedBy: "openai-internal", Kind: KindEmbedding, Encoding: encodingCl100k, ContextWindow: 8192, Dimensions: 1536},
	{ID: "sora-2", Created: 1759708615, OwnedBy: "system", Kind: KindVideo, Encoding: encodingO200k},
	{ID: "sora-2-pro", Created: 1759708663, OwnedBy: "system", Kind: KindVideo, Encoding: encodingO200k},
}

// LookupModel returns what the catalog knows about id, and false for an ID
// outside it.
func LookupModel(id string) (ModelInfo, bool) {
	for _, m := range catalog {
		if m.ID == id {
			return m, true
		}
	}
	return ModelInfo{}, false
}

// KindOf returns the kind of model, from the catalog alone: the entry of
// that ID, else the entry whose ID is the longest prefix of model followed
// by "-" or ".", so that dated snapshots and newer versions
// ("o3-2025-04-16", "gpt-5.1") take their family's kind. A model the catalog knows nothing
// of is a chat model.
func KindOf(model string) ModelKind {
	if m, ok := LookupModel(model); ok {
		return m.Kind
	}
	kind, longest := KindChat, 0
	for _, m := range catalog {
		rest, ok := strings.CutPrefix(model, m.ID)
		if ok && len(m.ID) > longest && (rest[0] == '-' || rest[0] == '.') {
			kind, longest = m.Kind, len(m.ID)
		}
	}
	return kind
}

// CatalogIDs returns the IDs of every model the server knows, in catalog order.
func CatalogIDs() []string {
	ids := make([]string, len(catalog))
	for i, m := range catalog {
		ids[i] = m.ID
	}
	return ids
}

// Models describes the given model IDs. IDs outside the catalog, such as a
// fine-tune a test names, are described as owned by the organisation.
func Models(ids []string) *ModelList {
	list := &ModelList{Object: "list", Data: make([]Model, 0, len(ids))}
	for _, id := range ids {
		list.Data = append(list.Data, describe(id))
	}
	return list
}

func describe(id string) Model {
	if m, ok := LookupModel(id); ok {
		return Model{ID: m.ID, Object: "model", Created: m.Created, OwnedBy: m.OwnedBy}
	}
	return Model{ID: id, Object: "model", OwnedBy: "organization-owner"}
}
