package openaiwire_test

import (
	"encoding/json"

	. "github.com/llmtestserver/llmtestserver/internal/openai"
)

// The tests here left package openai when go-openai left the root module,
// so they see only its exported names. These stand in for the few
// unexported ones they used, built from exported API where it has them.

// typeInvalidRequest is the error type of a 400 or 403 refusal.
const typeInvalidRequest = "invalid_request_error"

// catalog is the model catalog in its order, as CatalogIDs and LookupModel
// give it.
var catalog = func() []ModelInfo {
	var infos []ModelInfo
	for _, id := range CatalogIDs() {
		info, _ := LookupModel(id)
		infos = append(infos, info)
	}
	return infos
}()

// jsonKind names the JSON type of a valid JSON value: "object", "array",
// "string", "number", "bool" or "null"; "" for empty input.
func jsonKind(data json.RawMessage) string {
	var v any
	if len(data) == 0 || json.Unmarshal(data, &v) != nil {
		return ""
	}
	switch v.(type) {
	case map[string]any:
		return "object"
	case []any:
		return "array"
	case string:
		return "string"
	case bool:
		return "bool"
	case nil:
		return "null"
	}
	return "number"
}
