package openai

import (
	"strings"

	"github.com/llmtestserver/llmtestserver/internal/apierr"
	"github.com/llmtestserver/llmtestserver/internal/provider"
)

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
	// Snapshot is the dated snapshot the model's answers name: for an
	// alias the snapshot it points to, for a snapshot (and a model without
	// snapshots) its own ID. Alias is the alias of a snapshot, and empty
	// for every other model.
	Snapshot string
	Alias    string
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

// catalog is every model the server knows, each alias followed by its
// snapshots (see catalogFamilies), and byID indexes it.
var (
	catalog = flatten(catalogFamilies)
	byID    = index(catalog)
)

func index(models []ModelInfo) map[string]int {
	m := make(map[string]int, len(models))
	for i, info := range models {
		m[info.ID] = i
	}
	return m
}

// LookupModel returns what the catalog knows about id, an alias or a dated
// snapshot, and false for an ID outside it.
func LookupModel(id string) (ModelInfo, bool) {
	if i, ok := byID[id]; ok {
		return catalog[i], true
	}
	return ModelInfo{}, false
}

// SnapshotOf is the model the real API names in its answers to a request
// for model: the dated snapshot an alias points to ("gpt-4o-mini" answers
// as "gpt-4o-mini-2024-07-18"), a snapshot itself, and a model outside the
// catalog (a fine-tune, a model of a session's allow-list) as named.
func SnapshotOf(model string) string {
	if info, ok := LookupModel(model); ok && info.Snapshot != "" {
		return info.Snapshot
	}
	return model
}

// answeredModel is the model an answer to a request for requested names:
// the reply's own model when it scripts one, else requested's snapshot
// (see SnapshotOf). The journal and matchers keep seeing requested.
func answeredModel(requested, scripted string) string {
	if scripted != "" {
		return scripted
	}
	return SnapshotOf(requested)
}

// AliasOf is the alias of a dated snapshot ("gpt-4o-2024-05-13" is a
// snapshot of "gpt-4o"), and "" for any other model.
func AliasOf(model string) string {
	info, _ := LookupModel(model)
	return info.Alias
}

// KindOf returns the kind of model, from the catalog alone (see
// familyOf). A model the catalog knows nothing of is a chat model.
func KindOf(model string) ModelKind {
	if m, ok := familyOf(model); ok {
		return m.Kind
	}
	return KindChat
}

// familyOf returns the catalog entry of model: the entry of that ID, else
// the entry whose ID is the longest prefix of model followed by "-" or
// ".", so that dated snapshots and newer versions ("o3-2099-01-01",
// "gpt-5.9") take their family's kind and rules; false when no entry is
// either.
func familyOf(model string) (ModelInfo, bool) {
	if m, ok := LookupModel(model); ok {
		return m, true
	}
	var family ModelInfo
	longest := 0
	for _, m := range catalog {
		rest, ok := strings.CutPrefix(model, m.ID)
		if ok && len(m.ID) > longest && rest != "" && (rest[0] == '-' || rest[0] == '.') {
			family, longest = m, len(m.ID)
		}
	}
	return family, longest > 0
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

// contextWindow is the context window of a catalog model, and 0 (no check)
// for a model the catalog does not know.
func contextWindow(model string) int {
	if info, ok := LookupModel(model); ok {
		return info.ContextWindow
	}
	return 0
}

// notAChatModel refuses, as the real API does, a catalog model that is no
// chat model (an embedding or video model) on a conversational route.
func notAChatModel(x *provider.Exchange, model string) *apierr.Error {
	if info, ok := LookupModel(model); ok && info.Kind != KindChat && info.Kind != KindReasoning {
		return NotAChatModel(x.Request.URL.Path)
	}
	return nil
}
