package openai

import (
	"maps"
	"net/http"
	"slices"
	"unicode/utf8"
)

// Bounds of metadata as the API documents them: at most 16 pairs, keys of
// at most 64 characters, values of at most 512.
const (
	maxMetadataPairs = 16
	maxMetadataKey   = 64
	maxMetadataValue = 512
)

// checkMetadata refuses metadata beyond the API's bounds, the same for
// every object that carries it (chat completions, responses,
// conversations). The wording of the too-many-pairs error is the
// Responses API's; that of the long key and long value follows the API's
// other string bounds (inferred, not seen for metadata).
func checkMetadata(m map[string]string) *Error {
	if len(m) > maxMetadataPairs {
		return invalidRequest(http.StatusBadRequest, "object_above_max_properties", "metadata",
			"Invalid 'metadata': too many properties. Expected an object with at most %d properties, but got an object with %d properties instead.",
			maxMetadataPairs, len(m))
	}
	for _, k := range slices.Sorted(maps.Keys(m)) {
		if n := utf8.RuneCountInString(k); n > maxMetadataKey {
			return invalidRequest(http.StatusBadRequest, "string_above_max_length", "metadata",
				"Invalid 'metadata': string too long. Expected a string with maximum length %d, but got a string with length %d instead.",
				maxMetadataKey, n)
		}
		if n := utf8.RuneCountInString(m[k]); n > maxMetadataValue {
			param := "metadata." + k
			return invalidRequest(http.StatusBadRequest, "string_above_max_length", param,
				"Invalid '%s': string too long. Expected a string with maximum length %d, but got a string with length %d instead.",
				param, maxMetadataValue, n)
		}
	}
	return nil
}

// metadataOverhead is what one metadata entry a record keeps costs beyond
// the bytes of its key and value (a stored response's echo, a stored chat
// completion's).
const metadataOverhead = 64
